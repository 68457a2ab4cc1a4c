import Foundation
import Testing

/// The steps of `action.yml` are the scripts under `scripts/action/`; here
/// they run as the runner runs them, with the environment it gives a step
/// (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH, RUNNER_TEMP and the
/// inputs as CHANGESET_* variables), in a fixture repository whose last
/// commit changes a CSV file, with the built changeset on PATH.
@Suite struct ActionScriptTests {
    static let root = fixtures.deletingLastPathComponent()
    static let base = "sku,name,price\n1,kettle,10\n2,toaster,20\n3,lamp,30\n"
    /// One record updated (1), one deleted (2), one inserted (4).
    static let change = "sku,name,price\n1,kettle,11\n3,lamp,30\n4,clock,40\n"

    /// A scratch folder with a repository (`repo/`, two commits of
    /// data/products.csv) and the files the runner names.
    struct Runner {
        let scratch: URL
        var repository: URL { scratch.appendingPathComponent("repo") }
        var outputFile: URL { scratch.appendingPathComponent("output") }
        var summaryFile: URL { scratch.appendingPathComponent("summary.md") }
        var pathFile: URL { scratch.appendingPathComponent("path") }

        init(commits: [String] = [ActionScriptTests.base, ActionScriptTests.change]) throws {
            scratch = try scratchDirectory()
            try FileManager.default.createDirectory(at: scratch.appendingPathComponent("repo/data"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: scratch.appendingPathComponent("temp"), withIntermediateDirectories: true)
            try git(["init", "-q", "-b", "main"])
            for (number, text) in commits.enumerated() {
                try writeFile(text, "data/products.csv", in: repository)
                try git(["add", "-A"])
                try git(["commit", "-q", "-m", "commit \(number)"])
            }
        }

        func git(_ arguments: [String]) throws {
            let result = try runProcess(URL(fileURLWithPath: "/usr/bin/git"),
                                        ["-c", "user.name=T", "-c", "user.email=t@example.com"] + arguments, in: repository)
            #expect(result.status == 0, "git \(arguments): \(result)")
        }

        /// Runs `scripts/action/NAME` in the repository with these inputs.
        func run(_ name: String, _ inputs: [String: String]) throws -> CommandResult {
            var environment = ProcessInfo.processInfo.environment
            environment["NO_COLOR"] = nil
            environment["PATH"] = changesetBinary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["HOME"] = scratch.path
            environment["GITHUB_OUTPUT"] = outputFile.path
            environment["GITHUB_STEP_SUMMARY"] = summaryFile.path
            environment["GITHUB_PATH"] = pathFile.path
            environment["GITHUB_ACTION_PATH"] = ActionScriptTests.root.path
            environment["RUNNER_TEMP"] = scratch.appendingPathComponent("temp").path
            environment["RUNNER_OS"] = "Linux"
            environment["RUNNER_ARCH"] = "X64"
            environment["RUNNER_TOOL_CACHE"] = scratch.appendingPathComponent("toolcache").path
            for (key, value) in inputs { environment[key] = value }
            let script = ActionScriptTests.root.appendingPathComponent("scripts/action/\(name)")
            return try runProcess(script, [], in: repository, environment: environment)
        }

        /// The `name=value` lines the step wrote to GITHUB_OUTPUT.
        func outputs() throws -> [String: String] {
            let text = try String(contentsOf: outputFile, encoding: .utf8)
            return Dictionary(text.split(separator: "\n").map { line in
                let parts = line.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }, uniquingKeysWith: { _, last in last })
        }

        func summary() throws -> String { try String(contentsOf: summaryFile, encoding: .utf8) }
    }

    @Test func twoSnapshotsGiveTheCountsAndTheReviewAndPassWhenTheAssertionsHold() throws {
        let runner = try Runner()
        defer { try? FileManager.default.removeItem(at: runner.scratch) }
        try writeFile(Self.base, "before.csv", in: runner.scratch)
        let result = try runner.run("compare", [
            "CHANGESET_OLD": runner.scratch.appendingPathComponent("before.csv").path,
            "CHANGESET_NEW": "data/products.csv",
            "CHANGESET_ID": "sku",
            "CHANGESET_ASSERT": "deleted <= 1\n\n   inserted < 50%  \n",
        ])
        #expect(result.status == 0, "\(result)")
        let outputs = try runner.outputs()
        #expect(outputs["inserted"] == "1" && outputs["deleted"] == "1" && outputs["updated"] == "1", "\(outputs)")
        #expect(outputs["moved"] == "0" && outputs["changed"] == "3", "\(outputs)")
        // With assertions changeset's status is theirs: 0 when all hold.
        #expect(outputs["exit-status"] == "0", "\(outputs)")
        #expect(outputs["html-report"] == nil, "\(outputs)")
        let summary = try runner.summary()
        #expect(summary.hasPrefix("### changeset: "), "\(summary)")
        #expect(summary.contains("| inserted | 1 |\n| deleted | 1 |\n| updated | 1 |"), "\(summary)")
        #expect(summary.contains("| `1` | 2 | `price` | `10` | `11` |"), "\(summary)")
        #expect(summary.contains("- ✅ holds: `deleted <= 1` (deleted is 1)"), "\(summary)")
        // Blank lines and the spaces around an assertion are left out.
        #expect(summary.contains("- ✅ holds: `inserted < 50%` (inserted is 1 of 3 records,"), "\(summary)")
    }

    @Test func aFailedAssertionFailsTheStepComparingTheFileWithThePreviousCommit() throws {
        let runner = try Runner()
        defer { try? FileManager.default.removeItem(at: runner.scratch) }
        // No ref: HEAD^, as on a push; the pull request's base sha reaches the script the same way.
        let result = try runner.run("compare", [
            "CHANGESET_PATH": "data/products.csv", "CHANGESET_ID": "sku",
            "CHANGESET_ASSERT": "deleted == 0\nupdated <= 1",
        ])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("changeset: assertion failed: deleted == 0 (deleted is 1)"), "\(result)")
        let outputs = try runner.outputs()
        #expect(outputs["exit-status"] == "1" && outputs["deleted"] == "1" && outputs["inserted"] == "1", "\(outputs)")
        let summary = try runner.summary()
        #expect(summary.contains("- ❌ failed: `deleted == 0` (deleted is 1)"), "\(summary)")
        #expect(summary.contains("- ✅ holds: `updated <= 1` (updated is 1)"), "\(summary)")
        // The old copy is named as what it stands for, the file at the ref.
        #expect(summary.contains("`HEAD^:data/products.csv` → `data/products.csv`"), "\(summary)")
        #expect(!summary.contains("changeset."), "a temporary path in \(summary)")
    }

    @Test func aFileTheChangeAddsIsAllInsertedAndABadPathIsTroubleInTheSummary() throws {
        let runner = try Runner()
        defer { try? FileManager.default.removeItem(at: runner.scratch) }
        try writeFile("sku,name\n1,a\n2,b\n", "data/added.csv", in: runner.repository)
        try runner.git(["add", "-A"])
        try runner.git(["commit", "-q", "-m", "add a file"])
        let added = try runner.run("compare", ["CHANGESET_PATH": "data/added.csv", "CHANGESET_ID": "sku"])
        #expect(added.status == 0 && added.stderr.contains("data/added.csv is not in HEAD^: compared with an empty snapshot"), "\(added)")
        let outputs = try runner.outputs()
        #expect(outputs["inserted"] == "2" && outputs["deleted"] == "0" && outputs["exit-status"] == "1", "\(outputs)")
        // A path out of the checkout writes nothing outside the scratch folder and says why, in the summary too.
        let outside = try Runner()
        defer { try? FileManager.default.removeItem(at: outside.scratch) }
        let escaping = try outside.run("compare", ["CHANGESET_PATH": "../escape.csv"])
        #expect(escaping.status == 2, "\(escaping)")
        #expect(try outside.outputs()["exit-status"] == "2")
        let summary = try outside.summary()
        #expect(summary.hasPrefix("### changeset: not compared\n\n    path must be a file of the checkout"), "\(summary)")
        #expect(!FileManager.default.fileExists(atPath: outside.scratch.appendingPathComponent("escape.csv").path))
    }

    @Test func anExplicitRefIsComparedAgainst() throws {
        // Three commits: the first against the last deletes one record and updates none.
        let runner = try Runner(commits: [Self.base, Self.change, "sku,name,price\n1,kettle,10\n3,lamp,30\n"])
        defer { try? FileManager.default.removeItem(at: runner.scratch) }
        let result = try runner.run("compare", ["CHANGESET_PATH": "data/products.csv", "CHANGESET_REF": "HEAD~2", "CHANGESET_ID": "sku"])
        // Differences without assertions: changeset says 1, the step passes.
        #expect(result.status == 0, "\(result)")
        let outputs = try runner.outputs()
        #expect(outputs["exit-status"] == "1", "\(outputs)")
        #expect(outputs["deleted"] == "1" && outputs["updated"] == "0" && outputs["inserted"] == "0" && outputs["changed"] == "1", "\(outputs)")
    }

    @Test func freeArgumentsAreSplitAsAShellWouldWithoutRunningAnything() throws {
        let runner = try Runner()
        defer { try? FileManager.default.removeItem(at: runner.scratch) }
        let marker = runner.scratch.appendingPathComponent("ran")
        let result = try runner.run("compare", [
            "CHANGESET_PATH": "data/products.csv", "CHANGESET_ID": "sku",
            "CHANGESET_ARGS": "--ignore 'price' --show \"name\" $(touch \(marker.path))",
            "CHANGESET_FORMAT": "text",
        ])
        // The last word is a third snapshot to changeset, which refuses it: trouble, and nothing ran.
        #expect(result.status == 2, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        let refusal = try runner.summary()
        #expect(refusal.hasPrefix("### changeset: not compared\n\n    "), "\(refusal)")
        // Each step has a summary file of its own.
        try Data().write(to: runner.summaryFile)
        let quoted = try runner.run("compare", [
            "CHANGESET_PATH": "data/products.csv", "CHANGESET_ID": "sku",
            "CHANGESET_ARGS": "--ignore 'price' --show \"name\"", "CHANGESET_FORMAT": "text",
        ])
        #expect(quoted.status == 0, "\(quoted)")
        let outputs = try runner.outputs()
        #expect(outputs["updated"] == "0" && outputs["changed"] == "2", "\(outputs)")
        // A format other than markdown goes into the summary as a code block.
        let summary = try runner.summary()
        #expect(summary.hasPrefix("```\n1 inserted, 1 deleted, 0 updated"), "\(summary)")
        #expect(summary.hasSuffix("```\n"), "\(summary)")
    }

    @Test func aRecordMovedAndUpdatedCountsOnceAsChanged() throws {
        let runner = try Runner(commits: ["sku,cat,price\n1,a,10\n2,a,20\n3,b,30\n", "sku,cat,price\n1,b,11\n3,b,30\n2,a,20\n"])
        defer { try? FileManager.default.removeItem(at: runner.scratch) }
        let result = try runner.run("compare", ["CHANGESET_PATH": "data/products.csv", "CHANGESET_ID": "sku", "CHANGESET_ARGS": "--section cat"])
        #expect(result.status == 0, "\(result)")
        let outputs = try runner.outputs()
        #expect(outputs["moved"] == "1" && outputs["updated"] == "1" && outputs["changed"] == "1", "\(outputs)")
    }

    @Test func theHtmlReportIsWrittenWhenAsked() throws {
        let runner = try Runner()
        defer { try? FileManager.default.removeItem(at: runner.scratch) }
        let result = try runner.run("compare", ["CHANGESET_PATH": "data/products.csv", "CHANGESET_ID": "sku", "CHANGESET_HTML_REPORT": "true"])
        #expect(result.status == 0, "\(result)")
        let report = try #require(try runner.outputs()["html-report"])
        let html = try String(contentsOf: URL(fileURLWithPath: report), encoding: .utf8)
        #expect(html.contains("<html") && html.contains("toaster"), "\(html.prefix(300))")
    }

    @Test func troubleIsExitStatusTwoWithTheReason() throws {
        let runner = try Runner()
        defer { try? FileManager.default.removeItem(at: runner.scratch) }
        let missingRef = try runner.run("compare", ["CHANGESET_PATH": "data/products.csv", "CHANGESET_REF": "HEAD~7"])
        #expect(missingRef.status == 2 && missingRef.stderr.contains("HEAD~7 is not in this clone"), "\(missingRef)")
        let both = try runner.run("compare", ["CHANGESET_PATH": "data/products.csv", "CHANGESET_OLD": "a.csv", "CHANGESET_NEW": "b.csv"])
        #expect(both.status == 2 && both.stderr.contains("give old and new, or path, not both"), "\(both)")
        let badAssertion = try runner.run("compare", ["CHANGESET_PATH": "data/products.csv", "CHANGESET_ID": "sku", "CHANGESET_ASSERT": "deleted =< 0"])
        #expect(badAssertion.status == 2, "\(badAssertion)")
    }

    @Test func theCacheKeyFollowsTheSourcesAndTheRunner() throws {
        let runner = try Runner()
        defer { try? FileManager.default.removeItem(at: runner.scratch) }
        #expect(try runner.run("cache-key", [:]).status == 0)
        let first = try runner.outputs()
        try FileManager.default.removeItem(at: runner.outputFile)
        #expect(try runner.run("cache-key", ["RUNNER_ARCH": "ARM64"]).status == 0)
        let second = try runner.outputs()
        let key = try #require(first["key"])
        #expect(key.hasPrefix("changeset-Linux-X64-") && key.count > "changeset-Linux-X64-".count + 15, "\(first)")
        #expect(second["key"] == key.replacingOccurrences(of: "-X64-", with: "-ARM64-"), "\(second)")
        #expect(first["dir"]?.hasPrefix(runner.scratch.appendingPathComponent("toolcache/changeset/").path) == true, "\(first)")
    }

    /// A cache hit: the restored build goes on PATH and Swift is not needed.
    @Test func aCachedBuildIsPutOnThePath() throws {
        let runner = try Runner()
        defer { try? FileManager.default.removeItem(at: runner.scratch) }
        let cached = runner.scratch.appendingPathComponent("cached")
        try FileManager.default.createDirectory(at: cached.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: changesetBinary, to: cached.appendingPathComponent("bin/changeset"))
        let result = try runner.run("install-changeset", ["CHANGESET_DIR": cached.path, "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0 && result.stdout.hasPrefix("changeset "), "\(result)")
        #expect(try String(contentsOf: runner.pathFile, encoding: .utf8) == cached.appendingPathComponent("bin").path + "\n")
    }
}
