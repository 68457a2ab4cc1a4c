import Foundation
import Testing

/// The JSON Schemas in `docs/schema/` describe what `--format json`,
/// `--format ndjson` and `--stat --format json` write: every golden file
/// and fresh output of many shapes validates with check-jsonschema, and
/// an output with a member the schema does not know fails.
@Suite(.tags(.slow, .schema)) struct JSONSchemaTests {
    static let root = fixtures.deletingLastPathComponent()
    static let schemas = root.appendingPathComponent("docs/schema")

    /// check-jsonschema over `documents` (JSON texts), written to files first.
    static func validate(_ documents: [String], against schema: String) throws -> CommandResult {
        let tool = root.appendingPathComponent(".build/py-tools/bin/check-jsonschema")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "check-jsonschema is missing: run scripts/install-deps")
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var files: [String] = []
        for (index, document) in documents.enumerated() {
            let file = scratch.appendingPathComponent("doc\(index).json")
            try Data(document.utf8).write(to: file)
            files.append(file.path)
        }
        return try runProcess(tool, ["--schemafile", schemas.appendingPathComponent(schema).path] + files)
    }

    static func lines(_ ndjson: String) -> [String] {
        ndjson.split(separator: "\n").map(String.init)
    }

    /// Report runs of many shapes: ids or none, composite ids, sections,
    /// schema changes (ignored ones too), renames, --kinds, mixed formats.
    static let runs: [[String]] = [
        FormatTests.catalog,
        FormatTests.catalog + ["--section", "category"],
        ["catalog/old.json", "catalog/new.json"],
        ["catalog/old.json", "catalog/new.csv", "--id", "id"],
        ["catalog/old.json", "catalog/new.json", "--id", "author,title"],
        FormatTests.catalog + ["--kinds", "updated,moved"],
        FormatTests.catalog + ["--show", "title", "--show", "pri*"],
        ["states/old.csv", "states/new.csv", "--id", "id"],
        SchemaChangeTests.countries,
        SchemaChangeTests.countries + ["--ignore", "Continent", "--ignore", "fax_prefix"],
        FormatTests.arrays + ["--show", "name"],
        // States keyed by id, one moved: summary.keyedArrays, movedTo and movedFrom.
        ArrayKeyCLITests.states,
    ]

    @Test func goldenFilesValidate() throws {
        let golden = fixtures.appendingPathComponent("golden")
        func read(_ name: String) throws -> String { try String(contentsOf: golden.appendingPathComponent(name), encoding: .utf8) }
        let reports = try Self.validate(["catalog.json", "catalog-sections.json", "countries.json", "arrays.json"].map(read), against: "report.schema.json")
        #expect(reports.status == 0, "\(reports)")
        let stat = try Self.validate([try read("catalog-stat.json")], against: "stat.schema.json")
        #expect(stat.status == 0, "\(stat)")
        let ndjson = try Self.validate(Self.lines(try read("catalog.ndjson")) + Self.lines(try read("arrays.ndjson")), against: "ndjson-line.schema.json")
        #expect(ndjson.status == 0, "\(ndjson)")
    }

    @Test func outputsOfEveryShapeValidate() throws {
        var reports: [String] = [], lines: [String] = [], stats: [String] = []
        for run in Self.runs {
            let json = try changeset(run + ["--format", "json"])
            #expect(json.status == 1, "\(run): \(json)")
            reports.append(json.stdout)
            lines += Self.lines(try changeset(run + ["--format", "ndjson"]).stdout)
            stats.append(try changeset(run + ["--stat", "--format", "json"]).stdout)
        }
        #expect(lines.contains { $0.hasPrefix(#"{"kind":"schema""#) } && lines.contains { $0.contains(#""ignored":"#) })
        for (documents, schema) in [(reports, "report.schema.json"), (lines, "ndjson-line.schema.json"), (stats, "stat.schema.json")] {
            let result = try Self.validate(documents, against: schema)
            #expect(result.status == 0, "\(schema): \(result)")
        }
    }

    /// The schemas are closed: a member they do not describe fails, so the
    /// checks above cannot pass by accepting anything.
    @Test func anUnknownMemberFails() throws {
        let json = try changeset(FormatTests.catalog + ["--format", "json"]).stdout
        let tampered = json.replacingOccurrences(of: #""kind":"moved","#, with: #""kind":"moved","extra":1,"#)
        #expect(tampered != json)
        let result = try Self.validate([tampered], against: "report.schema.json")
        #expect(result.status == 1 && result.stdout.contains("is not valid"), "\(result)")
        let line = try Self.validate([#"{"kind":"renamed","id":"1"}"#], against: "ndjson-line.schema.json")
        #expect(line.status == 1, "\(line)")
    }
}
