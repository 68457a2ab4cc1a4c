import ChangesetKit
import Foundation
import Testing

/// Formatters are functions from a report to text: tested here on reports
/// built in memory, with no file anywhere.
@Suite struct FormatterTests {
    static func report(sectioned: Bool = false, schema: SchemaChanges = SchemaChanges()) -> Report {
        var summary = Summary()
        summary.inserted = 1
        summary.deleted = 1
        summary.updated = 1
        summary.moved = 1
        summary.changed = 4
        summary.unchanged = 2
        summary.oldCount = 4
        summary.newCount = 4
        summary.schema = schema.count
        summary.fieldCounts = [FieldCount(path: FieldPath(["price"]), records: 1)]
        let section: String? = sectioned ? "fruit" : nil
        let changes = [
            Change(kind: .deleted, id: ["3"], old: RecordPlace(section: section, index: 2, line: 4),
                   record: .object([.init(name: "id", value: .number("3")), .init(name: "name", value: .string("Pear\u{200F}"))])),
            Change(kind: .inserted, id: ["9"], new: RecordPlace(section: section, index: 3, line: 5),
                   record: .object([.init(name: "id", value: .number("9"))])),
            Change(kind: .moved, id: ["1"], old: RecordPlace(section: section, index: 0, line: 2), new: RecordPlace(section: section, index: 2, line: 4)),
            Change(kind: .updated, id: ["2"], old: RecordPlace(section: section, index: 1, line: 3), new: RecordPlace(section: section, index: 0, line: 2),
                   fields: [FieldChange(path: FieldPath(["price"]), old: .number("9.99"), new: .number("10.49"))]),
        ]
        return Report(
            old: InputSummary(name: "old.json", format: .json, records: 4), new: InputSummary(name: "new.json", format: .json, records: 4),
            id: [FieldPath(["id"])], section: sectioned ? FieldPath(["kind"]) : nil,
            summary: summary, schema: schema, changes: ChangeStream(changes))
    }

    static func text(_ report: Report, width: Int = TextFormatter.defaultWidth) throws -> String {
        var output = ""
        try TextFormatter(width: width).write(report, to: &output)
        return output
    }

    /// `Report.write` is what a library user has in place of the formatters:
    /// each report format's own text, and a refusal for what it cannot honour.
    @Test func reportWriteGivesEachFormatsTextAndRefusesWhatItCannotHonour() throws {
        let report = Self.report()
        func written(_ settings: OutputSettings) throws -> String {
            var output = ""
            try report.write(settings, to: &output)
            return output
        }
        func direct(_ formatter: some ReportFormatter) throws -> String {
            var output = ""
            try formatter.write(report, to: &output)
            return output
        }
        #expect(try written(OutputSettings(format: .text)) == direct(TextFormatter()))
        #expect(try written(OutputSettings(format: .json)) == direct(JSONFormatter()))
        #expect(try written(OutputSettings(format: .ndjson)) == direct(NDJSONFormatter()))
        #expect(try written(OutputSettings(format: .markdown)) == direct(MarkdownFormatter()))
        #expect(try written(OutputSettings(format: .html)) == direct(HTMLFormatter()))
        #expect(try written(OutputSettings(format: .text, width: 0)) == direct(TextFormatter(width: 0)))
        #expect(try written(OutputSettings(format: .text, countsOnly: true)) == "1 inserted, 1 deleted, 1 updated, 1 moved, 2 unchanged\nfields: price 1\n")
        for refused in [OutputSettings(format: .patch), OutputSettings(format: .jsonpatch), OutputSettings(format: .batch),
                        OutputSettings(format: .text, kinds: [.deleted]), OutputSettings(format: .text, show: [FieldPath(["name"])]),
                        OutputSettings(format: .markdown, countsOnly: true), OutputSettings(format: .html, countsOnly: true)] {
            let error = #expect(throws: (any Error).self, "\(refused.format)") { try written(refused) }
            #expect(error is OptionError || error is OutputSettingsError, "\(refused.format): \(String(describing: error))")
        }
    }

    /// Found by review: widths near `Int.max` overflowed where values are cut.
    @Test func aWidthPastAnyTextShowsValuesWhole() throws {
        for format in [OutputFormat.text, .markdown, .html] {
            var huge = "", whole = ""
            try Self.report().write(OutputSettings(format: format, width: Int.max), to: &huge)
            try Self.report().write(OutputSettings(format: format, width: 0), to: &whole)
            #expect(huge == whole, "\(format)")
        }
        #expect(ReportValueText.shownPair(.string(String(repeating: "é", count: 300)), .string("x"), width: Int.max).0.count == 302)
    }

    @Test func textShowsPlacesLinesContentAndInvisibleCharacters() throws {
        #expect(try Self.text(Self.report()) == """
            1 inserted, 1 deleted, 1 updated, 1 moved, 2 unchanged
            fields: price 1
            deleted  id 3  at 2, line 4
              {"id":3,"name":"Pear\\u200F"}
            inserted id 9  at 3, line 5
              {"id":9}
            moved    id 1  0 -> 2, lines 2 -> 4
            updated  id 2  1 -> 0, lines 3 -> 2
              price: 9.99 -> 10.49

            """)
    }

    /// Colour wraps the summary and each change's label, and nothing else.
    @Test func colouredTextPaintsTheLabelsOnly() throws {
        var output = ""
        try TextFormatter(color: true).write(Self.report(), to: &output)
        let (red, green, yellow, cyan, bold, reset) = ("\u{1B}[31m", "\u{1B}[32m", "\u{1B}[33m", "\u{1B}[36m", "\u{1B}[1m", "\u{1B}[0m")
        #expect(output == """
            \(bold)1 inserted, 1 deleted, 1 updated, 1 moved, 2 unchanged\(reset)
            fields: price 1
            \(red)deleted \(reset) id 3  at 2, line 4
              {"id":3,"name":"Pear\\u200F"}
            \(green)inserted\(reset) id 9  at 3, line 5
              {"id":9}
            \(cyan)moved   \(reset) id 1  0 -> 2, lines 2 -> 4
            \(yellow)updated \(reset) id 2  1 -> 0, lines 3 -> 2
              price: 9.99 -> 10.49

            """)
    }

    /// Places past nine digits, sections and records with no line keep their text.
    @Test func textWritesBigPlacesAndMissingLines() throws {
        var report = Self.report(sectioned: true)
        report.changes = ChangeStream([
            Change(kind: .deleted, id: ["a", "b"], old: RecordPlace(section: nil, index: 1_234_567_890_123, line: nil)),
            Change(kind: .sectionMoved, section: "fruit", old: RecordPlace(index: 0), new: RecordPlace(index: 10)),
            Change(kind: .sectionInserted, section: "nuts", new: RecordPlace(index: 7)),
            Change(kind: .sectionDeleted, section: nil, old: RecordPlace(index: 3)),
            // A table's rows (a Parquet part's, through changeset report) have no lines.
            Change(kind: .updated, id: ["7"], old: RecordPlace(section: "fruit", index: 4), new: RecordPlace(section: "fruit", index: 2),
                   fields: [FieldChange(path: FieldPath(["price"]), old: .number("1"), new: .number("2"))]),
            Change(kind: .moved, id: ["8"], old: RecordPlace(section: "fruit", index: 5, line: 9), new: RecordPlace(section: "fruit", index: 6)),
        ])
        let lines = try Self.text(report).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "deleted  id a,b  at (none)/1234567890123")
        #expect(lines[3] == "section moved    fruit 0 -> 10")
        #expect(lines[4] == "section inserted nuts at 7")
        #expect(lines[5] == "section deleted  (none) at 3")
        #expect(lines[6] == "updated  id 7  fruit/4 -> fruit/2")
        #expect(lines[8] == "moved    id 8  fruit/5 -> fruit/6, lines 9 -> -")
    }

    @Test func textNamesSectionsAndSchemaChanges() throws {
        let schema = SchemaChanges(
            added: [SchemaField(path: FieldPath(["color"]), records: 2)], removed: [SchemaField(path: FieldPath(["fax"]), records: 1)],
            renamed: [Rename(old: FieldPath(["cca3"]), new: FieldPath(["ISO3166-1-Alpha-3"]))])
        let lines = try Self.text(Self.report(sectioned: true, schema: schema)).split(separator: "\n")
        #expect(lines[0] == "1 inserted, 1 deleted, 1 updated, 1 moved, 2 unchanged; sections: 0 inserted, 0 deleted, 0 moved")
        #expect(lines[1] == "schema: added color (2 records); removed fax (1 record)")
        #expect(lines[2] == "renamed: cca3 -> ISO3166-1-Alpha-3")
        #expect(lines[4] == "deleted  id 3  at fruit/2, line 4")
    }

    @Test func recordsMatchedByContentAreShownByContentNeverByAHash() throws {
        let change = Change(kind: .moved, old: RecordPlace(index: 0, line: 2), new: RecordPlace(index: 1, line: 3),
                            record: .object([.init(name: "name", value: .string("Fig"))]))
        var report = Self.report()
        report.id = []
        report.changes = ChangeStream([change])
        let lines = try Self.text(report).split(separator: "\n")
        #expect(lines[2] == "moved    0 -> 1, lines 2 -> 3")
        #expect(lines[3] == #"  {"name":"Fig"}"#)
    }

    @Test func longValuesAreCutAroundTheChange() throws {
        let old = String(repeating: "a", count: 300) + "X" + String(repeating: "b", count: 300)
        let new = String(repeating: "a", count: 300) + "Y" + String(repeating: "b", count: 300)
        let (shownOld, shownNew) = ReportValueText.cutAround(old, new, width: 40)
        #expect(shownOld.count == 40 && shownNew.count == 40)
        #expect(shownOld.hasPrefix("…") && shownOld.hasSuffix("…") && shownOld.contains("aX") && shownNew.contains("aY"))
        // Short values stay whole; width 0 shows everything.
        #expect(ReportValueText.cutAround("1", "2", width: 40) == ("1", "2"))
        #expect(ReportValueText.cutAround(old, new, width: 0) == (old, new))
        #expect(ReportValueText.cut("abcdefghij", width: 9) == "abcdefgh…")
        // Below the minimum width (8) the minimum applies, so a change never vanishes between two cuts.
        #expect(ReportValueText.cut("abcdefghij", width: 4) == "abcdefg…")
        let (narrowOld, narrowNew) = ReportValueText.cutAround("abcdefghijklmnop", "abcdefghijklmnoX", width: 1)
        #expect(narrowOld.hasSuffix("p") && narrowNew.hasSuffix("X") && narrowOld.count == 8, "\(narrowOld) \(narrowNew)")
    }

    @Test func invisibleCharactersAreEscaped() {
        #expect(ReportValueText.visible("a\u{200F}b") == "a\\u200Fb")
        #expect(ReportValueText.visible("no\u{00A0}break") == "no\\u00A0break")
        #expect(ReportValueText.visible("tab\tand\u{FEFF}") == "tab\\u0009and\\uFEFF")
        #expect(ReportValueText.visible("plain é ü 日本") == "plain é ü 日本")
        // Past U+FFFF the escape has eight digits, so it never runs into what follows.
        #expect(ReportValueText.visible("x\u{F0000}0") == "x\\U000F00000")
        // Joiners that emoji and several scripts need stay as they are.
        #expect(ReportValueText.visible("👩\u{200D}💻 می\u{200C}خواهم") == "👩\u{200D}💻 می\u{200C}خواهم")
    }

    @Test func jsonCarriesSchemaFieldCountsAndLines() throws {
        let schema = SchemaChanges(added: [SchemaField(path: FieldPath(["color"]), records: 2)])
        var output = ""
        try JSONFormatter().write(Self.report(schema: schema), to: &output)
        #expect(output.contains(#""summary": {"inserted":1,"deleted":1,"updated":1,"moved":1,"changed":4,"unchanged":2,"schema":1,"fields":{"price":1}}"#))
        #expect(output.contains(#""schema": {"added":[{"path":"color","records":2}],"removed":[],"renamed":[]}"#))
        #expect(output.contains(#"{"kind":"moved","id":"1","old":{"index":0,"line":2},"new":{"index":2,"line":4}}"#))
        var lines = ""
        try NDJSONFormatter().write(Self.report(schema: schema), to: &lines)
        // After the stream's header: the schema line, the 4 changes, the end line.
        let all = lines.split(separator: "\n")
        #expect(all[0].hasPrefix(#"{"kind":"stream","stream":1,"#))
        #expect(all[1] == #"{"kind":"schema","added":[{"path":"color","records":2}],"removed":[],"renamed":[]}"#)
        #expect(all.count == 7 && all[6].hasPrefix(#"{"kind":"end","changes":4,"#))
    }
}

/// `Value.jsonText` is written as UTF-8 bytes (`writeJSON(into:)`): escapes,
/// text past ASCII and nesting must come out as JSON that reads back the same.
@Suite struct ValueJSONTextTests {
    @Test func jsonTextEscapesAndReadsBack() throws {
        let value = Value.object([
            Value.Member(name: "plain", value: .string("Empire North")),
            Value.Member(name: "quote\"d", value: .string("a\"b\\c\n\t\u{1}")),
            Value.Member(name: "caf\u{e9}", value: .array([.number("1.50"), .bool(true), .null, .string("\u{1F600}")])),
            Value.Member(name: "nested", value: .object([Value.Member(name: "", value: .array([]))])),
        ])
        let text = value.jsonText
        #expect(text == #"{"plain":"Empire North","quote\"d":"a\"b\\c\n\t\u0001","café":[1.50,true,null,"😀"],"nested":{"":[]}}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(parsed?["quote\"d"] as? String == "a\"b\\c\n\t\u{1}")
        var appended = "x"
        value.writeJSON(to: &appended)
        #expect(appended == "x" + text)
    }
}


extension FormatterTests {
    /// Updates in file order whose groups are of 2 (`X -> Y`, from the
    /// first record), 3 (`P -> Q`, from the second) and 2 (`M -> N`, last).
    static func groupedUpdates() -> Report {
        func update(_ id: String, _ index: Int, _ old: String, _ new: String) -> Change {
            Change(kind: .updated, id: [id], old: RecordPlace(index: index, line: index + 2), new: RecordPlace(index: index, line: index + 2),
                   fields: [FieldChange(path: FieldPath(["code"]), old: .string(old), new: .string(new))])
        }
        var summary = Summary()
        summary.updated = 7
        summary.oldCount = 7
        summary.newCount = 7
        let changes = [update("a", 0, "X", "Y"), update("b", 1, "P", "Q"), update("c", 2, "P", "Q"), update("d", 3, "P", "Q"),
                       update("e", 4, "X", "Y"), update("f", 5, "M", "N"), update("g", 6, "M", "N")]
        return Report(old: InputSummary(name: "old.json", format: .json, records: 7), new: InputSummary(name: "new.json", format: .json, records: 7),
                      id: [FieldPath(["id"])], summary: summary, changes: ChangeStream(changes))
    }

    @Test func groupsAreListedLargestFirstThenByTheirFirstRecord() throws {
        var text = TextFormatter()
        text.group = true
        var written = ""
        try text.write(Self.groupedUpdates(), to: &written)
        #expect(written == """
            0 inserted, 0 deleted, 7 updated, 0 moved, 0 unchanged
            updated  3 records  ids b, c, d
              code: "P" -> "Q"
            updated  2 records  ids a, e
              code: "X" -> "Y"
            updated  2 records  ids f, g
              code: "M" -> "N"

            """)
        var markdown = MarkdownFormatter()
        markdown.group = true
        var page = ""
        try markdown.write(Self.groupedUpdates(), to: &page)
        #expect(page.hasSuffix("""
            | **3 records**: `b`, `c`, `d` |  | `code` | `"P"` | `"Q"` |
            | **2 records**: `a`, `e` |  | `code` | `"X"` | `"Y"` |
            | **2 records**: `f`, `g` |  | `code` | `"M"` | `"N"` |

            """), "\(page)")
    }
}

extension FormatterTests {
    /// A field most of whose changes are type-only is named in every report
    /// format, though no update is wholly type-only; a field where they are
    /// a minority is not, and json carries the per-field counts.
    @Test func aFieldMostlyChangedInTypeIsNamedInEveryFormat() throws {
        var report = Self.report()
        report.summary.updated = 4
        report.summary.fieldCounts = [FieldCount(path: FieldPath(["region_id"]), records: 4), FieldCount(path: FieldPath(["co|de"]), records: 3),
                                      FieldCount(path: FieldPath(["price"]), records: 1)]
        report.summary.typeOnlyFields = [
            TypeOnlyField(path: FieldPath(["region_id"]), records: 3,
                          example: FieldChange(path: FieldPath(["region_id"]), old: .string("3"), new: .number("3"))),
            TypeOnlyField(path: FieldPath(["co|de"]), records: 1, example: FieldChange(path: FieldPath(["co|de"]), old: .string("1"), new: .number("1"))),
        ]
        let note = #"region_id changes only a value's type in 3 of its 4 updated records ("3" -> 3); --loose-types compares by text and counts these changes as none"#
        let text = try Self.text(report)
        #expect(text.hasPrefix("1 inserted, 1 deleted, 4 updated, 1 moved, 2 unchanged\nfields: region_id 4, co|de 3, price 1\n\(note)\ndeleted "), "\(text)")
        var markdown = ""
        try MarkdownFormatter().write(report, to: &markdown)
        #expect(markdown.contains(#"_`region_id` changes only a value's type in 3 of its 4 updated records (`"3" -> 3`); `--loose-types` compares by text and counts these changes as none._"# + "\n\n"), "\(markdown)")
        #expect(!markdown.contains("co|de` changes"), "\(markdown)")
        var html = ""
        try HTMLFormatter().write(report, to: &html)
        #expect(html.contains("<p class=\"cut type-only-field\">region_id changes only a value&#39;s type in 3 of its 4 updated records"), "\(html)")
        #expect(JSONFormatter.summaryJSON(report.summary, sections: false).contains(#""fields":{"region_id":4,"co|de":3,"price":1},"typeOnlyFields":{"region_id":3,"co|de":1}"#))
    }
}

extension FormatterTests {
    /// A long schema line is wrapped at the width between fields, a field
    /// wider than the line on a line of its own, the lines after the first
    /// under the first field; width 0 keeps one line, as does a short one.
    @Test func theSchemaLineWrapsAtTheWidthWithAHangingIndent() throws {
        let added = ["alpha", "beta", "gamma", "a_field_name_longer_than_the_line_itself", "delta"].map { SchemaField(path: FieldPath([$0]), records: 2) }
        let schema = SchemaChanges(added: added, removed: [SchemaField(path: FieldPath(["fax"]), records: 1)],
                                   ignoredAdded: [SchemaField(path: FieldPath(["x"]), records: 1), SchemaField(path: FieldPath(["y"]), records: 1)])
        var report = Self.report(schema: schema)
        report.changes = ChangeStream([])
        #expect(try Self.text(report, width: 40) == """
            1 inserted, 1 deleted, 1 updated, 1 moved, 2 unchanged
            schema: added alpha (2 records),
                    beta (2 records),
                    gamma (2 records),
                    a_field_name_longer_than_the_line_itself (2 records),
                    delta (2 records);
                    removed fax (1 record)
            schema, ignored: added x (1 record),
                             y (1 record)
            fields: price 1

            """)
        let oneLine = "schema: added alpha (2 records), beta (2 records), gamma (2 records), "
            + "a_field_name_longer_than_the_line_itself (2 records), delta (2 records); removed fax (1 record)"
        #expect(try Self.text(report, width: 0).split(separator: "\n")[1] == oneLine)
        var stat = ""
        try report.write(OutputSettings(format: .text, countsOnly: true, width: 40), to: &stat)
        #expect(stat == (try Self.text(report, width: 40)))
    }
}
