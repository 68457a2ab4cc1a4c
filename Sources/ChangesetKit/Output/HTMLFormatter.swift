/// The `html` format: one self-contained page to review a change (no
/// network, no external file; the style and a little plain JavaScript are
/// inline). It shows the inputs and the counts, the schema changes, what
/// changed in the files apart from their records (line endings, byte order
/// mark, final newline, column order), the per-field counts as an inline SVG
/// bar chart, and every change in one table: old and new values side by side, the part of a value that changed
/// marked (`<del>`, `<ins>`).
///
/// Without JavaScript everything is shown. With it, a bar of check boxes
/// filters the table by kind and a search box by id; the page's address may
/// preset them (`report.html#kind=updated&q=AF`). Each kind lists at most
/// `limit` changes, and the page says how many it left out.
///
/// Elements a test or a script can rely on: `#count-KIND` holds each count
/// (`inserted`, `deleted`, `updated`, `moved`, `unchanged`), every change is
/// a `tr.change` with `data-kind` and `data-id`, and `#shown` says how many
/// rows the filters show (`12 of 12 changes shown`).
///
/// Text from the data (names, ids, values, file names) goes through
/// `escape`: entities, and invisible characters written as escapes.
package struct HTMLFormatter: ReportFormatter {
    package var limit: Int
    package var width: Int
    package static let defaultLimit = 1000
    package static let defaultWidth = 200

    /// `limit` changes of each kind at most, values cut to `width` characters (nil: the defaults, 1000 and 200).
    package init(limit: Int? = nil, width: Int? = nil) {
        self.limit = limit ?? Self.defaultLimit
        self.width = ReportValueText.bounded(width ?? Self.defaultWidth)
    }

    package var showsEveryChange: Bool { false }

    /// The per-kind limit's count, and the kinds it cut with how many.
    package struct Progress {
        var cap: PerKindLimit
        var cuts: [(kind: Change.Kind, count: Int)] = []
    }

    package func begin(_ report: Report, to output: inout some TextOutputStream) -> Progress {
        let summary = report.summary
        let title = "changeset: \(report.old.name) → \(report.new.name)"
        output.write("""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLFormatter.escape(title))</title>
            <style>\(HTMLFormatter.style)</style>
            </head>
            <body>
            <header>
            <h1>changeset</h1>
            <p class="files"><code>\(HTMLFormatter.escape(report.old.name))</code> (\(report.old.records) records, \(report.old.format.rawValue)) → <code>\(HTMLFormatter.escape(report.new.name))</code> (\(report.new.records) records, \(report.new.format.rawValue))\(report.id.isEmpty ? ", records matched by content" : ", matched by <code>" + HTMLFormatter.escape(report.id.map(\.description).joined(separator: ",")) + "</code>")</p>
            </header>
            <main>
            <section id="summary">
            <h2>Summary</h2>
            <div class="counts">

            """)
        var counts = [("inserted", summary.inserted), ("deleted", summary.deleted), ("updated", summary.updated),
                      ("moved", summary.moved), ("unchanged", summary.unchanged)]
        if report.sectioned {
            counts += [("sections-inserted", summary.sectionsInserted), ("sections-deleted", summary.sectionsDeleted),
                       ("sections-moved", summary.sectionsMoved)]
        }
        for (name, count) in counts {
            output.write("<div class=\"count \(name)\"><span class=\"number\" id=\"count-\(name)\">\(count)</span> <span class=\"label\">\(name.replacingOccurrences(of: "-", with: " "))</span></div>\n")
        }
        output.write("</div>\n</section>\n")
        if report.schema.isWorthListing {
            output.write("<section id=\"schema\">\n<h2>Schema</h2>\n<ul>\n")
            for field in report.schema.added {
                output.write("<li class=\"added\">added <code>\(HTMLFormatter.escape(field.path.description))</code> (\(field.records) records with a value)</li>\n")
            }
            for field in report.schema.removed {
                output.write("<li class=\"removed\">removed <code>\(HTMLFormatter.escape(field.path.description))</code> (\(field.records) records had a value)</li>\n")
            }
            for rename in report.schema.renamed {
                output.write("<li class=\"renamed\">renamed <code>\(HTMLFormatter.escape(rename.old.description))</code> → <code>\(HTMLFormatter.escape(rename.new.description))</code></li>\n")
            }
            for suggestion in report.schema.suggestedRenames {
                output.write("<li class=\"suggested\">\(HTMLFormatter.escape(suggestion.sentence))</li>\n")
            }
            for (verb, fields) in [("added", report.schema.ignoredAdded), ("removed", report.schema.ignoredRemoved)] {
                for field in fields {
                    output.write("<li class=\"ignored\">\(verb) <code>\(HTMLFormatter.escape(field.path.description))</code>, ignored (--ignore/--only)</li>\n")
                }
            }
            output.write("</ul>\n</section>\n")
        }
        if !report.layout.isEmpty {
            output.write("<section id=\"file\">\n<h2>File</h2>\n<ul>\n")
            for entry in report.layout.plainEntries(arrow: "→") {
                output.write("<li>\(entry.label): \(HTMLFormatter.escape(entry.text))</li>\n")
            }
            if let order = report.layout.columnOrder {
                func names(_ names: [String]) -> String { names.map { "<code>\(HTMLFormatter.escape($0))</code>" }.joined(separator: ", ") }
                output.write("<li>column order: \(names(order.old)) → \(names(order.new)) (\(order.movedText))</li>\n")
            }
            output.write("</ul>\n</section>\n")
        }
        if !summary.fieldCounts.isEmpty {
            output.write("<section id=\"fields\">\n<h2>Changed fields</h2>\n")
            output.write(HTMLFormatter.chart(Array(summary.fieldCounts.prefix(limit))))
            if summary.fieldCounts.count > limit {
                output.write("<p class=\"cut\">The chart shows the first \(limit) of \(summary.fieldCounts.count) fields.</p>\n")
            }
            if let note = summary.typeOnlyNote(example: { $0 }) { output.write("<p class=\"cut\" id=\"type-only\">\(HTMLFormatter.escape(note))</p>\n") }
            if let note = summary.respelledNumberNote(example: { $0 }) {
                output.write("<p class=\"cut\" id=\"respelled-numbers\">\(HTMLFormatter.escape(note))</p>\n")
            }
            if let note = summary.keyedArraysNote() { output.write("<p class=\"cut\" id=\"keyed-arrays\">\(HTMLFormatter.escape(note))</p>\n") }
            for note in summary.typeOnlyFieldNotes(limit: TransitionText.fieldLimit, name: { $0 }, example: { $0 }) {
                output.write("<p class=\"cut type-only-field\">\(HTMLFormatter.escape(note))</p>\n")
            }
            if !summary.transitions.isEmpty {
                output.write("<h3>Common changes</h3>\n<ul id=\"transitions\">\n")
                for field in summary.transitions.prefix(TransitionText.fieldLimit) {
                    output.write("<li><code>\(HTMLFormatter.escape(field.label))</code>: \(HTMLFormatter.escape(TransitionText.line(field, width: 60)))</li>\n")
                }
                output.write("</ul>\n")
            }
            output.write("</section>\n")
        }
        if let note = summary.rekeyedNote(id: { $0 }) { output.write("<p class=\"cut\" id=\"rekeyed\">\(HTMLFormatter.escape(note))</p>\n") }
        output.write("""
            <section id="changes">
            <h2>Changes</h2>
            <form id="controls" hidden>
            \(((report.sectioned ? ["section-deleted", "section-inserted", "section-moved"] : []) + ["deleted", "inserted", "moved", "updated"])
                .map { "<label><input type=\"checkbox\" name=\"kind\" value=\"\($0)\" checked> \($0.replacingOccurrences(of: "-", with: " "))</label>" }
                .joined(separator: "\n"))
            <label>id <input type="search" id="search" placeholder="search by id"></label>
            </form>
            \(HTMLFormatter.pageCountLine(report.summary, limit: limit, kinds: report.kindsShown))
            <p id="shown" data-total="\(HTMLFormatter.changeCount(report.summary, kinds: report.kindsShown))"></p>
            <table id="change-table">
            <thead><tr><th>kind</th><th>\(report.id.isEmpty ? "record" : "id")</th><th>old</th><th>new</th><th>what changed</th></tr></thead>
            <tbody>

            """)
        return Progress(cap: PerKindLimit(limit: limit))
    }

    package func render(_ change: Change, in report: Report) -> String {
        row(change, report: report)
    }

    /// Every change of the kinds shown (all kinds, or `--kinds`'s).
    static func changeCount(_ summary: Summary, kinds chosen: [Change.Kind]? = nil) -> Int {
        countsByKind(summary).filter { chosen?.contains($0.kind) ?? true }.reduce(0) { $0 + $1.count }
    }

    static func countsByKind(_ summary: Summary) -> [(kind: Change.Kind, count: Int)] {
        [(.inserted, summary.inserted), (.deleted, summary.deleted), (.updated, summary.updated), (.moved, summary.moved),
         (.sectionInserted, summary.sectionsInserted), (.sectionDeleted, summary.sectionsDeleted), (.sectionMoved, summary.sectionsMoved)]
    }

    /// What the page holds of the changes, said before them, script or no
    /// script: a page cut by the per-kind limit, or by `--kinds`, must not
    /// pass for the whole.
    static func pageCountLine(_ summary: Summary, limit: Int, kinds chosen: [Change.Kind]? = nil) -> String {
        let total = changeCount(summary)
        let shown = countsByKind(summary).filter { chosen?.contains($0.kind) ?? true }
        let onPage = shown.reduce(0) { $0 + min($1.count, limit) }
        let cutByLimit = onPage < shown.reduce(0) { $0 + $1.count }
        guard onPage < total else {
            return "<p id=\"total\">\(total == 1 ? "The one change is" : "All \(grouped(total)) changes are") on this page.</p>"
        }
        var line = "<p id=\"total\" class=\"cut\">\(grouped(onPage)) of \(grouped(total)) changes are on this page"
        if let chosen { line += ": " + escape(Report.kindsNote(chosen)) }
        if cutByLimit {
            line += (chosen == nil ? " " : "; ") + "(at most \(grouped(limit)) of each kind); <code>--limit 0</code> puts every change on it"
        }
        return line + ".</p>"
    }

    /// 8428 as 8,428.
    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    package func write(_ change: Change, rendered: () -> String, in report: Report, progress: inout Progress, to output: inout some TextOutputStream) {
        let step = progress.cap.next(change.kind)
        if let ended = step.ended { progress.cuts.append(ended) }
        if step.show { output.write(rendered()) }
    }

    package func finish(_ report: Report, progress: Progress, to output: inout some TextOutputStream) {
        var cuts = progress.cuts
        var cap = progress.cap
        if let ended = cap.finish() { cuts.append(ended) }
        output.write("</tbody>\n</table>\n")
        for (kind, count) in cuts {
            output.write("<p class=\"cut\">\(count) more \(PerKindLimit.title(kind).lowercased()) not shown: the page lists at most \(limit) of each kind (<code>--limit</code>).</p>\n")
        }
        output.write("</section>\n</main>\n<script>\(HTMLFormatter.script)</script>\n</body>\n</html>\n")
    }

    private func row(_ change: Change, report: Report) -> String {
        let sectioned = report.sectioned
        func place(_ place: RecordPlace?) -> String {
            guard let place else { return "" }
            if change.kind.isSectionChange { return "\(place.index)" }
            let line = place.line.map { "<span class=\"line\">line \($0)</span>" } ?? ""
            return HTMLFormatter.escape(ReportValueText.place(place, sectioned: sectioned)) + " " + line
        }
        let id: String
        if change.kind.isSectionChange {
            id = ReportValueText.section(change.section)
        } else {
            id = change.id.map(ReportValueText.id) ?? change.record.map { ReportValueText.shownValue($0, width: 60) } ?? ""
        }
        var details = ""
        switch change.kind {
        case .deleted, .inserted, .moved:
            if let record = change.record {
                details = "<code class=\"record\">\(HTMLFormatter.escape(ReportValueText.shownValue(record, width: width * 2)))</code>"
            }
        case .updated:
            details = "<table class=\"fields\">"
            for run in FieldChange.runs(change.fields) {
                let field = run.first!
                if field.isElementInsertedOrDeleted {
                    // Array elements inserted or deleted: the side that has none is left empty.
                    let (label, values) = ReportValueText.elementRun(run, width: width)
                    let deleted = field.new == nil
                    details += "<tr><th>\(HTMLFormatter.escape(label))</th>"
                        + "<td class=\"old\">\(deleted ? "<code>\(HTMLFormatter.escape(values))</code>" : "")</td>"
                        + "<td class=\"new\">\(deleted ? "" : "<code>\(HTMLFormatter.escape(values))</code>")</td></tr>"
                    continue
                }
                let (old, new) = ReportValueText.shownPair(field.old, field.new, width: width)
                let (oldMarked, newMarked) = HTMLFormatter.marked(old, new)
                details += "<tr><th>\(HTMLFormatter.escape(field.location))</th><td class=\"old\"><code>\(oldMarked)</code></td><td class=\"new\"><code>\(newMarked)</code></td></tr>"
            }
            details += "</table>"
        case .sectionDeleted, .sectionInserted, .sectionMoved:
            break
        }
        return "<tr class=\"change \(change.kind.rawValue)\" data-kind=\"\(change.kind.rawValue)\" data-id=\"\(HTMLFormatter.escape(id))\">"
            + "<td class=\"kind\">\(change.kind.rawValue.replacingOccurrences(of: "-", with: " "))</td>"
            + "<td class=\"id\"><code>\(HTMLFormatter.escape(id))</code>"
            + (change.context.isEmpty ? "" : "<br><span class=\"show\">\(HTMLFormatter.escape(TransitionText.context(change, width: width)))</span>") + "</td>"
            + "<td>\(place(change.old))</td><td>\(place(change.new))</td><td>\(details)</td></tr>\n"
    }

    /// Both texts escaped, with the part between their common prefix and
    /// common suffix marked as deleted (old) and inserted (new).
    static func marked(_ old: String, _ new: String) -> (String, String) {
        let a = Array(old), b = Array(new)
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        func mark(_ characters: [Character], _ tag: String) -> String {
            let head = escape(String(characters[..<prefix]))
            let middle = escape(String(characters[prefix..<(characters.count - suffix)]))
            let tail = escape(String(characters[(characters.count - suffix)...]))
            return head + (middle.isEmpty ? "" : "<\(tag)>\(middle)</\(tag)>") + tail
        }
        return (mark(a, "del"), mark(b, "ins"))
    }

    /// Per-field counts as horizontal bars, in SVG drawn inline.
    static func chart(_ counts: [FieldCount]) -> String {
        let rowHeight = 22
        let labelWidth = 220
        let barWidth = 400
        let height = counts.count * rowHeight + 4
        let largest = max(1, counts.map(\.records).max() ?? 1)
        var svg = "<svg class=\"chart\" role=\"img\" aria-label=\"updated records per changed field\" width=\"\(labelWidth + barWidth + 60)\" height=\"\(height)\" viewBox=\"0 0 \(labelWidth + barWidth + 60) \(height)\" xmlns=\"http://www.w3.org/2000/svg\">\n"
        for (index, count) in counts.enumerated() {
            let y = index * rowHeight + 2
            let width = max(2, count.records * barWidth / largest)
            let label = escape(ReportValueText.cut(ReportValueText.visible(count.path.description), width: 30))
            svg += "<g class=\"bar\"><title>\(escape(count.path.description)): \(count.records)</title>"
                + "<text x=\"\(labelWidth - 6)\" y=\"\(y + 15)\" text-anchor=\"end\">\(label)</text>"
                + "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(width)\" height=\"\(rowHeight - 6)\"></rect>"
                + "<text x=\"\(labelWidth + width + 6)\" y=\"\(y + 15)\">\(count.records)</text></g>\n"
        }
        return svg + "</svg>\n"
    }

    /// Text from the data (a name, an id, a value, a file name, a note that
    /// quotes one) as HTML text or an attribute's value: the one rule of
    /// this format. Invisible characters become escapes (`\u001B`) first, as
    /// the text report shows them: a control character would not be seen on
    /// the page, and is not allowed in XML (the inline SVG's `<title>`).
    static func escape(_ text: String) -> String {
        let text = TerminalText.escaped(text)
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }

    static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fff}
        header,main{max-width:1200px;margin:0 auto;padding:0 16px}
        h1{font-size:22px;margin:16px 0 4px}h2{font-size:17px;margin:20px 0 8px}
        code{font:12.5px ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap;word-break:break-all}
        .counts{display:flex;flex-wrap:wrap;gap:8px}
        .count{border:1px solid #d0d7de;border-radius:6px;padding:6px 12px;min-width:90px}
        .count .number{display:block;font-size:22px;font-weight:600}
        .inserted .number,li.added{color:#1a7f37}.deleted .number,li.removed{color:#cf222e}
        .updated .number{color:#9a6700}.moved .number{color:#0969da}
        .chart rect{fill:#9a6700}.chart text{font-size:12px;fill:#1f2328}
        form{display:flex;flex-wrap:wrap;gap:12px;margin:8px 0;align-items:center}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:4px 6px}
        #change-table>tbody>tr{border-top:1px solid #d0d7de}
        #change-table>thead th{border-bottom:2px solid #d0d7de}
        td.kind{white-space:nowrap;font-weight:600}td.id code{word-break:normal;white-space:nowrap}
        tr.inserted td.kind{color:#1a7f37}tr.deleted td.kind{color:#cf222e}tr.updated td.kind{color:#9a6700}tr.moved td.kind{color:#0969da}
        .line{color:#656d76;font-size:12px;white-space:nowrap}
        table.fields th{font-weight:500;width:20%}table.fields td{width:40%}
        td.old{background:#fff5f5}td.new{background:#f3fff5}
        del{background:#ffc1c0;text-decoration:none}ins{background:#acf2bd;text-decoration:none}
        .cut{color:#9a6700}
        """

    static let script = """
        (function () {
          var form = document.getElementById('controls');
          var search = document.getElementById('search');
          var shown = document.getElementById('shown');
          var total = parseInt(shown.getAttribute('data-total'), 10) || 0;
          var boxes = Array.prototype.slice.call(form.querySelectorAll('input[name=kind]'));
          var rows = Array.prototype.slice.call(document.querySelectorAll('tr.change'));
          function apply() {
            var kinds = {};
            boxes.forEach(function (box) { kinds[box.value] = box.checked; });
            var query = search.value.trim().toLowerCase();
            var count = 0;
            rows.forEach(function (row) {
              var visible = kinds[row.getAttribute('data-kind')] !== false
                && (query === '' || row.getAttribute('data-id').toLowerCase().indexOf(query) >= 0);
              row.hidden = !visible;
              if (visible) { count += 1; }
            });
            var text = count + ' of ' + rows.length + ' changes shown';
            if (total > rows.length) {
              // The per-kind limit left changes off the page: say so, above all when a search finds nothing.
              text = count + ' of the ' + rows.length + ' changes on this page shown; ' + (total - rows.length)
                + ' more are not on the page (--limit 0 puts every change on it)';
              if (count === 0 && query !== '') { text += ', and what you search for may be among them'; }
            }
            shown.textContent = text;
          }
          // A malformed escape (#q=%) makes decodeURIComponent throw: such a part is taken as it is written.
          function decoded(text) {
            try { return decodeURIComponent(text); } catch (error) { return text; }
          }
          // The address may preset the filters: #kind=updated,moved&q=AF
          var preset = {};
          location.hash.replace(/^#/, '').split('&').forEach(function (part) {
            var pair = part.split('=');
            if (pair.length === 2) { preset[pair[0]] = decoded(pair[1]); }
          });
          if (preset.kind) {
            var wanted = preset.kind.split(',');
            boxes.forEach(function (box) { box.checked = wanted.indexOf(box.value) >= 0; });
          }
          if (preset.q) { search.value = preset.q; }
          form.hidden = false;
          form.addEventListener('input', apply);
          form.addEventListener('submit', function (event) { event.preventDefault(); });
          apply();
        })();
        """
}
