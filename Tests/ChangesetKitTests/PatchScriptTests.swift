import Testing
@testable import ChangesetKit

@Suite struct PatchScriptTests {
    func parse(_ text: String) throws -> PatchScript {
        try PatchScript.parse(Array(text.utf8), source: "p.patch")
    }

    /// The error `parse` throws for `text`, as printed.
    func parseError(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return "\(error)"
        }
    }

    static let whole = "changeset-patch 2\nbase json 3 0123456789abcdef\nrecords-at data.items\nresult 3 fedcba9876543210\n"
        + "delete 0\ninsert 2 {\"id\":9}\nmove 2 0\nmove 1 1 {\"id\":2,\"x\":true}\nupdate 1 {\"id\":2}\nend\n"

    @Test func aScriptsTextParsesBackToTheSameScript() throws {
        let script = try parse(Self.whole)
        #expect(script.operations.count == 5)
        #expect(script.result == SnapshotFingerprint(records: 3, hash: 0xFEDC_BA98_7654_3210))
        #expect(script.resultLine == 4)
        #expect(script.text == Self.whole)
        #expect(try parse(script.text) == script)
    }

    @Test func theResultLineCarriesTheResultsCountAndFingerprint() throws {
        let script = PatchScript(
            baseFormat: .csv, base: SnapshotFingerprint(records: 2, hash: 0xAB), columns: ["id", "a"],
            result: SnapshotFingerprint(records: 1, hash: 0x0123_4567_89AB_CDEF), operations: [.delete(old: 1)])
        #expect(script.text == "changeset-patch 2\nbase csv 2 00000000000000ab\ncolumns [\"id\",\"a\"]\n"
            + "result 1 0123456789abcdef\ndelete 1\nend\n")
        #expect(script.resultCount == 1)
    }

    /// NEW's layout travels in the patch for what OLD's file cannot show;
    /// only LF or CRLF and blank indentation and separators are taken, so
    /// a patch cannot put other text into the file `apply` writes.
    @Test func theStyleLineCarriesNewsLayoutAndNothingElse() throws {
        var style = JSONStyle()
        (style.lineBreak, style.indent, style.nameSeparator, style.inlineSeparator) = ("\r\n", "\t", ": ", ", ")
        (style.escapesNonASCII, style.uppercaseHex) = (true, true)
        style.known = [.lineBreak, .members, .escaping]
        let script = PatchScript(
            baseFormat: .json, base: SnapshotFingerprint(records: 1, hash: 1), style: style,
            result: SnapshotFingerprint(records: 1, hash: 2), operations: [])
        // Format 3: a changeset that reads format 2 refuses it as newer, not as damaged.
        #expect(script.text.hasPrefix("changeset-patch 3\nbase json"))
        #expect(script.text.contains(#"style {"lineBreak":"\r\n","indent":"\t","nameSeparator":": ","inlineSeparator":", ","escapesNonASCII":true,"uppercaseHex":true}"#))
        #expect(try parse(script.text).style == style)
        var lineOnly = JSONStyle()
        lineOnly.lineBreak = "\r\n"
        lineOnly.known = [.lineBreak]
        let lineOnlyText = "changeset-patch 3\nbase json 1 0000000000000001\n" + #"style {"lineBreak":"\r\n"}"# + "\nresult 1 0000000000000002\nend\n"
        #expect(try parse(lineOnlyText).style == lineOnly)
        let header = "changeset-patch 3\nbase json 1 0000000000000001\n"
        for bad in [#"{"lineBreak":"\r"}"#, #"{"indent":"x"}"#, #"{"nameSeparator":" = "}"#, #"{"inlineSeparator":",,"}"#, #"{"colour":"red"}"#] {
            #expect(parseError(header + "style \(bad)\nresult 1 0000000000000002\nend\n")?.hasPrefix("p.patch:3:7: the style") == true, "\(bad)")
        }
        #expect(parseError(header + "style []\nresult 1 0000000000000002\nend\n") == "p.patch:3:7: the style must be a JSON object")
    }

    @Test func theResultLineNeedsSixteenHexDigits() {
        let header = "changeset-patch 2\nbase json 3 0123456789abcdef\n"
        #expect(parseError(header + "result 3\nend\n") == "p.patch:3:9: expected the result fingerprint")
        #expect(parseError(header + "result 3 12345\nend\n") == "p.patch:3:10: the result fingerprint must be 16 hex digits")
        #expect(parseError(header + "result 3 +123456789abcdef\nend\n") == "p.patch:3:10: the result fingerprint must be 16 hex digits")
        #expect(parseError(header + "result 3 0123456789abcdef\nresult 3 0123456789abcdef\nend\n") == "p.patch:4:1: a second \"result\" line")
    }

    /// `head -n K` of a patch, for every K short of the whole: refused, and
    /// for K > 0 at its last line, as cut short.
    @Test func aPatchCutAtAnyLineIsRefused() {
        let lines = Self.whole.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for count in 0..<lines.count {
            let cut = lines.prefix(count).map { $0 + "\n" }.joined()
            let expected = count == 0
                ? "p.patch:1:1: not a changeset patch: the first line must be \"changeset-patch 2\" or \"changeset-patch 3\""
                : "p.patch:\(count):1: the patch ends here without its \"end\" line: it was cut short, and the rest of the change is missing"
            #expect(parseError(cut) == expected, "head -n \(count)")
        }
    }

    /// A cut anywhere, even inside a line, is refused, except one that only
    /// loses the last line break (nothing of the patch is missing then).
    @Test func aPatchCutAtAnyByteIsRefused() {
        let bytes = Array(Self.whole.utf8)
        for count in 0..<(bytes.count - 1) {
            let cut = String(decoding: bytes.prefix(count), as: UTF8.self)
            #expect(parseError(cut) != nil, "the first \(count) bytes")
        }
        #expect(parseError(String(Self.whole.dropLast())) == nil)
    }

    @Test func commentsAndBlankLinesMayFollowTheEndLineButNothingElse() throws {
        #expect(try parse(Self.whole + "\n# made by hand\n\n").operations.count == 5)
        #expect(parseError(Self.whole + "delete 1\n") == "p.patch:11:1: text after the \"end\" line (line 10)")
        #expect(parseError(Self.whole + "end\n") == "p.patch:11:1: text after the \"end\" line (line 10)")
        #expect(parseError(Self.whole.replacingOccurrences(of: "end\n", with: "end now\n"))
            == "p.patch:10:5: unexpected text at the end of the line")
    }

    @Test func aVersion1PatchIsRefusedAsMadeByAnOlderChangeset() {
        let version1 = "changeset-patch 1\nbase json 3 0123456789abcdef\nresult 2\ndelete 0\n"
        #expect(parseError(version1) == "p.patch:1:1: this patch was made by an older changeset (patch format 1): it has no "
            + "fingerprint of its result, so a cut or edited copy could not be told from a whole one; make the patch again "
            + "with this changeset (the output format .patch)")
    }

    @Test func aPatchFromANewerChangesetIsRefusedAsSuch() {
        #expect(parseError("changeset-patch 4\n") == "p.patch:1:1: this patch was made by a newer changeset (patch format 4); this one reads formats 2 to 3")
        #expect(parseError("changeset-patch two\n") == "p.patch:1:1: not a changeset patch: the first line must be \"changeset-patch 2\" or \"changeset-patch 3\"")
    }

    /// Found by the patch-parser fuzzer: carriage returns around a record are whitespace, not part of it.
    @Test func whitespaceAroundARecordIsNotPartOfIt() throws {
        let text = "changeset-patch 2\nbase csv 7 925c7069bed43986\nresult 8 0000000000000000\ndelete 3\ninsert 3 \r\r{}\r\r\r\nend\n"
        let script = try parse(text)
        #expect(script.operations == [.delete(old: 3), .insert(new: 3, record: "{}")])
        #expect(try parse(script.text) == script)
    }
}

extension PatchScriptTests {
    /// Found by the patch-parser fuzzer: a records-at path starting with a space.
    @Test func aPathThatStartsWithASpaceSurvivesTheText() throws {
        let text = "changeset-patch 2\nbase json 4 f4b0bcf463e099e2\nrecords-at \\ \\\\tems\nresult 4 f4b0bcf463e099e2\nend\n"
        let script = try parse(text)
        #expect(script.recordsAt?.components == [" \\tems"])
        #expect(try parse(script.text).recordsAt == script.recordsAt)
    }
}
