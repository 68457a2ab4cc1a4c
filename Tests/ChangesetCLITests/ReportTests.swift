import Foundation
import Testing

/// The two review reports: markdown for a pull request or a job summary,
/// and html, against their golden files.
@Suite struct ReportTests {
    static let countries = SchemaChangeTests.countries

    @Test func markdownGolden() throws {
        let result = try changeset(Self.countries + ["--format", "markdown"])
        #expect(result.status == 1 && result.stderr.isEmpty, "\(result)")
        try expectGolden(result.stdout, "countries.md")
        let sections = try changeset(FormatTests.catalog + ["--section", "category", "--format", "markdown"])
        try expectGolden(sections.stdout, "catalog-sections.md")
    }

    @Test func htmlGolden() throws {
        let result = try changeset(Self.countries + ["--format", "html"])
        #expect(result.status == 1 && result.stderr.isEmpty, "\(result)")
        try expectGolden(result.stdout, "countries.html")
        // Self-contained: nothing is fetched from anywhere.
        for reference in ["src=", "href=", "@import", "url("] {
            #expect(!result.stdout.contains(reference), "the page refers to something outside it: \(reference)")
        }
    }
}

/// The review reports checked in a real browser (headless chromium): what
/// the html page shows, its filters, and hostile names kept as text.
@Suite(.tags(.slow, .browser)) struct BrowserReportTests {
    static let countries = SchemaChangeTests.countries

    /// A big delta: every kind capped with "and N more", and the whole text
    /// never over GitHub's 65,536 characters.
    @Test func markdownIsCappedAndStaysUnderTheLimit() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let count = 3000
        let old = (0..<count).map { #"{"id":\#($0),"v":"\#(String(repeating: "a", count: 60))\#($0)","w":\#($0)}"# }
        let new = (0..<count).map { #"{"id":\#($0),"v":"\#(String(repeating: "a", count: 60))x\#($0)","w":\#($0 + 1)}"# }
        try ("[" + old.joined(separator: ",\n") + "]").write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try ("[" + new.joined(separator: ",\n") + "]").write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let capped = try changeset(["old.json", "new.json", "--id", "id", "--format", "markdown"], in: scratch)
        #expect(capped.stdout.contains("\n…and 2950 more updated\n"), "\(capped.stdout.suffix(300))")
        let limited = try changeset(["old.json", "new.json", "--id", "id", "--format", "markdown", "--limit", "5"], in: scratch)
        #expect(limited.stdout.components(separatedBy: "\n| `").count - 1 == 5 + 2, "\(limited.stdout)")
        #expect(limited.stdout.contains("\n…and 2995 more updated\n"))
        let unlimited = try changeset(["old.json", "new.json", "--id", "id", "--format", "markdown", "--limit", "0"], in: scratch)
        #expect(unlimited.stdout.utf8.count <= 65_536 && unlimited.stdout.count > 60_000, "\(unlimited.stdout.utf8.count)")
        #expect(unlimited.stdout.hasSuffix("`changeset --format json` carries every change, and `--format html --limit 0` shows every one.\n"))
        let html = try changeset(["old.json", "new.json", "--id", "id", "--format", "html", "--limit", "100"], in: scratch)
        #expect(html.stdout.components(separatedBy: "<tr class=\"change ").count - 1 == 100)
        #expect(html.stdout.contains("2900 more updated not shown"), "\(html.stdout.suffix(500))")
        #expect(html.stdout.contains("<p id=\"total\" class=\"cut\">100 of 3,000 changes are on this page (at most 100 of each kind); <code>--limit 0</code> puts every change on it.</p>"), "\(html.stdout.prefix(3000))")
        // In the browser: the count says the page is not the whole, and a search for a change left off says where it went.
        let page = scratch.appendingPathComponent("cut.html")
        try html.stdout.write(to: page, atomically: true, encoding: .utf8)
        let dom = try chromiumDOM(page)
        #expect(dom.contains("<p id=\"shown\" data-total=\"3000\">100 of the 100 changes on this page shown; 2900 more are not on the page (--limit 0 puts every change on it)</p>"), "\(dom.prefix(4000))")
        let missing = try chromiumDOM(page, fragment: "q=2999")
        #expect(missing.contains("0 of the 100 changes on this page shown; 2900 more are not on the page (--limit 0 puts every change on it), and what you search for may be among them</p>"), "\(missing.prefix(4000))")
        let whole = try changeset(["old.json", "new.json", "--id", "id", "--format", "html", "--limit", "0"], in: scratch)
        #expect(whole.stdout.contains("<p id=\"total\">All 3,000 changes are on this page.</p>"))
        let wrongFormat = try changeset(["old.json", "new.json", "--id", "id", "--limit", "5", "--format", "ndjson"], in: scratch)
        #expect(wrongFormat.status == 2 && wrongFormat.stderr.contains("--limit caps the text, markdown and html reports"), "\(wrongFormat)")
    }

    /// Opens the report in headless Chromium and reads back what the page
    /// shows after its script ran: the counts agree with the json summary,
    /// every change is a row, and the filters work.
    @Test func theBrowserShowsWhatTheSummarySays() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let page = scratch.appendingPathComponent("report.html")
        for arguments in [Self.countries, FormatTests.catalog + ["--section", "category"]] {
            let written = try changeset(arguments + ["--format", "html", "-o", page.path])
            #expect(written.status == 1 && written.stdout.isEmpty && written.stderr.isEmpty, "\(written)")
            let json = try changeset(arguments + ["--format", "json"])
            let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
            let counts = summary["summary"] as! [String: Any]
            let changes = (summary["changes"] as! [[String: Any]])
            let dom = try chromiumDOM(page)
            for kind in ["inserted", "deleted", "updated", "moved", "unchanged"] {
                #expect(dom.contains("id=\"count-\(kind)\">\(counts[kind] as! Int)</span>"), "\(kind) in \(dom.prefix(2000))")
            }
            #expect(dom.contains("<p id=\"shown\" data-total=\"\(changes.count)\">\(changes.count) of \(changes.count) changes shown</p>"), "\(dom)")
            // The form the script reveals is there and no row is hidden.
            #expect(dom.contains("<form id=\"controls\">") && !dom.contains("<tr hidden"), "\(dom)")
        }
        let countriesPage = try changeset(Self.countries + ["--format", "html", "-o", page.path])
        #expect(countriesPage.status == 1 && countriesPage.stderr.isEmpty, "\(countriesPage)")
        let updated = try chromiumDOM(page, fragment: "kind=updated")
        // (`180` -> `180.0` is an update: between two CSV files a cell's text is its value.)
        #expect(updated.contains("<p id=\"shown\" data-total=\"7\">5 of 7 changes shown</p>"), "\(updated)")
        let search = try chromiumDOM(page, fragment: "q=ag")
        #expect(search.contains("<p id=\"shown\" data-total=\"7\">1 of 7 changes shown</p>"), "\(search)")
    }

    /// Review finding: column names were written raw in the markdown report
    /// (Schema, Changed fields, Common changes, "looks renamed"), so a
    /// header cell with line breaks added a heading "All checks passed" and
    /// an image from another host to a pull request's summary; the SVG
    /// `<title>` of the html report carried control characters, which XML
    /// does not allow. Each report shows such a name escaped, on its line.
    @Test func hostileColumnNamesStayTextInTheMarkdownTextAndHTMLReports() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let name = "note\n# All checks passed\n![x](http://evil/x.png)\u{1B}]0;pwned\u{07}"
        let shown = #"note\u000A# All checks passed\u000A![x](http://evil/x\.png)\u001B]0;pwned\u0007"#
        let added = "new<img src=x onerror=alert(1)>\u{1B}[31m"
        try "id,price,\"\(name)\",gone\n1,10,a,x\n2,20,a,y\n3,5,c,z\n"
            .write(to: scratch.appendingPathComponent("old.csv"), atomically: true, encoding: .utf8)
        try "id,price,\"\(name)\",\"\(added)\"\n1,11,b,x\n2,20,b,y\n3,5,c,z\n4,1,d,w\n"
            .write(to: scratch.appendingPathComponent("new.csv"), atomically: true, encoding: .utf8)
        func report(_ format: String) throws -> String {
            let result = try changeset(["old.csv", "new.csv", "--id", "id", "--format", format], in: scratch)
            #expect(result.status == 1 && result.stderr.isEmpty, "\(result)")
            // No control character but the line feeds: no ESC for a terminal, none for an XML parser.
            #expect(!result.stdout.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }, "\(result)")
            return result.stdout
        }

        let markdown = try report("markdown")
        let lines = markdown.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("#") } == ["### changeset: `old.csv` → `new.csv`"], "\(markdown)")
        // The image is inside a code span, after the escaped line break, never where markdown would show it.
        for line in lines where line.contains("![x]") {
            #expect(line.contains(#"\u000A![x]"#) || line.contains(#"\n![x]"#), "\(line)")
        }
        for expected in [
            "- added `new<img src=x onerror=alert(1)>\\u001B[31m` (4 records with a value)",
            "- looks renamed: `gone` → `new<img src=x onerror=alert(1)>\\u001B[31m` (3 of 3 values equal); "
                // The hint runs when pasted: the ESC as $'\\x1B', each `=` in the name as `\\=`.
                + "`--rename $'gone=new<img src\\\\=x onerror\\\\=alert(1)>\\x1B[31m'` compares them as one field",
            "| `\(shown)` | 2 |",
            "- `\(shown)`: `\"a\"` → `\"b\"` (2)",
            "| `2` | 5 | `\(shown)` | `\"a\"` | `\"b\"` |",
        ] {
            #expect(lines.contains(expected), "missing: \(expected)\n\(markdown)")
        }

        let text = try report("text")
        for expected in ["fields: \(shown) 2, price 1", "  \(shown): \"a\" -> \"b\" (2)", "  \(shown): \"a\" -> \"b\"",
                         #"looks renamed: gone -> new<img src=x onerror=alert(1)>\u001B[31m (3 of 3 values equal); --rename $'gone=new<img src\\=x onerror\\=alert(1)>\x1B[31m' compares them as one field"#] {
            #expect(text.split(separator: "\n").contains(Substring(expected)), "missing: \(expected)\n\(text)")
        }

        let html = try report("html")
        #expect(html.contains("<g class=\"bar\"><title>\(shown): 2</title>"), "\(html)")
        #expect(html.contains("<th>\(shown)</th>") && html.contains("<li><code>\(shown)</code>: &quot;a&quot; -&gt; &quot;b&quot; (2)</li>"))
        #expect(html.contains(#"added <code>new&lt;img src=x onerror=alert(1)&gt;\u001B[31m</code>"#) && !html.contains("<img"), "\(html)")
        // In the browser the name is text: no image element, the filters there.
        let page = scratch.appendingPathComponent("report.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let dom = try chromiumDOM(page)
        #expect(!dom.contains("<img") && dom.contains("&lt;img src=x onerror=alert(1)&gt;"), "\(dom)")
        #expect(dom.contains("<p id=\"shown\" data-total=\"3\">3 of 3 changes shown</p>"), "\(dom)")
    }

    /// Review finding: `#q=%` made `decodeURIComponent` throw, and the
    /// filter controls never appeared. A malformed part of the address is
    /// taken as it is written; a well-formed one is still decoded.
    @Test func aMalformedAddressFragmentIsTakenAsTextAndTheFiltersStillAppear() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try "id,v\n50%,1\n7,1\n8,1\n".write(to: scratch.appendingPathComponent("old.csv"), atomically: true, encoding: .utf8)
        try "id,v\n50%,2\n7,2\n8,1\n".write(to: scratch.appendingPathComponent("new.csv"), atomically: true, encoding: .utf8)
        let page = scratch.appendingPathComponent("report.html")
        let result = try changeset(["old.csv", "new.csv", "--id", "id", "--format", "html", "-o", page.path], in: scratch)
        #expect(result.status == 1, "\(result)")
        for (fragment, shown) in [("q=%", 1), ("q=50%25", 1), ("kind=updated&q=%E0%A4%A", 0), ("q=%&kind=updated", 1)] {
            let dom = try chromiumDOM(page, fragment: fragment)
            #expect(dom.contains("<form id=\"controls\">"), "#\(fragment): the filters are hidden\n\(dom)")
            #expect(dom.contains("<p id=\"shown\" data-total=\"2\">\(shown) of 2 changes shown</p>"), "#\(fragment)\n\(dom)")
        }
    }

    func chromiumDOM(_ page: URL, fragment: String = "") throws -> String {
        let chromium = URL(fileURLWithPath: "/usr/bin/chromium")
        #expect(FileManager.default.isExecutableFile(atPath: chromium.path), "chromium is missing: run scripts/install-deps")
        let address = page.absoluteString + (fragment.isEmpty ? "" : "#" + fragment)
        let result = try runProcess(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", address],
                                    in: page.deletingLastPathComponent())
        #expect(result.status == 0, "\(result)")
        return result.stdout
    }
}

extension ReportTests {
    @Test func markdownCodeSpansSurviveRunsOfBackticks() throws {
        let directory = try scratchDirectory(holding: ["h1.json": #"[{"id":1,"v":"a|b`c``d"}]"#, "h2.json": #"[{"id":1,"v":"e"}]"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try changeset(["h1.json", "h2.json", "--id", "id", "--format", "markdown"], in: directory)
        #expect(result.stdout.contains(#"| `1` | 1 | `v` | ``` "a\|b`c``d" ``` | `"e"` |"#), "\(result)")
    }
}
