import Foundation
import Testing

/// The two review reports: markdown for a pull request or a job summary,
/// html checked in a real browser.
@Suite struct ReportTests {
    static let countries = ReviewTests.countries

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
            _ = try changeset(arguments + ["--format", "html", "-o", page.path])
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
        _ = try changeset(Self.countries + ["--format", "html", "-o", page.path])
        let updated = try chromiumDOM(page, fragment: "kind=updated")
        #expect(updated.contains("<p id=\"shown\" data-total=\"6\">4 of 6 changes shown</p>"), "\(updated)")
        let search = try chromiumDOM(page, fragment: "q=ag")
        #expect(search.contains("<p id=\"shown\" data-total=\"6\">1 of 6 changes shown</p>"), "\(search)")
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
