import Foundation
import Testing

/// `action.yml` and the example workflow that uses it pass the checks a
/// careful user runs: GitHub's action and workflow schemas (check-jsonschema's
/// built-in copies) and zizmor, offline, with no finding.
@Suite(.tags(.slow, .action)) struct ActionLintTests {
    static let root = fixtures.deletingLastPathComponent()
    static let action = root.appendingPathComponent("action.yml")
    static let example = root.appendingPathComponent("examples/github-actions/dataset-check-action.yml")
    static let tools = root.appendingPathComponent(".build/py-tools/bin")

    static func tool(_ name: String) throws -> URL {
        let url = tools.appendingPathComponent(name)
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "\(name) is missing: run scripts/install-deps")
        return url
    }

    @Test func githubsActionSchemaAcceptsTheAction() throws {
        let result = try runProcess(try Self.tool("check-jsonschema"), ["--builtin-schema", "vendor.github-actions", Self.action.path])
        #expect(result.status == 0 && result.stdout.contains("ok -- validation done"), "\(result)")
    }

    @Test func githubsWorkflowSchemaAcceptsTheExample() throws {
        let result = try runProcess(try Self.tool("check-jsonschema"), ["--builtin-schema", "vendor.github-workflows", Self.example.path])
        #expect(result.status == 0 && result.stdout.contains("ok -- validation done"), "\(result)")
    }

    @Test func zizmorFindsNothingInTheActionOrTheExample() throws {
        let result = try runProcess(try Self.tool("zizmor"), ["--offline", "--no-progress", Self.action.path, Self.example.path])
        #expect(result.status == 0 && (result.stdout + result.stderr).contains("No findings to report"), "\(result)")
    }

    /// No step interpolates an input into its script (zizmor's template
    /// injection): each runs a script of scripts/action/ that exists and
    /// is executable, and gets its inputs through `env:`.
    @Test func everyRunStepIsAnExecutableScriptOfScriptsAction() throws {
        let extract = try runProcess(try Self.tool("python"), ["-c", """
            import sys
            from ruamel.yaml import YAML
            doc = YAML(typ="safe").load(open(sys.argv[1]))
            for step in doc["runs"]["steps"]:
                if "run" in step: print(step["run"])
            """, Self.action.path])
        #expect(extract.status == 0, "\(extract)")
        let runs = extract.stdout.split(separator: "\n")
        #expect(runs.count == 3, "\(runs)")
        for run in runs {
            #expect(!run.contains("${{"), "\(run)")
            let match = try #require(run.firstMatch(of: #/^"\$GITHUB_ACTION_PATH/(scripts/action/[a-z-]+)"$/#), "\(run)")
            #expect(FileManager.default.isExecutableFile(atPath: Self.root.appendingPathComponent(String(match.output.1)).path), "\(run)")
        }
    }

    @Test func theReadmeShowsTheExampleAsItIs() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let file = try String(contentsOf: Self.example, encoding: .utf8)
        #expect(readme.contains("```yaml\n" + file + "```\n"), "the README's workflow differs from \(Self.example.lastPathComponent)")
    }
}
