import Foundation
import Testing

/// A merge carries every byte a side changed, a respelled number too, as
/// git's text merge does; and ids compare by the text they are written in.
/// Each test is a finding of the second adversarial review, run through the
/// binary (and real git) as a user meets it.
@Suite struct RespellingAndIdentityTests {
    typealias Repository = GitDriverTests.Repository

    /// git's own text merge of the same three files, for comparison.
    func gitMergeFile(_ paths: [String]) throws -> String {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/git"), ["merge-file", "-p", paths[1], paths[0], paths[2]])
        #expect(result.status == 0, "git merge-file conflicted: \(result)")
        return result.stdout
    }

    /// BASE `1,1.1,2.50`, THEIRS `1,1.10,2.5`, OURS edits another row: the
    /// merge kept BASE's spelling (exit 0) where git keeps THEIRS's.
    @Test func aCSVRowOnlyTheirsRespelledIsTheirsRow() throws {
        let paths = try scratchFiles([
            ("base.csv", "id,a,b\n1,1.1,2.50\n2,x,y\n3,q,q\n"),
            ("ours.csv", "id,a,b\n1,1.1,2.50\n2,x,y\n3,q,z\n"),
            ("theirs.csv", "id,a,b\n1,1.10,2.5\n2,x,y\n3,q,q\n"),
        ])
        let merged = try changeset(["merge", "--id", "id"] + paths)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == "id,a,b\n1,1.10,2.5\n2,x,y\n3,q,z\n", "\(merged)")
        #expect(merged.stdout == (try gitMergeFile(paths)))
    }

    /// The same in JSON: `2.50` -> `2.5` on THEIRS, another record on OURS.
    @Test func aJSONNumberOnlyTheirsRespelledIsTheirsText() throws {
        let paths = try scratchFiles([
            ("base.json", "[\n{\"id\":1,\"a\":2.50},\n{\"id\":2,\"a\":1},\n{\"id\":3,\"a\":1}\n]\n"),
            ("ours.json", "[\n{\"id\":1,\"a\":2.50},\n{\"id\":2,\"a\":1},\n{\"id\":3,\"a\":3}\n]\n"),
            ("theirs.json", "[\n{\"id\":1,\"a\":2.5},\n{\"id\":2,\"a\":1},\n{\"id\":3,\"a\":1}\n]\n"),
        ])
        let merged = try changeset(["merge", "--id", "id"] + paths)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == (try gitMergeFile(paths)), "\(merged)")
        #expect(merged.stdout.contains("\"a\":2.5}"))
    }

    /// OURS respells one member of a record and THEIRS changes another: git
    /// merges the lines of a pretty-printed record cleanly, keeping both.
    @Test func aRespellingAndAChangeOfOneRecordAreBothKept() throws {
        let base = "[\n  {\n    \"id\": 1,\n    \"a\": 1,\n    \"p\": 0,\n    \"q\": 0,\n    \"r\": 0,\n    \"b\": 2.50\n  }\n]\n"
        let paths = try scratchFiles([
            ("base.json", base),
            ("ours.json", base.replacingOccurrences(of: "2.50", with: "2.5")),
            ("theirs.json", base.replacingOccurrences(of: "\"a\": 1,", with: "\"a\": 7,")),
        ])
        let merged = try changeset(["merge", "--id", "id"] + paths)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == (try gitMergeFile(paths)), "\(merged)")
    }

    /// Both sides changed a field to one value, spelled differently: no
    /// conflict, OURS's spelling. A respelling meeting a change of value:
    /// the value wins.
    @Test func aRespellingNeverConflictsWithAValue() throws {
        let paths = try scratchFiles([
            ("base.csv", "id,a,b\n1,2.500,5\n"),
            ("ours.csv", "id,a,b\n1,2.50,5.0\n"),
            ("theirs.csv", "id,a,b\n1,2.5,6\n"),
        ])
        let merged = try changeset(["merge", "--id", "id"] + paths)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == "id,a,b\n1,2.50,6\n", "\(merged)")
    }

    /// A real `git merge` through the driver commits THEIRS's respelling.
    @Test func theMergeDriverKeepsARespellingGitWouldKeep() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "id", "*.csv").status == 0)
        try repository.branches(
            "prices.csv", base: "id,price\n1,1.1\n2,2\n3,3\n4,4\n", ours: "id,price\n1,1.1\n2,2\n3,3\n4,44\n",
            theirs: "id,price\n1,1.10\n2,2\n3,3\n4,4\n")
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status == 0, "\(merged)")
        #expect(try repository.read("prices.csv") == "id,price\n1,1.10\n2,2\n3,3\n4,44\n")
    }

    /// NDJSON: `1e3` -> `1000` on THEIRS, another member on OURS: both kept.
    @Test func anExponentOnlyTheirsRewroteIsTheirsText() throws {
        let paths = try scratchFiles([
            ("base.ndjson", "{\"id\":\"a\",\"n\":1e3,\"m\":1}\n"),
            ("ours.ndjson", "{\"id\":\"a\",\"n\":1e3,\"m\":2}\n"),
            ("theirs.ndjson", "{\"id\":\"a\",\"n\":1000,\"m\":1}\n"),
        ])
        let merged = try changeset(["merge", "--id", "id"] + paths)
        #expect(merged.status == 0 && merged.stdout == "{\"id\":\"a\",\"n\":1000,\"m\":2}\n", "\(merged)")
    }

    /// `"1.1"` and `"1.10"` are two string ids, not one number repeated.
    @Test func jsonStringIDsThatSpellOneNumberAreTwoIDs() throws {
        let paths = try scratchFiles([
            ("old.json", "[{\"id\":\"1.1\",\"v\":1},{\"id\":\"1.10\",\"v\":2}]"),
            ("new.json", "[{\"id\":\"1.1\",\"v\":1},{\"id\":\"1.10\",\"v\":3}]"),
        ])
        let result = try changeset(paths + ["--id", "id", "--format", "json"])
        #expect(result.status == 1, "\(result)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])["summary"] as? [String: Any]
        #expect(summary?["updated"] as? Int == 1 && summary?["unchanged"] as? Int == 1, "\(result)")
    }

    /// `"007"` -> `"7"` and `"1e3"` -> `"1000"` are each a delete and an insert: strings by their bytes.
    @Test func jsonStringIDsCompareByTheirBytes() throws {
        let paths = try scratchFiles([
            ("old.json", "[{\"id\":\"007\",\"v\":1},{\"id\":\"1e3\",\"v\":1}]"),
            ("new.json", "[{\"id\":\"7\",\"v\":1},{\"id\":\"1000\",\"v\":1}]"),
        ])
        let result = try changeset(paths + ["--id", "id", "--stat"])
        #expect(result.status == 1 && result.stdout.hasPrefix("2 inserted, 2 deleted, 0 updated"), "\(result)")
    }

    /// The airport codes `0E0` and `0E8` both read as the number 0: "duplicate id".
    @Test func csvIDsAreText() throws {
        let paths = try scratchFiles([
            ("old.csv", "iata,name\n0E0,Eastern\n0E8,Crystal\n"),
            ("new.csv", "iata,name\n0E0,Eastern\n0E8,Crystal Airport\n"),
        ])
        let result = try changeset(paths + ["--id", "iata"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("updated  id 0E8"), "\(result)")
        // Composite ids too.
        let composite = try changeset(paths + ["--id", "iata,name"])
        #expect(composite.status == 1 && composite.stdout.hasPrefix("1 inserted, 1 deleted"), "\(composite)")
    }
}

extension RespellingAndIdentityTests {
    /// A byte-order mark added on OURS and CRLF line ends on THEIRS: the
    /// documents around the records are equal, so no `document` conflict,
    /// and the result keeps OURS's framing with THEIRS's record change.
    @Test func aDocumentsFramingIsNotItsValue() throws {
        let paths = try scratchFiles([
            ("base.json", "{\"data\":[\n{\"id\":1,\"v\":1},\n{\"id\":2,\"v\":2}\n]}\n"),
            ("ours.json", "\u{FEFF}{\"data\":[\n{\"id\":1,\"v\":1},\n{\"id\":2,\"v\":22}\n]}\n"),
            ("theirs.json", "{\"data\":[\r\n{\"id\":1,\"v\":11},\r\n{\"id\":2,\"v\":2}\r\n]}\r\n"),
        ])
        let merged = try changeset(["merge", "--id", "id", "--records-at", "data"] + paths)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == "\u{FEFF}{\"data\":[\n{\"id\":1,\"v\":11},\n{\"id\":2,\"v\":22}\n]}\n", "\(merged)")
        // A change of the document's value on THEIRS only is still taken.
        let changed = try scratchFiles([
            ("base.json", "{\"n\":1,\"data\":[{\"id\":1}]}\n"),
            ("ours.json", "\u{FEFF}{\"n\":1,\"data\":[{\"id\":1}]}\n"),
            ("theirs.json", "{\"n\":2,\"data\":[{\"id\":1}]}\r\n"),
        ])
        let taken = try changeset(["merge", "--id", "id", "--records-at", "data"] + changed)
        #expect(taken.status == 0 && taken.stdout.contains("\"n\":2"), "\(taken)")
    }
}

extension RespellingAndIdentityTests {
    /// The document around the records merges member by member as a record
    /// does: a member only one side respelled (`2.50` -> `2.5`) is that
    /// side's text, and against the other side's change of its value the
    /// value wins.
    @Test func aDocumentMemberOnlyOneSideRespelledIsThatSidesText() throws {
        let paths = try scratchFiles([
            ("base.json", "{\n  \"scale\": 2.50,\n  \"offset\": 1.0,\n  \"data\": [\n    {\"id\": 1, \"v\": 1}\n  ]\n}\n"),
            ("ours.json", "{\n  \"scale\": 2.50,\n  \"offset\": 1.00,\n  \"data\": [\n    {\"id\": 1, \"v\": 2}\n  ]\n}\n"),
            ("theirs.json", "{\n  \"scale\": 2.5,\n  \"offset\": 3,\n  \"data\": [\n    {\"id\": 1, \"v\": 1}\n  ]\n}\n"),
        ])
        let merged = try changeset(["merge", "--id", "id", "--records-at", "data"] + paths)
        #expect(merged.status == 0 && merged.stderr.isEmpty, "\(merged)")
        #expect(merged.stdout == "{\n  \"scale\": 2.5,\n  \"offset\": 3,\n  \"data\": [\n    {\"id\": 1, \"v\": 2}\n  ]\n}\n", "\(merged)")
    }

    /// THEIRS's change of the document goes into OURS's framing: OURS's
    /// byte-order mark and line ends stay, as they do for records.
    @Test func aDocumentChangeOfTheirsKeepsOursFraming() throws {
        let paths = try scratchFiles([
            ("base.json", "{\"n\":1,\"data\":[{\"id\":1}]}\n"),
            ("ours.json", "\u{FEFF}{\"n\":1,\"data\":[{\"id\":1}]}\r\n"),
            ("theirs.json", "{\"n\":2,\"data\":[{\"id\":1}]}\n"),
        ])
        let merged = try changeset(["merge", "--id", "id", "--records-at", "data"] + paths)
        #expect(merged.status == 0 && merged.stdout == "\u{FEFF}{\"n\":2,\"data\":[{\"id\":1}]}\r\n", "\(merged)")
    }
}

extension RespellingAndIdentityTests {
    /// The type-only note's example is the data's, and a string that changed
    /// its spelling of a number (`"1e3"` -> `"1000"`) is a change of value,
    /// not of type.
    @Test func theTypeOnlyNoteCountsTypesAndShowsTheDatasOwnExample() throws {
        let paths = try scratchFiles([
            ("old.json", #"[{"id":1,"code":"12"},{"id":2,"code":"1e3"},{"id":3,"code":"x\u001b"}]"#),
            ("new.json", #"[{"id":1,"code":12},{"id":2,"code":"1000"},{"id":3,"code":"y"}]"#),
        ])
        let stat = try changeset(paths + ["--id", "id", "--stat"])
        #expect(stat.status == 1, "\(stat)")
        #expect(!stat.stdout.contains("only a value's type"), "1 of 3 is not most: \(stat)")
        let json = try changeset(paths + ["--id", "id", "--stat", "--format", "json"])
        #expect(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) is [String: Any])
        #expect(json.stdout.contains("\"typeOnly\":1"), "\(json)")
        let mostly = try scratchFiles([
            ("old.json", #"[{"id":1,"code":"12"},{"id":2,"code":"1e3"}]"#),
            ("new.json", #"[{"id":1,"code":12},{"id":2,"code":"1000"}]"#),
        ])
        let note = try changeset(mostly + ["--id", "id", "--stat"])
        #expect(note.stdout.contains("\n1 of the 2 updates change only a value's type (\"12\" -> 12); --loose-types"), "\(note)")
        let markdown = try changeset(mostly + ["--id", "id", "--format", "markdown"])
        #expect(markdown.stdout.contains("change only a value's type (`\"12\" -> 12`)"), "\(markdown)")
    }
}

extension RespellingAndIdentityTests {
    /// A merge without --id names the unique field as an option that runs
    /// when pasted, a name with a space or an `=` too.
    @Test func theMergesIDHintRunsWhenPasted() throws {
        let paths = try scratchFiles([
            ("base.csv", "the key=k,v\n1,a\n2,b\n"),
            ("ours.csv", "the key=k,v\n1,a\n2,c\n"),
            ("theirs.csv", "the key=k,v\n1,d\n2,b\n"),
        ])
        let refused = try changeset(["merge"] + paths)
        #expect(refused.status == 2 && refused.stderr.contains("merge with --id 'the key=k'"), "\(refused)")
        let pasted = try runProcess(
            URL(fileURLWithPath: "/bin/bash"), ["-c", "'\(changesetBinary.path)' merge --id 'the key=k' \(paths.joined(separator: " "))"])
        #expect(pasted.status == 0 && pasted.stdout == "the key=k,v\n1,d\n2,c\n", "\(pasted)")
    }
}

/// A CSV cell's spelling is its value: `6199` -> `6.199e3` and `6696.0` ->
/// `6696` reported nothing (exit 0), and a patch replayed OLD's text.
@Suite struct CSVCellTextTests {
    static let elevations = [
        ("old.csv", "ident,elevation_ft,name\n00A,6199,Total Rf\n00AA,6696.0,Aero B\n00AK,450,Lowell\n"),
        ("new.csv", "ident,elevation_ft,name\n00A,6.199e3,Total Rf\n00AA,6696,Aero B\n00AK,450,Lowell\n"),
    ]

    @Test func aRespelledNumberInACSVCellIsAChangeWithANote() throws {
        let paths = try scratchFiles(Self.elevations)
        let text = try changeset(paths + ["--id", "ident"])
        #expect(text.status == 1, "\(text)")
        #expect(text.stdout.hasPrefix("0 inserted, 0 deleted, 2 updated, 0 moved, 1 unchanged\n"), "\(text)")
        #expect(text.stdout.contains("  elevation_ft: 6199 -> 6.199e3\n"), "\(text)")
        #expect(text.stdout.contains(
            "\n2 of the 2 updates only respell a number (6199 -> 6.199e3); --numbers-by-value compares numbers by value and leaves them unchanged\n"),
            "\(text)")
        let json = try changeset(paths + ["--id", "ident", "--format", "json"])
        #expect(try run("jq", ["-c", ".summary.respelledNumbers"], input: json.stdout) == "2\n")
        let markdown = try changeset(paths + ["--id", "ident", "--format", "markdown"])
        #expect(markdown.stdout.contains("only respell a number (`6199 -> 6.199e3`); `--numbers-by-value`"), "\(markdown)")
    }

    @Test func numbersByValueComparesTheCellsByValue() throws {
        let paths = try scratchFiles(Self.elevations)
        let byValue = try changeset(paths + ["--id", "ident", "--numbers-by-value"])
        #expect(byValue.status == 0 && byValue.stdout == "0 inserted, 0 deleted, 0 updated, 0 moved, 3 unchanged\n", "\(byValue)")
        // A tolerance on the field compares its numbers by value too.
        let tolerant = try changeset(paths + ["--id", "ident", "--tolerance", "elevation_ft=0"])
        #expect(tolerant.status == 0, "\(tolerant)")
        // A patch cannot leave respellings out.
        let patch = try changeset(paths + ["--id", "ident", "--numbers-by-value", "--format", "patch"])
        #expect(patch.status == 2 && patch.stderr.contains("--numbers-by-value") && patch.stdout.isEmpty, "\(patch)")
    }

    @Test func aPatchOfRespelledCellsRebuildsNewByteForByte() throws {
        let paths = try scratchFiles(Self.elevations)
        let patch = try changeset(paths + ["--id", "ident", "--format", "patch"])
        #expect(patch.status == 1, "\(patch)")
        let patchFile = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().appendingPathComponent("p.patch")
        try Data(patch.stdout.utf8).write(to: patchFile)
        let applied = try changeset(["apply", paths[0], patchFile.path])
        #expect(applied.status == 0 && applied.stdout == Self.elevations[1].1, "\(applied)")
    }

    /// A CSV cell against a JSON number still compares by value.
    @Test func aCSVCellAgainstAJSONNumberComparesByValue() throws {
        let paths = try scratchFiles([
            Self.elevations[0],
            ("new.json", #"[{"ident":"00A","elevation_ft":6199,"name":"Total Rf"},{"ident":"00AA","elevation_ft":6696,"name":"Aero B"},{"ident":"00AK","elevation_ft":4.5e2,"name":"Lowell"}]"#),
        ])
        let result = try changeset(paths + ["--id", "ident"])
        #expect(result.status == 0 && result.stdout.hasPrefix("0 inserted, 0 deleted, 0 updated, 0 moved, 3 unchanged"), "\(result)")
    }
}
