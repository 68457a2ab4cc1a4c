import Foundation
import Testing

/// The library names its settings (`RecordOptions.recordsAt`); the command
/// names the flags its user typed (`LibraryErrorWording`), in diff, merge
/// and the git diff driver's fallback.
@Suite struct LibraryErrorWordingTests {
    @Test func aDiffNamesTheFlagOfASettingThatDoesNotFitTheInput() throws {
        let paths = try scratchFiles([("old.ndjson", "{\"id\":1}\n"), ("new.ndjson", "{\"id\":2}\n")])
        defer { try? FileManager.default.removeItem(atPath: (paths[0] as NSString).deletingLastPathComponent) }
        let result = try changeset([paths[0], paths[1], "--id", "id", "--records-at", "data"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "changeset: \(paths[0]): --records-at needs a JSON document, but this input is NDJSON\n", "\(result)")
    }

    @Test func aMergeNamesTheFlagOfAFieldNoRecordHas() throws {
        let paths = try scratchFiles([("base.json", #"[{"id":1,"a":1}]"#), ("ours.json", #"[{"id":1,"a":2}]"#), ("theirs.json", #"[{"id":1,"a":1}]"#)])
        defer { try? FileManager.default.removeItem(atPath: (paths[0] as NSString).deletingLastPathComponent) }
        let result = try changeset(["merge", paths[0], paths[1], paths[2], "--id", "id", "--ignore", "b"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("changeset: --ignore \"b\": no record of \(paths[0]), \(paths[1]), \(paths[2]) has this field"), "\(result)")
    }
}
