import Foundation
import Testing

/// The merge of JSON documents: arrays inside records element by element, the
/// document around the records member by member, as git's own line merge
/// merges them (byte for byte where it merges cleanly), and conflict markers
/// whose either side is valid JSON.
@Suite struct JSONMergeTests {
    /// Three variants of a datapackage.json written to a scratch folder: BASE, OURS and THEIRS.
    func dataPackages(base: DataPackage, ours: DataPackage, theirs: DataPackage) throws -> [String] {
        try scratchFiles([("base.json", base.text), ("ours.json", ours.text), ("theirs.json", theirs.text)])
    }

    /// git's own line merge of three files (`git merge-file -p`): its output and status.
    func gitTextMerge(_ paths: [String]) throws -> CommandResult {
        try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs",
                                                               paths[1], paths[0], paths[2]],
                       in: URL(fileURLWithPath: paths[0]).deletingLastPathComponent(), environment: ProcessInfo.processInfo.environment)
    }

    /// Checks that git merges the data packages at `paths` cleanly and that
    /// `changeset merge` (records under `resources` by `name`) writes git's
    /// result byte for byte; returns that result.
    @discardableResult
    func expectMergedAsGitMergesIt(_ paths: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let git = try gitTextMerge(paths)
        #expect(git.status == 0, "git merges it cleanly: \(git)", sourceLocation: sourceLocation)
        let merged = try changeset(["merge"] + paths + ["--id", "name", "--records-at", "resources"])
        #expect(merged.status == 0 && merged.stderr.isEmpty, "\(merged)", sourceLocation: sourceLocation)
        #expect(merged.stdout == git.stdout, "\(merged)", sourceLocation: sourceLocation)
        return merged.stdout
    }

    /// With --records-at, THEIRS's change to the document around the records was dropped.
    @Test func theDocumentAroundTheRecordsIsMergedToo() throws {
        let base = #"{"meta":{"v":1},"items":[{"id":1}]}"#
        let theirsOnly = try scratchFiles([
            ("b.json", base), ("o.json", #"{"meta":{"v":1},"items":[{"id":1},{"id":2}]}"#), ("t.json", #"{"meta":{"v":3},"items":[{"id":1}]}"#),
        ])
        let taken = try changeset(["merge"] + theirsOnly + ["--id", "id", "--records-at", "items"])
        #expect(taken.status == 0 && taken.stdout.hasPrefix(#"{"meta":{"v":3},"items":["#), "\(taken)")
        let both = try scratchFiles([("b.json", base), ("o.json", #"{"meta":{"v":2},"items":[{"id":1}]}"#), ("t.json", #"{"meta":{"v":3},"items":[{"id":1}]}"#)])
        let conflict = try changeset(["merge"] + both + ["--id", "id", "--records-at", "items"])
        #expect(conflict.status == 1 && conflict.stderr.contains("the JSON document around the records changed on both sides"), "\(conflict)")
        let preferred = try changeset(["merge"] + both + ["--id", "id", "--records-at", "items", "--prefer", "theirs"])
        #expect(preferred.status == 0 && preferred.stdout.hasPrefix(#"{"meta":{"v":3}"#), "\(preferred)")
    }

    /// Choosing the side of a last conflict that has no record left a trailing comma.
    @Test func jsonMarkersGiveValidJSONWhicheverSideIsChosen() throws {
        let paths = try scratchFiles([
            ("b.json", #"[{"id":1,"a":1},{"id":2,"a":2}]"#), ("o.json", #"[{"id":1,"a":1}]"#), ("t.json", #"[{"id":1,"a":1},{"id":2,"a":22}]"#),
        ])
        let result = try changeset(["merge"] + paths + ["--id", "id", "--markers"])
        #expect(result.status == 1, "\(result)")
        for keep in ["ours", "theirs"] {
            let chosen = resolvedMarkers(result.stdout, keeping: keep)
            let parsed = try run("jq", ["-c", "[.[].id]"], input: chosen)
            #expect(parsed == (keep == "ours" ? "[1]\n" : "[1,2]\n"), "\(chosen)")
        }
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
        let merged = try expectMergedAsGitMergesIt(try dataPackages(base: DataPackage(), ours: ours, theirs: theirs))
        var both = ours
        both.scheme = "https"
        both.escapesSlashes = true
        #expect(merged == both.text)
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

    /// vega-datasets' datapackage.json as it was: OURS named every license,
    /// the package's own too (in the document around the records), and
    /// THEIRS changed every license's path. The document merged as one value
    /// and conflicted; member by member, the result is git's, byte for byte.
    @Test func theDocumentAroundTheRecordsMergesMemberByMemberAsGitMergesIt() throws {
        var ours = DataPackage(), theirs = DataPackage()
        (ours.named, ours.packageNamed) = (true, true)
        (theirs.scheme, theirs.packageScheme) = ("https", "https")
        try expectMergedAsGitMergesIt(try dataPackages(base: DataPackage(), ours: ours, theirs: theirs))
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
        let marked = both.textWithCreatedConflict(ours: ours.created, theirs: theirs.created)
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
        let paths = try scratchFiles([
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
            let chosen = resolvedMarkers(merged.stdout, keeping: keep)
            let parsed = try run("jq", ["-c", "[.created, [.data[].id]]"], input: chosen)
            #expect(parsed == "[\"\(created)\",[1,3]]\n", "\(keep): \(chosen)")
        }
    }

    /// `text` with each conflict resolved as a user keeping `side` ("ours"
    /// or "theirs") would: the marker lines dropped, the other side's lines too.
    func resolvedMarkers(_ text: String, keeping side: String) -> String {
        var lines: [Substring] = []
        var current = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("<<<<<<<") { current = "ours"; continue }
            if line == "=======" { current = "theirs"; continue }
            if line.hasPrefix(">>>>>>>") { current = ""; continue }
            if current.isEmpty || current == side { lines.append(line) }
        }
        return lines.joined(separator: "\n")
    }
}
