import Foundation
import Testing

/// Memory is touched by address in a few files that say why, and nowhere
/// else: the rest of the code reads bytes through `Span`, whose bounds and
/// lifetime the compiler checks.
@Suite struct UnsafeCodeTests {
    /// The files allowed to hold unsafe constructs, each for one reason.
    static let box: [String: String] = [
        "ChangesetKit/Support/RawMemory.swift": "spans to and from addresses, the byte kernels, words for the hash, scratch, table-column and huge-page memory",
        "ChangesetKit/Input/InputBytes.swift": "reading files, pipes and SQLite tables (libsqlite3's handle and cells) into buffers the readers borrow",
        "ChangesetKit/Input/Decompression.swift": "zlib's and libzstd's C streams",
        "ChangesetKit/Input/JSONRecordReader.swift": "yajl's C callbacks while reading records",
        "ChangesetKit/Input/JSONValueReader.swift": "yajl's C callbacks while reading one value",
        "ChangesetKit/Input/CSVRecordReader.swift": "the CSV reader's inner loop over a chunk",
        "ChangesetKit/Support/OrderedConcurrentMap.swift": "results filled from several threads",
        "ChangesetKit/Input/OutputSink.swift": "the process's own arguments, writes to descriptors, realpath and the signal handler that removes temporary files",
    ]

    /// What counts as unsafe: raw pointers and buffers, the `withUnsafe...`
    /// and `unsafe...` APIs, `String.withUTF8` (it lends a raw buffer), a
    /// buffer's `baseAddress`, `Unmanaged`, manual allocation, the C memory
    /// functions, and the attributes that switch a check off.
    nonisolated(unsafe) static let unsafeConstruct = try! Regex(
        #"Unsafe[A-Z]\w*|withUnsafe|\bunsafe[A-Z]\w*|\bwithUTF8(Buffer)?\b|withContiguous(Mutable)?StorageIfAvailable|\bwithCString\b|\bbaseAddress\b|\butf8Start\b|\bUnmanaged\b|\.allocate\(|\bmem(cmp|cpy|move)\(|OpaquePointer|assumingMemoryBound|bindMemory|withMemoryRebound|@exclusivity\(unchecked\)|@unchecked\s+Sendable|nonisolated\(unsafe\)"#
    )

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
    }

    /// Source files (relative to Sources/) and the unsafe constructs in each,
    /// comments left out.
    static func unsafeFiles() throws -> [String: [String]] {
        var found: [String: [String]] = [:]
        let root = sources.standardizedFileURL.path + "/"
        let files = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        for file in files {
            let text = try String(contentsOfFile: root + file, encoding: .utf8)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let code = line.components(separatedBy: "//").first ?? ""
                for match in code.matches(of: unsafeConstruct) { found[file, default: []].append(String(code[match.range])) }
            }
        }
        return found
    }

    @Test func unsafeCodeLivesInAtMostEightFilesThatSayWhy() throws {
        let found = try Self.unsafeFiles()
        let outside = found.keys.filter { Self.box[$0] == nil }.sorted()
        #expect(outside.isEmpty, "unsafe constructs outside the box: \(outside.map { "\($0): \(Set(found[$0]!).sorted())" })")
        #expect(Self.box.count <= 8)
        for file in Self.box.keys.sorted() {
            let text = try String(contentsOfFile: Self.sources.path + "/" + file, encoding: .utf8)
            #expect(text.contains("Unsafe code here:"), "\(file) does not say why it holds unsafe code")
        }
    }

    /// The scan itself finds what it is meant to (a guard that cannot pass
    /// by finding nothing).
    @Test func theScanSeesUnsafeConstructsAndSkipsComments() throws {
        let found = try Self.unsafeFiles()
        #expect(found["ChangesetKit/Support/RawMemory.swift"]?.contains("withUnsafe") == true)
        #expect("let p: UnsafeRawPointer".contains(Self.unsafeConstruct))
        #expect("@exclusivity(unchecked) var x".contains(Self.unsafeConstruct))
        #expect(!"// safe: no UnsafeRawPointer here".components(separatedBy: "//").first!.contains(Self.unsafeConstruct))
    }
}
