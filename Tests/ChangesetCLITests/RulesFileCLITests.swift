import Foundation
import Testing

/// The rules file, `.changeset.json`, driving the binary: the entry for
/// NEW's path (else OLD's) gives options, the command line wins, `--rules
/// FILE` and `--no-rules` choose the file, a bad file is exit status 2 with
/// its line and column, and git's drivers take the id from it.
@Suite struct RulesFileCLITests {
    static let old = "sku,name,price,updated_at\n1,a,1.00,x\n2,b,2.00,y\n"
    static let new = "sku,name,price,updated_at\n1,A,1.00,w\n2,b,2.001,z\n"
    static let rules = """
        {
          // products are matched by sku; updated_at changes on every export
          "files": {
            "data/*.csv": { "id": "sku", "ignore": ["updated_at"], "tolerance": "price=0.01", },
            "*.csv": { "id": "name" },
          },
        }
        """

    /// A scratch folder holding `.git` (the repository's root), the rules
    /// file, and the snapshots under data/ and at the top.
    static func repository(rules: String = rules) throws -> URL {
        let root = try scratchDirectory()
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("data"), withIntermediateDirectories: true)
        try writeFile(rules, ".changeset.json", in: root)
        for folder in ["data/", ""] {
            try writeFile(old, folder + "old.csv", in: root)
            try writeFile(new, folder + "new.csv", in: root)
        }
        return root
    }

    @Test func theEntryForNewsPathGivesTheOptions() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        // data/*.csv: by sku, updated_at ignored, price within 0.01: only the name changed.
        let diff = try changeset(["data/old.csv", "data/new.csv", "--stat"], in: root)
        #expect(diff.status == 1 && diff.stdout.hasPrefix("0 inserted, 0 deleted, 1 updated, 0 moved, 1 unchanged\nfields: name 1\n"), "\(diff)")
        // From a folder below, the same file is the same entry.
        let below = try changeset(["old.csv", "new.csv", "--stat"], in: root.appendingPathComponent("data"))
        #expect(below.stdout == diff.stdout, "\(below)")
        // NEW's path picks: NEW at the top is *.csv's entry (by name, nothing ignored).
        let top = try changeset(["data/old.csv", "new.csv", "--stat"], in: root)
        #expect(top.stdout.hasPrefix("1 inserted, 1 deleted, 1 updated, 0 moved, 0 unchanged\n"), "\(top)")
        // NEW on standard input: OLD's path picks.
        let piped = try changeset(["data/old.csv", "-", "--stat"], in: root, input: Data(Self.new.utf8))
        #expect(piped.stdout == diff.stdout, "\(piped)")
    }

    @Test func theCommandLineWinsAndRepeatableOptionsCombine() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        // --id on the command line replaces the file's; its --ignore and --tolerance stay.
        let byName = try changeset(["data/old.csv", "data/new.csv", "--id", "name", "--stat"], in: root)
        #expect(byName.stdout.hasPrefix("1 inserted, 1 deleted, 0 updated, 0 moved, 1 unchanged\n"), "\(byName)")
        // The file's --ignore and the command line's both apply.
        let both = try changeset(["diff", "data/old.csv", "data/new.csv", "--ignore", "name", "--stat"], in: root)
        #expect(both.status == 0 && both.stdout.hasPrefix("0 inserted, 0 deleted, 0 updated, 0 moved, 2 unchanged\n"), "\(both)")
        // --no-rules: no id, nothing ignored.
        let none = try changeset(["data/old.csv", "data/new.csv", "--no-rules", "--stat"], in: root)
        #expect(none.stdout.hasPrefix("2 inserted, 2 deleted, 0 updated"), "\(none)")
        let conflicting = try changeset(["data/old.csv", "data/new.csv", "--no-rules", "--rules", "x.json"], in: root)
        #expect(conflicting.status == 2 && conflicting.stderr.contains("give one of them"), "\(conflicting)")
    }

    @Test func rulesNamesTheFileAndItsFolderPlacesTheGlobs() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("config"), withIntermediateDirectories: true)
        // Globs start at the rules file's folder: ../data/*.csv cannot be written, **/*.csv can.
        try writeFile(#"{"files": {"**/*.csv": {"id": "sku", "ignore": "updated_at", "tolerance": ["price=0.01"]}}}"#, "config/rules.json", in: root)
        let outside = try changeset(["data/old.csv", "data/new.csv", "--rules", "config/rules.json", "--stat"], in: root)
        #expect(outside.stdout.hasPrefix("2 inserted, 2 deleted"), "\(outside)")
        try writeFile(#"{"files": {"*.csv": {"id": "sku", "ignore": "updated_at", "tolerance": ["price=0.01"]}}}"#, "data/rules.json", in: root)
        let given = try changeset(["data/old.csv", "data/new.csv", "--rules", "data/rules.json", "--stat"], in: root)
        #expect(given.stdout.hasPrefix("0 inserted, 0 deleted, 1 updated, 0 moved, 1 unchanged\n"), "\(given)")
        let missing = try changeset(["data/old.csv", "data/new.csv", "--rules", "nowhere.json"], in: root)
        #expect(missing.status == 2 && missing.stderr == "changeset: nowhere.json: cannot read the rules file: No such file or directory\n", "\(missing)")
    }

    @Test func aBadRulesFileIsTroubleAtItsLineAndColumn() throws {
        let root = try Self.repository(rules: "{\n  \"files\": {\n    \"*.csv\": { \"idd\": \"sku\" },\n  },\n}\n")
        defer { try? FileManager.default.removeItem(at: root) }
        // Found in the working directory, the file is named as the user would name it there.
        let rulesPath = ".changeset.json"
        let unknown = try changeset(["old.csv", "new.csv"], in: root)
        #expect(unknown.status == 2 && unknown.stdout.isEmpty, "\(unknown)")
        #expect(unknown.stderr == "changeset: \(rulesPath):3:16: unknown option \"idd\"; did you mean \"id\"?\n", "\(unknown)")
        // A value the option refuses: placed at the option's name in the file.
        try writeFile("{\"files\": {\n  \"*.csv\": {\n    \"arrays\": \"bogus\" }}}", ".changeset.json", in: root)
        let refused = try changeset(["old.csv", "new.csv"], in: root)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.hasPrefix("changeset: \(rulesPath):3:5: the entry \"*.csv\": The value 'bogus' is invalid for '--arrays"), "\(refused)")
        // Found above the working directory: named by its whole path.
        let above = try changeset(["../old.csv", "../new.csv"], in: root.appendingPathComponent("data"))
        #expect(above.stderr.hasPrefix("changeset: \(root.appendingPathComponent(".changeset.json").path):3:5: "), "\(above)")
        // --no-rules reads none, so a broken one does not stop the diff.
        #expect(try changeset(["old.csv", "new.csv", "--no-rules", "-q"], in: root).status == 1)
    }

    /// An entry's keys are the comparison's options and `assert`; flags
    /// take true or false; options about the output are not a file's.
    @Test func anEntrySetsTheComparisonsOptionsFlagsAndAssertions() throws {
        let root = try Self.repository(rules: """
            {"files": {"*.csv": {"id": "sku", "ignore-order": true, "ignore": "updated_at", "tolerance": "price=0.01",
                                 "assert": ["updated <= 0"]}}}
            """)
        defer { try? FileManager.default.removeItem(at: root) }
        let failing = try changeset(["old.csv", "new.csv", "--stat"], in: root)
        #expect(failing.status == 1 && failing.stderr == "changeset: assertion failed: updated <= 0 (updated is 1)\n", "\(failing)")
        // The command line's --assert is checked too, beside the file's (a failing one is reported).
        let both = try changeset(["old.csv", "new.csv", "--stat", "--assert", "inserted > 0"], in: root)
        #expect(both.status == 1 && both.stderr.contains("updated <= 0") && both.stderr.contains("inserted > 0"), "\(both)")
        try writeFile(#"{"files": {"*.csv": {"id": "sku", "format": "json"}}}"#, ".changeset.json", in: root)
        let output = try changeset(["old.csv", "new.csv"], in: root)
        #expect(output.status == 2 && output.stderr.contains(":1:35: unknown option \"format\""), "\(output)")
    }

    @Test func mergeTakesTheEntryForOurs() throws {
        let root = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeFile("sku,name,price,updated_at\n1,a,1.50,x\n2,b,2.00,y\n", "data/theirs.csv", in: root)
        try writeFile("sku,name,price,updated_at\n1,a,1.00,q\n2,b,2.00,y\n", "data/ours.csv", in: root)
        // Both sides changed record 1, in different fields: by sku, a field-level merge.
        let merged = try changeset(["merge", "data/old.csv", "data/ours.csv", "data/theirs.csv"], in: root)
        #expect(merged.status == 0 && merged.stdout == "sku,name,price,updated_at\n1,a,1.50,q\n2,b,2.00,y\n", "\(merged)")
        #expect(!merged.stderr.contains("without --id"), "\(merged)")
    }

    /// `changeset git setup '*.csv'` without --id, in a repository whose
    /// rules file gives the id: both drivers take it from there.
    @Test func gitSetupWithoutAnIDUsesTheRulesForDiffAndMerge() throws {
        let repository = try GitDriverTests.Repository()
        try repository.write(".changeset.json", #"{"files": {"*.csv": {"id": "sku", "ignore": ["updated_at"]}}}"#)
        let setup = try repository.changeset("git", "setup", "*.csv")
        #expect(setup.status == 0 && setup.stdout.contains("git diff and git merge take the id from"), "\(setup)")
        #expect(try repository.read(".gitattributes") == "*.csv diff=changeset merge=changeset\n")
        try repository.branches("data/p.csv", base: "sku,price,updated_at\n1,1.00,x\n2,2.00,y\n3,3.00,z\n",
                                ours: "sku,price,updated_at\n1,1.00,q\n2,2.00,y\n3,3.00,w\n",
                                theirs: "sku,price,updated_at\n1,1.50,x\n2,2.00,y\n3,3.00,z\n")
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status == 0, "\(merged)")
        #expect(try repository.read("data/p.csv") == "sku,price,updated_at\n1,1.50,q\n2,2.00,y\n3,3.00,w\n")
        try repository.write("data/p.csv", "sku,price,updated_at\n3,3.00,v\n1,1.75,q\n2,2.00,y\n")
        let diff = try repository.git("diff")
        #expect(diff.status == 0, "\(diff)")
        // By sku, updated_at ignored: one price changed, one record moved.
        #expect(diff.stdout.contains("0 inserted, 0 deleted, 1 updated, 1 moved"), "\(diff)")
        #expect(diff.stdout.contains("updated  sku 1") || diff.stdout.contains("updated  id 1"), "\(diff)")
    }

    /// git's drivers never stop git: a broken rules file makes the diff say
    /// so and the merge fall back to git's text merge.
    @Test func aBadRulesFileDoesNotStopGit() throws {
        let repository = try GitDriverTests.Repository()
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv").status == 0)
        try repository.write(".changeset.json", #"{"files": {"*.csv": {"idd": "sku"}}}"#)
        try repository.branches("p.csv", base: "sku,v\n1,1\n2,2\n", ours: "sku,v\n1,3\n2,2\n", theirs: "sku,v\n1,1\n2,4\n")
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.stderr.contains("unknown option \"idd\"") && merged.stderr.contains("merging it as text"), "\(merged)")
        try repository.git("merge", "--abort")
        try repository.write("p.csv", "sku,v\n1,5\n")
        let diff = try repository.git("diff")
        #expect(diff.status == 0 && diff.stdout.contains("changeset: options not used: .changeset.json:1:") && diff.stdout.contains("unknown option"), "\(diff)")
        // The change is still shown, compared by the attribute's id without the rules.
        #expect(diff.stdout.contains("changeset diff a/p.csv b/p.csv") && diff.stdout.contains("1 updated"), "\(diff)")
    }
}
