import ChangesetKit
import Foundation
import Testing

/// Names, ids, section names and file names come from the data as values
/// do: each report format writes them by its one rule (text: invisible
/// characters escaped; markdown: a code span; html: entities), so a column
/// named with a line break, `# All checks passed` and an image cannot add a
/// heading or an image to a pull request's summary, and ESC cannot reach a
/// terminal. Reports built in memory, each name in every place it is shown.
@Suite struct DataDerivedTextTests {
    /// The review's column name: a heading and an image on lines of their own, then an OSC sequence.
    static let hostile = "note\n# All checks passed\n![x](http://evil/x.png)\u{1B}]0;pwned\u{07}"
    /// How every format shows it (the `.` escaped as a field path writes it).
    static let shown = #"note\u000A# All checks passed\u000A![x](http://evil/x\.png)\u001B]0;pwned\u0007"#

    static let added = "new\u{1B}[2J<img src=x onerror=alert(1)>"
    static let removed = "gone\r\n## Removed"
    static let section = "sec\u{1B}[0m\n# h"
    static let id = "9\u{1B}[2J\n# id"

    static func report() -> Report {
        let name = FieldPath([hostile])
        var summary = Summary()
        summary.inserted = 1
        summary.updated = 1
        summary.sectionsInserted = 1
        summary.oldCount = 1
        summary.newCount = 2
        summary.schema = 2
        summary.fieldCounts = [FieldCount(path: name, records: 2), FieldCount(path: FieldPath(["price"]), records: 1)]
        summary.transitions = [FieldTransitions(path: name, top: [ValueTransition(old: .string("a"), new: .string("b"), records: 2)],
                                                exact: true, numbers: nil)]
        var schema = SchemaChanges(
            added: [SchemaField(path: FieldPath([added]), records: 1)], removed: [SchemaField(path: FieldPath([removed]), records: 1)],
            renamed: [Rename(old: FieldPath(["old\u{07}"]), new: FieldPath(["csi\u{9B}31m"]))],
            ignoredAdded: [SchemaField(path: FieldPath(["bidi\u{202E}txt"]), records: 1)],
            ignoredRemoved: [SchemaField(path: FieldPath(["nul\u{0}"]), records: 1)])
        schema.suggestedRenames = [RenameSuggestion(old: FieldPath([removed]), new: FieldPath([added]), compared: 1, equal: 1)]
        let changes = [
            Change(kind: .sectionInserted, section: section, new: RecordPlace(index: 1)),
            Change(kind: .inserted, id: [id], new: RecordPlace(section: section, index: 0, line: 3),
                   record: .object([.init(name: hostile, value: .string("d"))])),
            Change(kind: .updated, id: ["2"], old: RecordPlace(section: section, index: 0, line: 2), new: RecordPlace(section: section, index: 1, line: 4),
                   fields: [FieldChange(path: name, old: .string("a"), new: .string("b"))],
                   context: [(path: FieldPath(["ctx\n# c"]), value: .string("v"))]),
        ]
        return Report(
            old: InputSummary(name: "old\n# o.csv", format: .csv, records: 1), new: InputSummary(name: "new\u{1B}.csv", format: .csv, records: 2),
            id: [FieldPath(["id\n# i"])], section: FieldPath(["category"]), summary: summary, schema: schema, changes: ChangeStream(changes))
    }

    static func written(_ formatter: some ReportFormatter, _ report: Report = report()) throws -> String {
        var output = ""
        try formatter.write(report, to: &output)
        return output
    }

    /// Every line as the visible rule leaves it: no control, format or other
    /// invisible character anywhere but the line feeds between lines.
    static func expectEveryLineVisible(_ output: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(TerminalText.escaped(String(line)) == String(line), "\(line.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    /// A line's text outside its code spans (a span opens with a run of
    /// backticks and closes with the next run of the same length), as markdown reads it.
    static func outsideCodeSpans(_ line: Substring) -> String {
        var outside = ""
        var rest = line[...]
        while let open = rest.firstIndex(of: "`") {
            outside += rest[..<open]
            let fence = rest[open...].prefix { $0 == "`" }
            var search = fence.endIndex
            var close: Range<Substring.Index>?
            while let found = rest[search...].firstIndex(of: "`") {
                let run = rest[found...].prefix { $0 == "`" }
                if run.count == fence.count { close = found..<run.endIndex; break }
                search = run.endIndex
            }
            guard let close else { return outside + rest[open...] }
            rest = rest[close.upperBound...]
        }
        return outside + rest
    }

    @Test func markdownWritesEveryNameAsACodeSpanOnItsOwnLine() throws {
        let page = try Self.written(MarkdownFormatter())
        Self.expectEveryLineVisible(page)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        // One heading, the report's own; no name begins a line of its own.
        #expect(lines.filter { $0.hasPrefix("#") }.map(String.init) == [#"### changeset: `old\u000A# o.csv` → `new\u001B.csv`"#], "\(page)")
        for line in lines {
            let outside = Self.outsideCodeSpans(line)
            for markup in ["![", "](", "<", "http", "All checks passed", "Removed"] {
                #expect(!outside.contains(markup), "\(markup) outside a code span: \(line)")
            }
        }
        // Each table row has as many cell borders as its table's header: no name adds a cell.
        var borders: Int?
        for line in lines {
            guard line.hasPrefix("|") else { borders = nil; continue }
            let count = zip(line, line.dropFirst()).filter { $0.1 == "|" && $0.0 != "\\" }.count + 1
            if let borders { #expect(count == borders, "\(line)") } else { borders = count }
        }
        for expected in [
            "- added `new\\u001B[2J<img src=x onerror=alert(1)>` (1 record with a value)",
            "- removed `gone\\u000D\\u000A## Removed` (1 record had a value)",
            "- renamed `old\\u0007` → `csi\\u009B31m`",
            "- looks renamed: `gone\\u000D\\u000A## Removed` → `new\\u001B[2J<img src=x onerror=alert(1)>` (1 of 1 values equal); "
                // The hint is an option that runs: invisible characters as $'\\xHH', an `=` in a name as `\\=`.
                + "`--rename $'gone\\x0D\\x0A## Removed=new\\x1B[2J<img src\\\\=x onerror\\\\=alert(1)>'` compares them as one field",
            "- added `bidi\\u202Etxt`, ignored (`--ignore`/`--only`)",
            "- removed `nul\\u0000`, ignored (`--ignore`/`--only`)",
            "| `\(Self.shown)` | 2 |",
            "- `\(Self.shown)`: `\"a\"` → `\"b\"` (2)",
            "| `sec\\u001B[0m\\u000A# h` | 1 |",
            #"| `9\u001B[2J\u000A# id` | `sec\u001B[0m\u000A# h/0` | 3 | `{"note\n# All checks passed\n![x](http://evil/x.png)\u001b]0;pwned\u0007":"d"}` |"#,
            "| `2` (`ctx\\u000A# c: \"v\"`) | 4 | `\(Self.shown)` | `\"a\"` | `\"b\"` |",
        ] {
            #expect(lines.contains(Substring(expected)), "missing: \(expected)\n\(page)")
        }
    }

    /// The code span keeps a name as it is: `|` does not end a table cell
    /// (and shows no backslash outside a table), backticks do not end the
    /// span, and spaces at both ends are not dropped.
    @Test func markdownCodeSpansKeepPipesBackticksAndEndSpacesInView() throws {
        var summary = Summary()
        summary.inserted = 1
        summary.schema = 2
        summary.fieldCounts = [FieldCount(path: FieldPath(["a|b"]), records: 1)]
        let report = Report(
            old: InputSummary(name: "o|ld.json", format: .json, records: 0), new: InputSummary(name: "new.json", format: .json, records: 1),
            id: [FieldPath(["id"])], summary: summary,
            schema: SchemaChanges(added: [SchemaField(path: FieldPath(["a|b"]), records: 1), SchemaField(path: FieldPath(["`tick``"]), records: 1)]),
            changes: ChangeStream([Change(kind: .inserted, id: [" a "], new: RecordPlace(index: 0, line: 2), record: .object([]))]))
        let lines = try Self.written(MarkdownFormatter(), report).split(separator: "\n").map(String.init)
        #expect(lines[0] == "### changeset: `o|ld.json` → `new.json`")
        #expect(lines.contains("- added `a|b` (1 record with a value)"))
        #expect(lines.contains("- added ``` `tick`` ``` (1 record with a value)"))
        #expect(lines.contains(#"| `a\|b` | 1 |"#))
        #expect(lines.contains("| `  a  ` | `0` | 2 | `{}` |"), "\(lines)")
    }

    @Test func textEscapesControlCharactersInEveryName() throws {
        let text = try Self.written(TextFormatter())
        Self.expectEveryLineVisible(text)
        let lines = text.split(separator: "\n").map(String.init)
        for expected in [
            #"schema: added new\u001B[2J<img src=x onerror=alert(1)> (1 record); removed gone\u000D\u000A## Removed (1 record)"#,
            #"schema, ignored: added bidi\u202Etxt (1 record); removed nul\u0000 (1 record)"#,
            #"renamed: old\u0007 -> csi\u009B31m"#,
            "fields: \(Self.shown) 2, price 1",
            "  \(Self.shown): \"a\" -> \"b\" (2)",
            #"section inserted sec\u001B[0m\u000A# h at 1"#,
            #"inserted id 9\u001B[2J\u000A# id  at sec\u001B[0m\u000A# h/0, line 3"#,
            #"updated  id 2  sec\u001B[0m\u000A# h/0 -> sec\u001B[0m\u000A# h/1, lines 2 -> 4  ctx\u000A# c: "v""#,
            "  \(Self.shown): \"a\" -> \"b\"",
        ] {
            #expect(lines.contains(expected), "missing: \(expected)\n\(text)")
        }
    }

    /// Control characters are not allowed in XML: the inline SVG's
    /// `<title>` carried them raw and the chart was no longer well formed.
    @Test func htmlEscapesControlCharactersInEveryNameTheSVGTitleIncluded() throws {
        let page = try Self.written(HTMLFormatter())
        Self.expectEveryLineVisible(page)
        #expect(!page.contains("<img"))
        for expected in [
            #"<title>changeset: old\u000A# o.csv → new\u001B.csv</title>"#,
            #"<p class="files"><code>old\u000A# o.csv</code> (1 records, csv) → <code>new\u001B.csv</code> (2 records, csv), matched by <code>id\u000A# i</code></p>"#,
            #"<li class="added">added <code>new\u001B[2J&lt;img src=x onerror=alert(1)&gt;</code> (1 records with a value)</li>"#,
            #"<li class="removed">removed <code>gone\u000D\u000A## Removed</code> (1 records had a value)</li>"#,
            #"<li class="renamed">renamed <code>old\u0007</code> → <code>csi\u009B31m</code></li>"#,
            #"<li class="ignored">removed <code>nul\u0000</code>, ignored (--ignore/--only)</li>"#,
            "<g class=\"bar\"><title>\(Self.shown): 2</title>",
            "<li><code>\(Self.shown)</code>: &quot;a&quot; -&gt; &quot;b&quot; (2)</li>",
            #"data-id="9\u001B[2J\u000A# id""#,
            "<tr><th>\(Self.shown)</th>",
            #"<span class="show">ctx\u000A# c: &quot;v&quot;</span>"#,
        ] {
            #expect(page.contains(expected), "missing: \(expected)")
        }
    }
}
