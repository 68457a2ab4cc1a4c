import Foundation
import Testing

/// The GitHub Actions workflow we ship (`examples/github-actions/`) is a
/// real file: GitHub's workflow schema accepts it (check-jsonschema's
/// built-in copy), zizmor finds nothing in it, the README links to it as
/// the way without the action, and its check step, run as written in a git repository like a pull
/// request's, writes the review and the failed assertions into the job summary.
@Suite(.tags(.slow, .workflow)) struct WorkflowTests {
    static let root = fixtures.deletingLastPathComponent()
    static let workflow = root.appendingPathComponent("examples/github-actions/dataset-check.yml")
    static let tools = root.appendingPathComponent(".build/py-tools/bin")

    static func tool(_ name: String) throws -> URL {
        let url = tools.appendingPathComponent(name)
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "\(name) is missing: run scripts/install-deps")
        return url
    }

    @Test func githubsWorkflowSchemaAcceptsIt() throws {
        let result = try runProcess(try Self.tool("check-jsonschema"), ["--builtin-schema", "vendor.github-workflows", Self.workflow.path])
        #expect(result.status == 0 && result.stdout.contains("ok -- validation done"), "\(result)")
    }

    @Test func zizmorFindsNothing() throws {
        let result = try runProcess(try Self.tool("zizmor"), ["--offline", "--no-progress", Self.workflow.path])
        #expect(result.status == 0 && (result.stdout + result.stderr).contains("No findings to report"), "\(result)")
    }

    @Test func theReadmeLinksToItAsTheWayWithoutTheAction() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("[`examples/github-actions/dataset-check.yml`](examples/github-actions/dataset-check.yml)\ndoes the same without the action"),
                "README does not link to \(Self.workflow.lastPathComponent)")
    }

    /// The "Check the data change" step's script, run by bash as the runner
    /// would, in a clone whose origin has the base branch.
    @Test func theCheckStepWritesTheReviewAndFailedAssertionsIntoTheSummary() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // The step's run script, read from the YAML by check-jsonschema's own YAML library.
        let python = Self.tools.appendingPathComponent("python")
        let extract = try runProcess(python, ["-c", """
            import sys
            from ruamel.yaml import YAML
            doc = YAML(typ="safe").load(open(sys.argv[1]))
            print(next(s["run"] for s in doc["jobs"]["check-data"]["steps"] if s.get("name") == "Check the data change"), end="")
            """, Self.workflow.path])
        #expect(extract.status == 0, "\(extract)")
        let script = extract.stdout
        let origin = scratch.appendingPathComponent("origin"), clone = scratch.appendingPathComponent("clone")
        func git(_ arguments: [String], in directory: URL) throws {
            let result = try runProcess(URL(fileURLWithPath: "/usr/bin/git"),
                                        ["-c", "user.name=T", "-c", "user.email=t@example.com"] + arguments, in: directory)
            #expect(result.status == 0, "git \(arguments): \(result)")
        }
        try FileManager.default.createDirectory(at: origin.appendingPathComponent("data"), withIntermediateDirectories: true)
        let products = (1...40).map { "\($0),item \($0),\($0 * 10)" }
        try Data(("sku,name,price\n" + products.joined(separator: "\n") + "\n").utf8)
            .write(to: origin.appendingPathComponent("data/products.csv"))
        try git(["init", "-q", "-b", "main"], in: origin)
        try git(["add", "-A"], in: origin)
        try git(["commit", "-q", "-m", "base"], in: origin)
        try git(["clone", "-q", origin.path, clone.path], in: scratch)
        let summaryFile = scratch.appendingPathComponent("summary.md")
        let binDirectory = changesetBinary.deletingLastPathComponent().path
        func runStep(_ changed: [String]) throws -> CommandResult {
            try Data(("sku,name,price\n" + changed.joined(separator: "\n") + "\n").utf8)
                .write(to: clone.appendingPathComponent("data/products.csv"))
            try? FileManager.default.removeItem(at: summaryFile)
            var environment = ProcessInfo.processInfo.environment
            environment["BASE_REF"] = "main"
            environment["GITHUB_STEP_SUMMARY"] = summaryFile.path
            environment["PATH"] = binDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["HOME"] = scratch.path
            return try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-e", "-c", script], in: clone, environment: environment)
        }
        // One price changed: every assertion holds.
        var one = products
        one[3] = "4,item 4,41"
        let passing = try runStep(one)
        #expect(passing.status == 0, "\(passing)")
        let passingSummary = try String(contentsOf: summaryFile, encoding: .utf8)
        #expect(passingSummary.contains("| updated | 1 |") && passingSummary.contains("- ✅ holds: `updated <= 5%` (updated is 1 of 40 records, 2.5%)"), "\(passingSummary)")
        // A product deleted and three updated: two assertions fail, in the log and in the summary.
        var bad = Array(products.dropFirst())
        for index in 0..<3 { bad[index] += "0" }
        let failing = try runStep(bad)
        #expect(failing.status == 1, "\(failing)")
        #expect(failing.stderr.contains("changeset: assertion failed: deleted == 0 (deleted is 1)"), "\(failing)")
        let failingSummary = try String(contentsOf: summaryFile, encoding: .utf8)
        #expect(failingSummary.contains("- ❌ failed: `deleted == 0` (deleted is 1)"), "\(failingSummary)")
        #expect(failingSummary.contains("- ❌ failed: `updated <= 5%` (updated is 3 of 40 records, 7.5%)"), "\(failingSummary)")
        #expect(failingSummary.contains("- ✅ holds: `schema == 0` (schema is 0)"), "\(failingSummary)")
    }
}
