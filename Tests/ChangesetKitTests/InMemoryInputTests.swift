import Foundation
import Testing
@testable import ChangesetKit

/// `DatasetSource`: data in memory, a file URL and records in memory are
/// compared through the public `Comparison.run(old:new:options:)` and merged
/// through `DatasetMerge.run(base:ours:theirs:options:)`, by the readers a
/// file goes through, and give what the same bytes in a file give.
@Suite struct InMemoryInputTests {
    static let catalog = fixturesURL.appendingPathComponent("catalog")
    static let compressed = fixturesURL.appendingPathComponent("compressed")

    static func byID() -> ComparisonOptions {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        return options
    }

    /// The text report of a comparison, the files' names left out (they differ by design).
    static func text(_ comparison: Comparison) throws -> String {
        var text = ""
        try comparison.report().write(OutputSettings(format: .text), to: &text)
        return text
    }

    /// Each format's catalog pair, given as `Data` with its format named,
    /// reports what the files report, line for line.
    @Test(arguments: [InputFormat.json, .ndjson, .csv, .tsv])
    func dataInEachFormatComparesAsItsFileDoes(format: InputFormat) throws {
        let oldURL = Self.catalog.appendingPathComponent("old.\(format.rawValue)")
        let newURL = Self.catalog.appendingPathComponent("new.\(format.rawValue)")
        let fromFiles = try Comparison.run(oldPath: oldURL.path, newPath: newURL.path, options: Self.byID())
        let fromData = try Comparison.run(
            old: .data(try Data(contentsOf: oldURL), format: format, name: "old"),
            new: .data(try Data(contentsOf: newURL), format: format, name: "new"), options: Self.byID())
        #expect(try fromData.counts() == fromFiles.counts())
        #expect(try fromData.counts().updated > 0)
        #expect(try Self.text(fromData) == Self.text(fromFiles))
    }

    /// Without a format, data is looked at as a file without an extension
    /// is: `[` is JSON, a first line with tabs and no commas TSV.
    @Test func dataWithoutAFormatIsRecognisedByItsFirstBytes() throws {
        let json = try InputFile.open(.data(Data(#"  [{"id":1}]"#.utf8), name: "a"))
        #expect(json.format == .json)
        let tsv = try InputFile.open(.data(Data("id\tname\n1\tx\n".utf8), name: "b"))
        #expect(tsv.format == .tsv)
        let csv = try InputFile.open(.data(Data("id,name\n1,x\n".utf8), name: "c"))
        #expect(csv.format == .csv)
    }

    /// gzip data is found by its first bytes; zstd data named as such is
    /// decoded too; both give the plain files' comparison.
    @Test func compressedDataIsDecodedWhetherFoundOrGiven() throws {
        let gzip = try Data(contentsOf: Self.compressed.appendingPathComponent("old.json.gz"))
        let zstd = try Data(contentsOf: Self.compressed.appendingPathComponent("new.csv.zst"))
        let fromData = try Comparison.run(
            old: .data(gzip, format: .json, name: "old.json.gz"),
            new: .data(zstd, format: .csv, compression: .zstd, name: "new.csv.zst"), options: Self.byID())
        let fromFiles = try Comparison.run(
            oldPath: Self.catalog.appendingPathComponent("old.json").path,
            newPath: Self.catalog.appendingPathComponent("new.csv").path, options: Self.byID())
        #expect(try Self.text(fromData) == Self.text(fromFiles))
        let input = try InputFile.open(.data(gzip, name: "found"))
        #expect(try input.bytes.copy(0..<input.bytes.count) == [UInt8](Data(contentsOf: Self.catalog.appendingPathComponent("old.json"))))
        #expect(input.format == .json)
    }

    /// Data that says it is gzip and is not fails as such a file fails, under the caller's name.
    @Test func dataThatIsNotWhatItsCompressionSaysIsAnInputErrorNamingIt() throws {
        let error = try #require(throws: InputError.self) {
            _ = try InputFile.open(.data(Data(#"[{"id":1}]"#.utf8), format: .json, compression: .gzip, name: "prices from the API"))
        }
        #expect(error.source == "prices from the API")
        #expect(error.message.hasPrefix("invalid gzip data"), "\(error)")
    }

    /// Bad bytes in memory give the error a file with those bytes gives, with the name chosen.
    @Test func badDataGivesTheFilesErrorUnderTheNameGiven() throws {
        let bytes = "id,name\n1,\"open\n"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.csv")
        try Data(bytes.utf8).write(to: file)
        let fileError = try #require(throws: InputError.self) {
            _ = try Comparison.run(oldPath: file.path, newPath: file.path, options: Self.byID())
        }
        let dataError = try #require(throws: InputError.self) {
            _ = try Comparison.run(old: .data(Data(bytes.utf8), format: .csv, name: "upload"),
                                   new: .records([], name: "none"), options: Self.byID())
        }
        #expect(dataError.source == "upload")
        #expect(dataError.location == fileError.location)
        #expect(dataError.location != nil)
        #expect(dataError.message == fileError.message)
    }

    /// A file URL reads the file; a URL that is not a file's is refused by name.
    @Test func aFileURLIsReadAsItsPath() throws {
        let old = Self.catalog.appendingPathComponent("old.json")
        let new = Self.catalog.appendingPathComponent("new.json")
        let fromURLs = try Comparison.run(old: .file(old), new: .file(new), options: Self.byID())
        let fromPaths = try Comparison.run(oldPath: old.path, newPath: new.path, options: Self.byID())
        #expect(try Self.text(fromURLs) == Self.text(fromPaths))
        #expect(fromURLs.old.input.name == old.path)
        let remote = URL(string: "https://example.com/old.json")!
        #expect(throws: InputError(source: "https://example.com/old.json", location: nil, message: "is not a file URL; only file URLs are read")) {
            _ = try Comparison.run(old: .file(remote), new: .file(new), options: Self.byID())
        }
    }

    /// Records already in memory compare as the NDJSON holding them: an
    /// update's fields, a deletion and an insertion, and the round trip
    /// through a patch rebuilds NEW.
    @Test func recordsInMemoryCompareAsTheirNDJSON() throws {
        let old: [Value] = [
            .object([.init(name: "id", value: .number("1")), .init(name: "price", value: .number("10"))]),
            .object([.init(name: "id", value: .number("2")), .init(name: "price", value: .number("5"))]),
        ]
        let new: [Value] = [
            .object([.init(name: "id", value: .number("1")), .init(name: "price", value: .number("12"))]),
            .object([.init(name: "id", value: .number("3")), .init(name: "price", value: .string("7"))]),
        ]
        let comparison = try Comparison.run(old: .records(old, name: "cache"), new: .records(new, name: "fresh"), options: Self.byID())
        let summary = try comparison.counts()
        #expect((summary.inserted, summary.deleted, summary.updated) == (1, 1, 1))
        var changes: [Change] = []
        try comparison.report().changes.forEach { changes.append($0) }
        let update = try #require(changes.first { $0.kind == .updated })
        #expect(update.fields.map(\.path) == [FieldPath(["price"])])
        #expect(update.fields.map(\.old) == [.number("10")])
        #expect(update.fields.map(\.new) == [.number("12")])
        #expect(comparison.old.input.format == .ndjson)
    }

    /// A record that is not an object is an error at its index (line = index + 1), under the name given.
    @Test func aRecordThatIsNotAnObjectIsAnErrorAtItsIndex() throws {
        let records: [Value] = [.object([.init(name: "id", value: .number("1"))]), .array([.number("2")])]
        let error = try #require(throws: InputError.self) {
            _ = try Comparison.run(old: .records(records, name: "rows"), new: .records([], name: "none"), options: Self.byID())
        }
        #expect(error.source == "rows")
        #expect(error.location?.line == 2)
    }

    /// A merge takes the same sources: Data for BASE and THEIRS, records for OURS.
    @Test func aMergeReadsDataAndRecords() throws {
        var options = MergeOptions()
        options.records.id = [FieldPath(["id"])]
        let ours: [Value] = [.object([.init(name: "id", value: .number("1")), .init(name: "price", value: .number("12")),
                                      .init(name: "stock", value: .number("5"))])]
        let merge = try DatasetMerge.run(
            base: .data(Data(#"{"id":1,"price":10,"stock":5}"#.utf8), format: .ndjson, name: "base"),
            ours: .records(ours, name: "ours"),
            theirs: .data(Data(#"{"id":1,"price":10,"stock":3}"#.utf8), format: .ndjson, name: "theirs"), options: options)
        #expect(merge.result.conflicts.isEmpty)
        var text = ""
        try MergeWriter(merge).write(to: &text)
        #expect(text == #"{"id":1,"price":12,"stock":3}"# + "\n")
    }
}
