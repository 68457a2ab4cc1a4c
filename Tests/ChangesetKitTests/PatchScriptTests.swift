import Testing
@testable import ChangesetKit

@Suite struct PatchScriptTests {
    func parse(_ text: String) throws -> PatchScript {
        try Array(text.utf8).withUnsafeBytes { try PatchScript.parse($0, source: "p.patch") }
    }

    @Test func aScriptsTextParsesBackToTheSameScript() throws {
        let text = "changeset-patch 1\nbase json 3 0123456789abcdef\nrecords-at data.items\nresult 3\n"
            + "delete 0\ninsert 2 {\"id\":9}\nmove 2 0\nmove 1 1 {\"id\":2,\"x\":true}\nupdate 1 {\"id\":2}\n"
        let script = try parse(text)
        #expect(script.operations.count == 5)
        #expect(try parse(script.text).operations == script.operations)
    }

    /// Found by the patch-parser fuzzer: carriage returns around a record are whitespace, not part of it.
    @Test func whitespaceAroundARecordIsNotPartOfIt() throws {
        let text = "changeset-patch 1\nbase csv 7 925c7069bed43986\nresult 8\ndelete 3\ninsert 3 \r\r{}\r\r\r\n"
        let script = try parse(text)
        #expect(script.operations == [.delete(old: 3), .insert(new: 3, record: "{}")])
        #expect(try parse(script.text) == script)
    }
}

extension PatchScriptTests {
    /// Found by the patch-parser fuzzer: a records-at path starting with a space.
    @Test func aPathThatStartsWithASpaceSurvivesTheText() throws {
        let text = "changeset-patch 1\nbase json 4 f4b0bcf463e099e2\nrecords-at \\ \\\\tems\nresult 4\n"
        let script = try parse(text)
        #expect(script.recordsAt?.components == [" \\tems"])
        #expect(try parse(script.text).recordsAt == script.recordsAt)
    }
}
