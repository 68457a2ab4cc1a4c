import Foundation
import Testing

/// The bytes of `gzip -dc path` (gzip is in every Debian system: Essential: yes).
func gunzipped(_ path: String) throws -> String {
    let result = try runProcess(URL(fileURLWithPath: "/bin/gzip"), ["-dc", path])
    #expect(result.status == 0, "\(result)")
    return result.stdout
}

/// What changeset reads in the CSV file `path` (compressed or not), byte for
/// byte: a merge of a file with itself is that file, its bytes copied.
func readBack(_ path: String, id: String = "sku") throws -> String {
    let result = try changeset(["merge", path, path, path, "--id", id])
    #expect(result.status == 0, "\(result)")
    return result.stdout
}

/// The first bytes of `path`, to tell gzip (1f 8b) and zstd (28 b5 2f fd) from text.
func leadingBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(4))
}

let gzipSignature: [UInt8] = [0x1F, 0x8B]
let zstdSignature: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]

/// Results written to files named `.gz` or `.zst` are compressed that way
/// (never plain bytes under a compressed name); other names and standard
/// output get plain text, whatever the inputs were.
@Suite struct CompressedOutputTests {
    static let base = "sku,name,price,stock\nA1,apple,1.00,10\nB2,pear,2.00,20\nC3,plum,3.00,30\n"
    static let ours = base.replacingOccurrences(of: "C3,plum,3.00,30", with: "C3,plum,3.30,30")
    static let theirs = base.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.00,25")
    static let merged = ours.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.00,25")

    /// base.csv, ours.csv and theirs.csv, and ours.csv.gz (gzip -n of ours.csv), in a scratch folder.
    func inputs() throws -> URL {
        let directory = try scratchDirectory()
        for (name, text) in [("base.csv", Self.base), ("ours.csv", Self.ours), ("theirs.csv", Self.theirs)] {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        let zipped = try runProcess(URL(fileURLWithPath: "/bin/gzip"), ["-n", "-k", "ours.csv"], in: directory)
        #expect(zipped.status == 0, "\(zipped)")
        return directory
    }

    @Test func mergeWritesAResultNamedGzOrZstCompressedThatWay() throws {
        let directory = try inputs()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["merged.csv.gz", "merged.csv.zst"] {
            let result = try changeset(["merge", "base.csv", "ours.csv", "theirs.csv", "--id", "sku", "-o", name], in: directory)
            #expect(result.status == 0 && result.stdout.isEmpty, "\(result)")
            let path = directory.appendingPathComponent(name).path
            #expect(try leadingBytes(path).starts(with: name.hasSuffix(".gz") ? gzipSignature : zstdSignature), "\(name)")
            #expect(try readBack(path) == Self.merged, "\(name)")
        }
        #expect(try gunzipped(directory.appendingPathComponent("merged.csv.gz").path) == Self.merged)
    }

    @Test func aCompressedOursGivesPlainTextUnderAPlainNameAndOnStandardOutput() throws {
        let directory = try inputs()
        defer { try? FileManager.default.removeItem(at: directory) }
        let toFile = try changeset(["merge", "base.csv", "ours.csv.gz", "theirs.csv", "--id", "sku", "-o", "merged.csv"], in: directory)
        #expect(toFile.status == 0, "\(toFile)")
        #expect(try String(contentsOf: directory.appendingPathComponent("merged.csv"), encoding: .utf8) == Self.merged)
        let toStandardOutput = try changeset(["merge", "base.csv", "ours.csv.gz", "theirs.csv", "--id", "sku"], in: directory)
        #expect(toStandardOutput.status == 0 && toStandardOutput.stdout == Self.merged, "\(toStandardOutput)")
    }

    @Test func applyDiffAndTheConflictsFileWriteCompressedFilesByTheirNames() throws {
        let directory = try inputs()
        defer { try? FileManager.default.removeItem(at: directory) }
        let patch = try changeset(["base.csv", "ours.csv", "--id", "sku", "--format", "patch", "-o", "p.patch.gz"], in: directory)
        #expect(patch.status == 1, "\(patch)")
        let plainPatch = try changeset(["base.csv", "ours.csv", "--id", "sku", "--format", "patch"], in: directory)
        #expect(try gunzipped(directory.appendingPathComponent("p.patch.gz").path) == plainPatch.stdout)

        let applied = try changeset(["apply", "base.csv", "p.patch.gz", "-o", "rebuilt.csv.zst"], in: directory)
        #expect(applied.status == 0, "\(applied)")
        let rebuilt = directory.appendingPathComponent("rebuilt.csv.zst").path
        #expect(try leadingBytes(rebuilt) == zstdSignature)
        #expect(try readBack(rebuilt) == Self.ours)

        let conflicting = Self.base.replacingOccurrences(of: "C3,plum,3.00,30", with: "C3,plum,3.90,30")
        try Data(conflicting.utf8).write(to: directory.appendingPathComponent("conflicting.csv"))
        let merge = try changeset(["merge", "base.csv", "ours.csv", "conflicting.csv", "--id", "sku", "--conflicts", "conflicts.json.gz"], in: directory)
        #expect(merge.status == 1, "\(merge)")
        #expect(try gunzipped(directory.appendingPathComponent("conflicts.json.gz").path)
            == "{\"resolvedBy\":null,\"conflicts\":[\n{\"kind\":\"field\",\"id\":\"C3\",\"path\":\"price\",\"base\":3.00,\"ours\":3.30,\"theirs\":3.90}\n]}\n")
    }
}
