import Foundation
import Testing

/// Found by the review of the merge and the git drivers; each is a named
/// regression test.
@Suite struct MergeRegressionTests {
    typealias Repository = GitDriverTests.Repository

    func files(_ contents: [(String, String)]) throws -> [String] { try scratchFiles(contents) }

    /// git put a path starting with `-` among the options: the merge driver
    /// printed its help and git took OURS as merged, losing THEIRS's edit.
    @Test func aPathStartingWithADashIsAPathForBothDrivers() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "id", "*.csv").status == 0)
        try repository.branches("-dash.csv", base: "id,v\n1,1\n2,2\n", ours: "id,v\n1,1\n2,2\n3,3\n", theirs: "id,v\n1,11\n2,2\n")
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status == 0, "\(merged)")
        #expect(try repository.read("-dash.csv") == "id,v\n1,11\n2,2\n3,3\n")
        try repository.write("-dash.csv", "id,v\n1,12\n2,2\n3,3\n")
        let diff = try repository.git("diff")
        #expect(diff.status == 0 && diff.stdout.contains("v: 11 -> 12"), "\(diff)")
    }

    /// A driver configured with options that do not parse: git diff still
    /// goes on (exit 0), and the merge falls back to git's text merge.
    @Test func driverOptionsThatDoNotParseNeverStopGit() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "id", "*.csv").status == 0)
        let command = try repository.git("config", "diff.changeset.command").stdout.trimmingCharacters(in: .newlines)
        try repository.git("config", "diff.changeset.command", command.replacingOccurrences(of: "git-diff --", with: "git-diff --bogus --"))
        let driver = try repository.git("config", "merge.changeset.driver").stdout.trimmingCharacters(in: .newlines)
        try repository.git("config", "merge.changeset.driver", driver.replacingOccurrences(of: "merge-driver --", with: "merge-driver --bogus --"))
        try repository.branches("data.csv", base: "id,v\n1,1\n2,2\n3,3\n4,4\n", ours: "id,v\n1,11\n2,2\n3,3\n4,4\n", theirs: "id,v\n1,1\n2,2\n3,3\n4,44\n")
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status == 0 && merged.stderr.contains("merging it as text"), "\(merged)")
        #expect(try repository.read("data.csv") == "id,v\n1,11\n2,2\n3,3\n4,44\n")
        try repository.write("data.csv", "id,v\n1,12\n")
        let diff = try repository.git("diff")
        #expect(diff.status == 0 && diff.stdout.contains("not compared record by record"), "\(diff)")
    }

    /// Without an id the merge driver leaves the file to git: records
    /// matched by content would keep both edits of one row.
    @Test func withoutAnIDGitMergesAsText() throws {
        let repository = try Repository()
        let setup = try repository.changeset("git", "setup", "*.csv")
        #expect(setup.status == 0 && setup.stdout.contains("git merge stays line by line"), "\(setup)")
        #expect(try repository.read(".gitattributes") == "*.csv diff=changeset\n")
        try repository.write(".gitattributes", "*.csv diff=changeset merge=changeset\n")
        #expect(try repository.changeset("git", "setup", "--id", "id", "*.tsv").status == 0)
        try repository.branches("data.csv", base: "id,v\n1,1\n", ours: "id,v\n1,3\n", theirs: "id,v\n1,2\n")
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status != 0 && merged.stderr.contains("no changeset-id attribute names its id"), "\(merged)")
        #expect(try repository.read("data.csv").contains("<<<<<<< ours\n1,3\n"))
    }

    /// Both branches added the same file: git gives the driver an empty BASE.
    @Test func anEmptyBaseIsASnapshotWithoutRecords() throws {
        let paths = try files([("base.csv", ""), ("ours.csv", "id,v\n8,a\n"), ("theirs.csv", "id,v\n9,b\n")])
        let result = try changeset(["merge"] + paths + ["--id", "id"])
        #expect(result.status == 0 && result.stdout == "id,v\n8,a\n9,b\n", "\(result)")
    }

    /// `git setup` run from a path with a space wrote it unquoted into the
    /// driver commands, and git's shell split it.
    @Test func aBinaryPathWithASpaceIsQuotedForGit() throws {
        let repository = try Repository()
        let folder = repository.home.appendingPathComponent("my tools")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("changeset")
        try FileManager.default.copyItem(at: changesetBinary, to: copy)
        let setup = try runProcess(copy, ["git", "setup", "--id", "id", "*.csv"], in: repository.root, environment: repository.environment)
        #expect(setup.status == 0, "\(setup)")
        try repository.write("data.csv", "id,v\n1,1\n")
        try repository.commit("base")
        try repository.write("data.csv", "id,v\n1,2\n")
        let diff = try repository.git("diff")
        #expect(diff.status == 0 && diff.stdout.contains("v: 1 -> 2"), "\(diff)")
    }

    /// OURS dropped a column that was empty in BASE, THEIRS filled it in one
    /// record: the value was dropped with the column.
    @Test func aValueTheirsPutInAColumnOursRemovedKeepsTheColumn() throws {
        let paths = try files([
            ("base.csv", "sku,name,note\n1,a,\n2,b,\n"), ("ours.csv", "sku,name\n1,a\n2,b\n"), ("theirs.csv", "sku,name,note\n1,a,hello\n2,b,\n"),
        ])
        let result = try changeset(["merge"] + paths + ["--id", "sku"])
        #expect(result.status == 0 && result.stdout == "sku,name,note\n1,a,hello\n2,b,\n", "\(result)")
    }

    /// Occurrence matching paired different records once a side deleted an
    /// earlier one, and the merge made up a record.
    @Test func duplicateIDsByOccurrenceAreRefused() throws {
        let paths = try files([("base.csv", "id,x\na,1\na,2\n"), ("ours.csv", "id,x\na,2\n"), ("theirs.csv", "id,x\na,1\na,2\n")])
        let result = try changeset(["merge"] + paths + ["--id", "id", "--duplicates", "occurrence"])
        #expect(result.status == 2 && result.stdout.isEmpty && result.stderr.contains("unique ids"), "\(result)")
    }

    /// `--only prce` (a typo) compared nothing and took OURS silently.
    @Test func fieldOptionsNamingNoFieldAreErrors() throws {
        let paths = try files([("base.csv", "id,price\n1,10\n"), ("ours.csv", "id,price\n1,10\n2,5\n"), ("theirs.csv", "id,price\n1,99\n")])
        for option in [["--only", "prce"], ["--ignore", "nosuch"], ["--rename", "nosuch=x"]] {
            let result = try changeset(["merge"] + paths + ["--id", "id"] + option)
            #expect(result.status == 2 && result.stdout.isEmpty && result.stderr.contains("no record of"), "\(result)")
        }
    }

    /// An id holding U+0000 # collided with the key of a repeated id and crashed.
    @Test func anIDWithANULIsAnOrdinaryID() throws {
        let text = #"[{"id":"a","v":1},{"id":"a\u0000#1","v":2}]"#
        let paths = try files([("base.json", text), ("ours.json", text), ("theirs.json", text.replacingOccurrences(of: "\"v\":2", with: "\"v\":3"))])
        let result = try changeset(["merge"] + paths + ["--id", "id"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(#""v":3"#), "\(result)")
    }

    /// THEIRS's pretty-printed JSON record was copied into an NDJSON result across lines.
    @Test func anNDJSONResultHasOneRecordALine() throws {
        let paths = try files([
            ("base.ndjson", "{\"id\":1,\"a\":1}\n"), ("ours.ndjson", "{\"id\":1,\"a\":1}\n"),
            ("theirs.json", "[\n  {\n    \"id\": 1,\n    \"a\": 1\n  },\n  {\n    \"id\": 2,\n    \"a\": 2\n  }\n]\n"),
        ])
        let result = try changeset(["merge"] + paths + ["--id", "id"])
        #expect(result.status == 0 && result.stdout == "{\"id\":1,\"a\":1}\n{\"id\":2,\"a\":2}\n", "\(result)")
    }

    /// With --records-at, THEIRS's change to the document around the records was dropped.
    @Test func theDocumentAroundTheRecordsIsMergedToo() throws {
        let base = #"{"meta":{"v":1},"items":[{"id":1}]}"#
        let theirsOnly = try files([
            ("b.json", base), ("o.json", #"{"meta":{"v":1},"items":[{"id":1},{"id":2}]}"#), ("t.json", #"{"meta":{"v":3},"items":[{"id":1}]}"#),
        ])
        let taken = try changeset(["merge"] + theirsOnly + ["--id", "id", "--records-at", "items"])
        #expect(taken.status == 0 && taken.stdout.hasPrefix(#"{"meta":{"v":3},"items":["#), "\(taken)")
        let both = try files([("b.json", base), ("o.json", #"{"meta":{"v":2},"items":[{"id":1}]}"#), ("t.json", #"{"meta":{"v":3},"items":[{"id":1}]}"#)])
        let conflict = try changeset(["merge"] + both + ["--id", "id", "--records-at", "items"])
        #expect(conflict.status == 1 && conflict.stderr.contains("the JSON document around the records changed on both sides"), "\(conflict)")
        let preferred = try changeset(["merge"] + both + ["--id", "id", "--records-at", "items", "--prefer", "theirs"])
        #expect(preferred.status == 0 && preferred.stdout.hasPrefix(#"{"meta":{"v":3}"#), "\(preferred)")
    }

    /// Choosing the side of a last conflict that has no record left a trailing comma.
    @Test func jsonMarkersGiveValidJSONWhicheverSideIsChosen() throws {
        let paths = try files([
            ("b.json", #"[{"id":1,"a":1},{"id":2,"a":2}]"#), ("o.json", #"[{"id":1,"a":1}]"#), ("t.json", #"[{"id":1,"a":1},{"id":2,"a":22}]"#),
        ])
        let result = try changeset(["merge"] + paths + ["--id", "id", "--markers"])
        #expect(result.status == 1, "\(result)")
        for keep in ["ours", "theirs"] {
            var lines: [Substring] = []
            var side = ""
            for line in result.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("<<<<<<<") { side = "ours"; continue }
                if line == "=======" { side = "theirs"; continue }
                if line.hasPrefix(">>>>>>>") { side = ""; continue }
                if side.isEmpty || side == keep { lines.append(line) }
            }
            let chosen = lines.joined(separator: "\n")
            let parsed = try run("jq", ["-c", "[.[].id]"], input: chosen)
            #expect(parsed == (keep == "ours" ? "[1]\n" : "[1,2]\n"), "\(chosen)")
        }
    }

    /// A run in trouble wrote the conflicts file anyway; --conflicts naming -o's file was accepted.
    @Test func theConflictsFileIsWrittenOnlyWithTheResult() throws {
        let paths = try files([("base.csv", "id,v\n1,1\n"), ("ours.csv", "id,v\n1,2\n"), ("theirs.csv", "id,v\n1,3\n")])
        let conflicts = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().appendingPathComponent("c.json").path
        let trouble = try changeset(["merge"] + paths + ["--id", "id", "--prefer", "ours", "--conflicts", conflicts, "-o", "/nonexistent/out.csv"])
        #expect(trouble.status == 2, "\(trouble)")
        #expect(!FileManager.default.fileExists(atPath: conflicts))
        let same = try changeset(["merge"] + paths + ["--id", "id", "--conflicts", conflicts, "-o", conflicts])
        #expect(same.status == 2 && same.stderr.contains("name the same file"), "\(same)")
        let input = try changeset(["merge"] + paths + ["--id", "id", "--conflicts", paths[1]])
        #expect(input.status == 2 && input.stderr.contains("--conflicts \(paths[1]) names the input"), "\(input)")
    }

    /// A CRLF file came out with LF line endings (every line changed in git), and a byte order mark was lost.
    @Test func oursLineEndingsAndByteOrderMarkAreKept() throws {
        let paths = try files([
            ("base.csv", "\u{FEFF}id,v\r\n1,1\r\n2,2\r\n"), ("ours.csv", "\u{FEFF}id,v\r\n1,1\r\n2,2\r\n3,3\r\n"), ("theirs.csv", "\u{FEFF}id,v\r\n1,11\r\n2,2\r\n"),
        ])
        let result = try changeset(["merge"] + paths + ["--id", "id"])
        #expect(result.status == 0 && result.stdout == "\u{FEFF}id,v\r\n1,11\r\n2,2\r\n3,3\r\n", "\(result)")
    }
}

/// Issue 34: a merge as exact as the diff.
extension MergeRegressionTests {
    /// Three variants of a datapackage.json written to a scratch folder: BASE, OURS and THEIRS.
    func dataPackages(base: DataPackage, ours: DataPackage, theirs: DataPackage) throws -> [String] {
        try files([("base.json", base.text), ("ours.json", ours.text), ("theirs.json", theirs.text)])
    }

    /// git's own line merge of three files (`git merge-file -p`): its output and status.
    func gitTextMerge(_ paths: [String]) throws -> CommandResult {
        try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs",
                                                               paths[1], paths[0], paths[2]],
                       in: URL(fileURLWithPath: paths[0]).deletingLastPathComponent(), environment: ProcessInfo.processInfo.environment)
    }

    /// vega-datasets' datapackage.json: OURS named each license of a
    /// resource, THEIRS changed their paths. git merges that cleanly; the
    /// merge reported a conflict for each resource, because it merged each
    /// `licenses` array whole. Element by element it is git's result, byte
    /// for byte: THEIRS's paths keep THEIRS's spelling (`\/`).
    @Test func arraysOfObjectsInRecordsMergeElementByElementAsGitMergesThem() throws {
        var ours = DataPackage(), theirs = DataPackage()
        ours.named = true
        theirs.scheme = "https"
        theirs.escapesSlashes = true
        let paths = try dataPackages(base: DataPackage(), ours: ours, theirs: theirs)
        let git = try gitTextMerge(paths)
        #expect(git.status == 0, "git merges it cleanly: \(git)")
        let merged = try changeset(["merge"] + paths + ["--id", "name", "--records-at", "resources"])
        #expect(merged.status == 0 && merged.stderr.isEmpty, "\(merged)")
        #expect(merged.stdout == git.stdout, "\(merged)")
        var both = ours
        both.scheme = "https"
        both.escapesSlashes = true
        #expect(merged.stdout == both.text)
    }

    /// Both changed one license's path, differently: one conflict, named by
    /// the element (`licenses[1].path`) with its three values, listed,
    /// written to --conflicts, and marked around that member's line only.
    @Test func aConflictInsideAnArrayElementNamesTheElementAndMarksItsLine() throws {
        var ours = DataPackage(), theirs = DataPackage()
        ours.named = true
        ours.pathOverrides = ["airports": [1: "https://creativecommons.org/licenses/by/4.0/legalcode"]]
        theirs.pathOverrides = ["airports": [1: "https://creativecommons.org/licenses/by/4.0/deed"]]
        let paths = try dataPackages(base: DataPackage(), ours: ours, theirs: theirs)
        let conflicts = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().appendingPathComponent("conflicts.json").path
        let merged = try changeset(["merge"] + paths + ["--id", "name", "--records-at", "resources", "--markers", "--conflicts", conflicts])
        #expect(merged.status == 1, "\(merged)")
        #expect(merged.stderr == """
            changeset: conflict: id airports, field licenses[1].path: base "http://creativecommons.org/licenses/by/4.0/", \
            ours "https://creativecommons.org/licenses/by/4.0/legalcode", theirs "https://creativecommons.org/licenses/by/4.0/deed"

            """, "\(merged)")
        #expect(try String(contentsOf: URL(fileURLWithPath: conflicts), encoding: .utf8) == """
            {"resolvedBy":null,"conflicts":[
            {"kind":"field","id":"airports","path":"licenses[1].path","pointer":"/licenses/1/path",\
            "base":"http://creativecommons.org/licenses/by/4.0/","ours":"https://creativecommons.org/licenses/by/4.0/legalcode",\
            "theirs":"https://creativecommons.org/licenses/by/4.0/deed"}
            ]}

            """)
        let marked = ours.text.replacingOccurrences(of: """
                      "path": "https://creativecommons.org/licenses/by/4.0/legalcode"

            """, with: """
            <<<<<<< ours
                      "path": "https://creativecommons.org/licenses/by/4.0/legalcode"
            =======
                      "path": "https://creativecommons.org/licenses/by/4.0/deed"
            >>>>>>> theirs

            """)
        #expect(marked != ours.text)
        #expect(merged.stdout == marked, "\(merged)")
    }
}

extension MergeRegressionTests {
    /// vega-datasets' datapackage.json as it was: OURS named every license,
    /// the package's own too (in the document around the records), and
    /// THEIRS changed every license's path. The document merged as one value
    /// and conflicted; member by member, the result is git's, byte for byte.
    @Test func theDocumentAroundTheRecordsMergesMemberByMemberAsGitMergesIt() throws {
        var ours = DataPackage(), theirs = DataPackage()
        (ours.named, ours.packageNamed) = (true, true)
        (theirs.scheme, theirs.packageScheme) = ("https", "https")
        let paths = try dataPackages(base: DataPackage(), ours: ours, theirs: theirs)
        let git = try gitTextMerge(paths)
        #expect(git.status == 0, "git merges it cleanly: \(git)")
        let merged = try changeset(["merge"] + paths + ["--id", "name", "--records-at", "resources"])
        #expect(merged.status == 0 && merged.stderr.isEmpty, "\(merged)")
        #expect(merged.stdout == git.stdout, "\(merged)")
    }

    /// Both changed `created`: the merge said only that the document changed
    /// on both sides, and --markers (and the git driver) wrote no markers, so
    /// `git add` kept OURS's value silently. The conflict names the member and
    /// its three values, in the message and in --conflicts, and the result
    /// marks that member's line.
    @Test func aDocumentMemberChangedOnBothSidesIsNamedAndMarked() throws {
        var ours = DataPackage(), theirs = DataPackage()
        (ours.named, ours.packageNamed, ours.created) = (true, true, "2024-12-01T08:00:00Z")
        (theirs.scheme, theirs.packageScheme, theirs.created) = ("https", "https", "2024-12-02T09:30:00Z")
        let paths = try dataPackages(base: DataPackage(), ours: ours, theirs: theirs)
        let conflicts = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().appendingPathComponent("conflicts.json").path
        let merged = try changeset(["merge"] + paths + ["--id", "name", "--records-at", "resources", "--markers", "--conflicts", conflicts])
        #expect(merged.status == 1, "\(merged)")
        #expect(merged.stderr == """
            changeset: conflict: the JSON document around the records changed on both sides, member created: \
            base "2024-11-03T12:00:00Z", ours "2024-12-01T08:00:00Z", theirs "2024-12-02T09:30:00Z"

            """, "\(merged)")
        #expect(try String(contentsOf: URL(fileURLWithPath: conflicts), encoding: .utf8) == """
            {"resolvedBy":null,"conflicts":[
            {"kind":"document","path":"created","base":"2024-11-03T12:00:00Z","ours":"2024-12-01T08:00:00Z","theirs":"2024-12-02T09:30:00Z"}
            ]}

            """)
        var both = ours
        (both.scheme, both.packageScheme) = ("https", "https")
        let marked = both.text.replacingOccurrences(of: """
              "created": "2024-12-01T08:00:00Z",

            """, with: """
            <<<<<<< ours
              "created": "2024-12-01T08:00:00Z",
            =======
              "created": "2024-12-02T09:30:00Z",
            >>>>>>> theirs

            """)
        #expect(marked != both.text)
        #expect(merged.stdout == marked, "\(merged)")
        // Without --markers nothing is written; --prefer takes that side's value of the member only.
        let refused = try changeset(["merge"] + paths + ["--id", "name", "--records-at", "resources"])
        #expect(refused.status == 1 && refused.stdout.isEmpty && refused.stderr.hasSuffix("1 conflict; nothing was written "
            + "(resolve with --prefer ours or --prefer theirs, or write the result with --markers)\n"), "\(refused)")
        let preferred = try changeset(["merge"] + paths + ["--id", "name", "--records-at", "resources", "--prefer", "theirs"])
        #expect(preferred.status == 0, "\(preferred)")
        both.created = theirs.created
        #expect(preferred.stdout == both.text, "\(preferred)")
    }

    /// On one line, a member's line is the document's: markers go around it,
    /// on lines of their own, and either side's lines are valid JSON.
    @Test func aDocumentOnOneLineIsMarkedOnLinesOfTheirOwn() throws {
        let paths = try files([
            ("b.json", #"{"data":[{"id":1},{"id":2}],"created":"a"}"#), ("o.json", #"{"data":[{"id":1},{"id":2}],"created":"b"}"#),
            ("t.json", #"{"data":[{"id":1},{"id":3}],"created":"c"}"#),
        ])
        let merged = try changeset(["merge"] + paths + ["--id", "id", "--records-at", "data", "--markers"])
        #expect(merged.status == 1, "\(merged)")
        #expect(merged.stdout == """
            {"data":[{"id":1},{"id":3}]
            <<<<<<< ours
            ,"created":"b"}
            =======
            ,"created":"c"}
            >>>>>>> theirs
            """, "\(merged)")
        for (keep, created) in [("ours", "b"), ("theirs", "c")] {
            var lines: [Substring] = []
            var side = ""
            for line in merged.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("<<<<<<<") { side = "ours"; continue }
                if line == "=======" { side = "theirs"; continue }
                if line.hasPrefix(">>>>>>>") { side = ""; continue }
                if side.isEmpty || side == keep { lines.append(line) }
            }
            let parsed = try run("jq", ["-c", "[.created, [.data[].id]]"], input: lines.joined(separator: "\n"))
            #expect(parsed == "[\"\(created)\",[1,3]]\n", "\(keep): \(lines)")
        }
    }
}
