import Foundation
import Testing
@testable import ChangesetKit

/// `DatasetPatch`, the public apply: a patch read from `Data` or a file,
/// applied to a base given as `Data`, a path or a URL, returning the new
/// snapshot's bytes or writing them, and refusing what `changeset apply` refuses.
@Suite struct DatasetPatchTests {
    static let catalog = fixturesURL.appendingPathComponent("catalog")

    static func options() -> ComparisonOptions {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        return options
    }

    /// The patch from OLD to NEW (files of the catalog in `format`), as text.
    static func patchText(_ format: InputFormat) throws -> String {
        let comparison = try Comparison.run(
            oldPath: catalog.appendingPathComponent("old.\(format.rawValue)").path,
            newPath: catalog.appendingPathComponent("new.\(format.rawValue)").path, options: options())
        var text = ""
        _ = try comparison.write(OutputSettings(format: .patch), to: &text)
        return text
    }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: catalog.appendingPathComponent(name)) }

    /// In every format: the patch read from Data, applied to OLD's bytes,
    /// gives a snapshot that compares equal to NEW, and the bytes applying
    /// it to OLD's file gives.
    @Test(arguments: [InputFormat.json, .ndjson, .csv, .tsv])
    func applyingToDataRebuildsNew(format: InputFormat) throws {
        let patch = try DatasetPatch(Data(try Self.patchText(format).utf8), name: "p.patch")
        #expect(patch.baseFormat == format)
        #expect(patch.resultRecordCount > 0)
        let old = try Self.data("old.\(format.rawValue)")
        let rebuilt = try patch.apply(to: .data(old, name: "old"))
        #expect(try rebuilt == patch.apply(to: .path(Self.catalog.appendingPathComponent("old.\(format.rawValue)").path)))
        let again = try Comparison.run(old: .data(rebuilt, format: format, name: "rebuilt"),
                                       new: .data(try Self.data("new.\(format.rawValue)"), format: format, name: "new"),
                                       options: Self.options())
        #expect(try !again.counts().hasDifferences)
    }

    /// A patch file and a URL to write to: the file holds the bytes `apply(to:)` returns.
    @Test func aPatchFileAppliedToAURLWritesTheResult() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let patchFile = directory.appendingPathComponent("p.patch")
        try Data(try Self.patchText(.json).utf8).write(to: patchFile)
        let patch = try DatasetPatch(contentsOf: patchFile)
        #expect(patch.name == patchFile.path)
        let result = directory.appendingPathComponent("result.json")
        let base = DatasetSource.file(Self.catalog.appendingPathComponent("old.json"))
        try patch.apply(to: base, writingTo: result)
        #expect(try Data(contentsOf: result) == patch.apply(to: base))
    }

    /// Another base is refused by an `InputError` naming it, and nothing is written.
    @Test func anotherBaseIsRefusedAndNothingIsWritten() throws {
        let patch = try DatasetPatch(Data(try Self.patchText(.json).utf8), name: "p.patch")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = directory.appendingPathComponent("result.json")
        try Data("untouched".utf8).write(to: result)
        let error = try #require(throws: InputError.self) {
            try patch.apply(to: .data(Data(#"[{"id":1}]"#.utf8), name: "wrong base"), writingTo: result)
        }
        #expect(error.source == "wrong base")
        #expect(error.message.hasPrefix("this is not the snapshot the patch p.patch was made from"), "\(error)")
        #expect(try Data(contentsOf: result) == Data("untouched".utf8))
    }

    /// Bytes that are not a whole patch are refused when read, by the name given, with a line.
    @Test func aPatchCutShortIsRefusedWhenRead() throws {
        let text = try Self.patchText(.csv)
        let cut = text.components(separatedBy: "\n").dropLast(2).joined(separator: "\n") + "\n"
        let error = try #require(throws: InputError.self) { _ = try DatasetPatch(Data(cut.utf8), name: "cut.patch") }
        #expect(error.source == "cut.patch")
        #expect(error.location != nil)
        #expect(error.message.contains("without its \"end\" line"), "\(error)")
    }
}
