import Foundation
import Testing

/// The pre-commit hook (`.pre-commit-hooks.yaml`, `scripts/pre-commit-hook`),
/// run by the real `pre-commit` tool from PyPI in a fixture repository whose
/// staged data file changed: `try-repo` (the hook as given, no args), and
/// `run` with a configuration whose args hold the assertions. The hook
/// repository is a git repository holding a committed copy of the two files.
@Suite(.tags(.slow, .action)) struct PreCommitHookTests {
    static let root = fixtures.deletingLastPathComponent()
    static let preCommit = root.appendingPathComponent(".build/py-tools/bin/pre-commit")
    static let base = "sku,name,price\n1,kettle,10\n2,toaster,20\n3,lamp,30\n"

    struct Fixture {
        let scratch: URL
        var hooks: URL { scratch.appendingPathComponent("hooks") }
        var repository: URL { scratch.appendingPathComponent("repo") }
        var hooksCommit = ""

        init() throws {
            try #require(FileManager.default.isExecutableFile(atPath: PreCommitHookTests.preCommit.path),
                         "pre-commit is missing: run scripts/install-deps")
            scratch = try scratchDirectory()
            let manager = FileManager.default
            try manager.createDirectory(at: hooks.appendingPathComponent("scripts"), withIntermediateDirectories: true)
            try manager.copyItem(at: PreCommitHookTests.root.appendingPathComponent(".pre-commit-hooks.yaml"),
                                 to: hooks.appendingPathComponent(".pre-commit-hooks.yaml"))
            try manager.copyItem(at: PreCommitHookTests.root.appendingPathComponent("scripts/pre-commit-hook"),
                                 to: hooks.appendingPathComponent("scripts/pre-commit-hook"))
            try git(["init", "-q", "-b", "main"], in: hooks)
            try git(["add", "-A"], in: hooks)
            try git(["commit", "-q", "-m", "hooks"], in: hooks)
            hooksCommit = try git(["rev-parse", "HEAD"], in: hooks).trimmingCharacters(in: .whitespacesAndNewlines)
            try manager.createDirectory(at: repository.appendingPathComponent("data"), withIntermediateDirectories: true)
            try git(["init", "-q", "-b", "main"], in: repository)
            try writeFile(PreCommitHookTests.base, "data/products.csv", in: repository)
            try git(["add", "-A"], in: repository)
            try git(["commit", "-q", "-m", "base"], in: repository)
        }

        @discardableResult
        func git(_ arguments: [String], in directory: URL) throws -> String {
            let result = try runProcess(URL(fileURLWithPath: "/usr/bin/git"),
                                        ["-c", "user.name=T", "-c", "user.email=t@example.com"] + arguments, in: directory)
            #expect(result.status == 0, "git \(arguments): \(result)")
            return result.stdout
        }

        /// Writes and stages data/products.csv.
        func stage(_ text: String, as name: String = "data/products.csv") throws {
            try writeFile(text, name, in: repository)
            try git(["add", name], in: repository)
        }

        /// Writes and stages a configuration that uses the hook with these args.
        func configure(args: [String], files: String? = nil) throws {
            let quoted = args.map { "\"\($0)\"" }.joined(separator: ", ")
            let filesLine = files.map { "\n        files: \($0)" } ?? ""
            try writeFile("""
                repos:
                  - repo: \(hooks.path)
                    rev: \(hooksCommit)
                    hooks:
                      - id: changeset\(filesLine)
                        args: [\(quoted)]

                """, ".pre-commit-config.yaml", in: repository)
            try git(["add", ".pre-commit-config.yaml"], in: repository)
        }

        func preCommit(_ arguments: [String]) throws -> CommandResult {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = changesetBinary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["HOME"] = scratch.path
            environment["PRE_COMMIT_HOME"] = scratch.appendingPathComponent("cache").path
            environment["NO_COLOR"] = nil
            return try runProcess(PreCommitHookTests.preCommit, arguments + ["--color", "never"], in: repository, environment: environment)
        }
    }

    @Test func tryRepoPassesAStagedChangeWithoutAssertions() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.scratch) }
        try fixture.stage("sku,name,price\n1,kettle,11\n3,lamp,30\n")
        let result = try fixture.preCommit(["try-repo", fixture.hooks.path, "changeset", "--verbose", "--files", "data/products.csv"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("changeset.....") && result.stdout.contains("Passed"), "\(result)")
        // Without --id records match by position: the report is there with -v.
        #expect(result.stdout.contains("data/products.csv:\n"), "\(result)")
    }

    @Test func tryRepoFailsOnAStagedFileChangesetCannotRead() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.scratch) }
        try fixture.stage("sku,name,price\n1,kettle\n")
        let result = try fixture.preCommit(["try-repo", fixture.hooks.path, "changeset", "--files", "data/products.csv"])
        #expect(result.status == 1 && result.stdout.contains("Failed"), "\(result)")
        #expect(result.stdout.contains("this row has 2 fields but the header has 3"), "\(result)")
    }

    @Test func aFailedAssertionStopsTheCommitAndShowsTheReport() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.scratch) }
        try fixture.configure(args: ["--id=sku", "--assert=deleted == 0"])
        try fixture.stage("sku,name,price\n1,kettle,11\n3,lamp,30\n")
        let result = try fixture.preCommit(["run", "changeset", "--files", "data/products.csv"])
        #expect(result.status == 1 && result.stdout.contains("Failed"), "\(result)")
        #expect(result.stdout.contains("changeset: assertion failed: deleted == 0 (deleted is 1)"), "\(result)")
        #expect(result.stdout.contains("deleted  id 2") && result.stdout.contains("price: 10 -> 11"), "\(result)")
    }

    @Test func assertionsThatHoldPass() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.scratch) }
        try fixture.configure(args: ["--id=sku", "--assert=deleted == 0", "--assert=updated <= 1"])
        try fixture.stage("sku,name,price\n1,kettle,11\n2,toaster,20\n3,lamp,30\n")
        let result = try fixture.preCommit(["run", "changeset", "--files", "data/products.csv"])
        #expect(result.status == 0 && result.stdout.contains("Passed"), "\(result)")
    }

    /// A file with no committed version is skipped; the staged version of a
    /// file is compared, not a later unstaged edit (pre-commit sets it aside).
    @Test func aNewFileIsSkippedAndTheStagedVersionIsCompared() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.scratch) }
        try fixture.configure(args: ["--id=sku", "--assert=deleted == 0"])
        try fixture.stage("sku,name,price\n1,kettle,10\n2,toaster,20\n3,lamp,30\n4,clock,40\n")
        try writeFile("sku,name,price\n1,kettle,10\n", "data/products.csv", in: fixture.repository)
        try fixture.stage("id,x\n1,a\n", as: "data/new.csv")
        let result = try fixture.preCommit(["run", "changeset", "--verbose", "--files", "data/products.csv", "data/new.csv"])
        #expect(result.status == 0 && result.stdout.contains("Passed"), "\(result)")
        #expect(result.stdout.contains("data/new.csv: new, nothing to compare with"), "\(result)")
        #expect(result.stdout.contains("1 inserted, 0 deleted"), "\(result)")
    }

    /// A .json file may be any document, so the hook takes JSON only where
    /// the configuration's files: names it.
    @Test func jsonFilesAreCheckedOnlyWhereTheConfigurationNamesThem() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.scratch) }
        try writeFile("{\"name\": \"shop\", \"version\": \"1\"}\n", "package.json", in: fixture.repository)
        try writeFile("[{\"sku\": 1, \"price\": 10}, {\"sku\": 2, \"price\": 20}]\n", "data/items.json", in: fixture.repository)
        try fixture.git(["add", "-A"], in: fixture.repository)
        try fixture.git(["commit", "-q", "-m", "json"], in: fixture.repository)
        try fixture.stage("{\"name\": \"shop\", \"version\": \"2\"}\n", as: "package.json")
        try fixture.stage("[{\"sku\": 1, \"price\": 10}]\n", as: "data/items.json")
        try fixture.configure(args: ["--id=sku", "--assert=deleted == 0"])
        let byDefault = try fixture.preCommit(["run", "changeset", "--files", "package.json", "data/items.json"])
        #expect(byDefault.status == 0 && byDefault.stdout.contains("(no files to check)Skipped"), "\(byDefault)")
        try fixture.configure(args: ["--id=sku", "--assert=deleted == 0"], files: "^data/.*\\.(json|csv)$")
        let named = try fixture.preCommit(["run", "changeset", "--files", "package.json", "data/items.json"])
        #expect(named.status == 1 && named.stdout.contains("changeset: assertion failed: deleted == 0 (deleted is 1)"), "\(named)")
        #expect(!named.stdout.contains("package.json"), "\(named)")
    }

    /// pre-commit puts args before the file names; a value written apart
    /// from its option would pass for a file, so the hook refuses it.
    @Test func anOptionsValueWrittenApartIsRefused() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.scratch) }
        try fixture.configure(args: ["--id", "sku"])
        try fixture.stage("sku,name,price\n1,kettle,11\n2,toaster,20\n3,lamp,30\n")
        let result = try fixture.preCommit(["run", "changeset", "--files", "data/products.csv"])
        #expect(result.status == 1 && result.stdout.contains("sku is not a file: write an option's value after an = (--id=sku)"), "\(result)")
    }
}
