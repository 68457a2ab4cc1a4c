import Foundation
import Testing

/// What changed in the file, not only in its records (issue 34, point 9): a
/// commit that only turns CRLF into LF, adds a byte order mark, drops the
/// final newline or reorders CSV columns is reported in every report format,
/// and the exit status stays about records (0 when no record changed).
@Suite struct FileLevelChangeTests {
    static let rows = ["id,name,iso2", "1,Aruba,AW", "2,Angola,AO", "3,Albania,AL"]

    static func csv(_ rows: [String], lineBreak: String = "\n", final: Bool = true, byteOrderMark: Bool = false) -> String {
        (byteOrderMark ? "\u{FEFF}" : "") + rows.joined(separator: lineBreak) + (final ? lineBreak : "")
    }

    /// The json report's `layout` member (nil when there is none).
    static func layout(_ json: String) throws -> [String: Any]? {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return document["layout"] as? [String: Any]
    }

    @Test func aCSVOnlyTurnedFromCRLFToLFExitsZeroAndSaysSoInEveryFormat() throws {
        let paths = try scratchFiles([("old.csv", Self.csv(Self.rows, lineBreak: "\r\n")), ("new.csv", Self.csv(Self.rows))])
        let text = try changeset(paths + ["--id", "id"])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout == "0 inserted, 0 deleted, 0 updated, 0 moved, 3 unchanged\nline endings: CRLF -> LF\n", "\(text)")
        let json = try changeset(paths + ["--id", "id", "--format", "json"])
        #expect(json.status == 0, "\(json)")
        let lineEndings = try #require(try Self.layout(json.stdout)?["lineEndings"] as? [String: Any], "\(json)")
        #expect(lineEndings["old"] as? String == "crlf" && lineEndings["new"] as? String == "lf")
        #expect(lineEndings["oldCounts"] as? [String: Int] == ["lf": 0, "crlf": 4, "cr": 0])
        #expect(lineEndings["newCounts"] as? [String: Int] == ["lf": 4, "crlf": 0, "cr": 0])
        let markdown = try changeset(paths + ["--id", "id", "--format", "markdown"])
        #expect(markdown.status == 0 && markdown.stdout.contains("**File**\n\n- line endings: CRLF → LF\n"), "\(markdown)")
        let html = try changeset(paths + ["--id", "id", "--format", "html"])
        #expect(html.status == 0 && html.stdout.contains("<section id=\"file\">\n<h2>File</h2>\n<ul>\n<li>line endings: CRLF → LF</li>"), "\(html)")
        let ndjson = try changeset(paths + ["--id", "id", "--format", "ndjson"])
        #expect(ndjson.status == 0, "\(ndjson)")
        // The layout line comes right after the stream's header.
        #expect(ndjson.stdout.split(separator: "\n").dropFirst().first?.hasPrefix(#"{"kind":"layout","lineEndings":{"old":"crlf","new":"lf","#) == true, "\(ndjson)")
        let stat = try changeset(paths + ["--id", "id", "--stat"])
        #expect(stat.status == 0 && stat.stdout.hasSuffix("\nfile: line endings CRLF -> LF\n"), "\(stat)")
        let quiet = try changeset(paths + ["--id", "id", "-q"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet)")
    }

    @Test func aByteOrderMarkAddedIsReported() throws {
        let paths = try scratchFiles([("old.csv", Self.csv(Self.rows)), ("new.csv", Self.csv(Self.rows, byteOrderMark: true))])
        let text = try changeset(paths + ["--id", "id"])
        #expect(text.status == 0 && text.stdout.hasSuffix("unchanged\nbyte-order mark: added\n"), "\(text)")
        let json = try changeset(paths + ["--id", "id", "--format", "json"])
        let layout = try #require(try Self.layout(json.stdout), "\(json)")
        #expect(layout.keys.sorted() == ["byteOrderMark"])
        #expect(layout["byteOrderMark"] as? [String: Bool] == ["old": false, "new": true])
    }

    @Test func aFinalNewlineRemovedIsReported() throws {
        let paths = try scratchFiles([("old.csv", Self.csv(Self.rows)), ("new.csv", Self.csv(Self.rows, final: false))])
        let text = try changeset(paths + ["--id", "id"])
        #expect(text.status == 0 && text.stdout.hasSuffix("unchanged\nfinal newline: removed\n"), "\(text)")
        let json = try changeset(paths + ["--id", "id", "--format", "json"])
        #expect(try Self.layout(json.stdout)?["finalNewline"] as? [String: Bool] == ["old": true, "new": false], "\(json)")
    }

    /// The country codes pair: 11 columns, the new file's in another order.
    static let countryColumns = ["FIFA", "Dial", "ISO3166-1-Alpha-3", "MARC", "is_independent", "ISO3166-1-numeric",
                                 "GAUL", "FIPS", "WMO", "ISO3166-1-Alpha-2", "ITU"]
    static let countryRows: [[String: String]] = [
        ["FIFA": "ARU", "Dial": "297", "ISO3166-1-Alpha-3": "ABW", "MARC": "aw", "is_independent": "Part of NL", "ISO3166-1-numeric": "533",
         "GAUL": "14", "FIPS": "AA", "WMO": "NU", "ISO3166-1-Alpha-2": "AW", "ITU": "ABW"],
        ["FIFA": "AFG", "Dial": "93", "ISO3166-1-Alpha-3": "AFG", "MARC": "af", "is_independent": "Yes", "ISO3166-1-numeric": "004",
         "GAUL": "1", "FIPS": "AF", "WMO": "AF", "ISO3166-1-Alpha-2": "AF", "ITU": "AFG"],
        ["FIFA": "ANG", "Dial": "244", "ISO3166-1-Alpha-3": "AGO", "MARC": "ao", "is_independent": "Yes", "ISO3166-1-numeric": "024",
         "GAUL": "8", "FIPS": "AO", "WMO": "AN", "ISO3166-1-Alpha-2": "AO", "ITU": "AGL"],
    ]

    static func countryCSV(_ columns: [String], rows: [[String: String]] = countryRows) -> String {
        ([columns.joined(separator: ",")] + rows.map { row in columns.map { row[$0]! }.joined(separator: ",") }).joined(separator: "\n") + "\n"
    }

    @Test func theCountryCodesColumnsReorderedAreReportedWithBothOrders() throws {
        let reordered = ["ISO3166-1-Alpha-3", "ISO3166-1-Alpha-2", "ISO3166-1-numeric", "FIFA", "Dial", "MARC", "is_independent",
                         "GAUL", "FIPS", "WMO", "ITU"]
        let paths = try scratchFiles([("old.csv", Self.countryCSV(Self.countryColumns)), ("new.csv", Self.countryCSV(reordered))])
        let options = ["--id", "ISO3166-1-Alpha-3"]
        let json = try changeset(paths + options + ["--format", "json"])
        #expect(json.status == 0, "\(json)")
        let order = try #require(try Self.layout(json.stdout)?["columnOrder"] as? [String: Any], "\(json)")
        #expect(order["old"] as? [String] == Self.countryColumns)
        #expect(order["new"] as? [String] == reordered)
        // ISO3166-1-Alpha-3, -Alpha-2 and -numeric went to the front; the other 8 kept their order.
        #expect(order["moved"] as? Int == 3)
        // In text, wrapped between names at --width, under the first name.
        let text = try changeset(paths + options + ["--width", "60"])
        #expect(text.status == 0, "\(text)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "0 inserted, 0 deleted, 0 updated, 0 moved, 3 unchanged")
        #expect(lines[1].hasPrefix("column order: FIFA, Dial, ISO3166-1-Alpha-3,"), "\(text)")
        #expect(lines.dropFirst().allSatisfy { $0.count <= 60 }, "\(text)")
        #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix(String(repeating: " ", count: "column order: ".count)) }, "\(text)")
        #expect(lines.last!.hasSuffix("(3 of 11 columns moved)"), "\(text)")
        #expect(lines.dropFirst().joined(separator: " ").replacingOccurrences(of: " +", with: " ", options: .regularExpression)
            == "column order: " + Self.countryColumns.joined(separator: ", ") + " -> " + reordered.joined(separator: ", ")
            + " (3 of 11 columns moved)", "\(text)")
        let stat = try changeset(paths + options + ["--stat"])
        #expect(stat.stdout.hasSuffix("\nfile: column order changed (3 of 11 columns moved)\n"), "\(stat)")
    }

    /// A reorder beside a record change: the exit status is the records' (1),
    /// and only the columns both files have make the order.
    @Test func aReorderBesideRecordChangesExitsOneAndListsOnlySharedColumns() throws {
        var rows = Self.countryRows
        rows[1]["Dial"] = "0093"
        let newColumns = ["ITU"] + Self.countryColumns.filter { $0 != "ITU" && $0 != "WMO" }
        let paths = try scratchFiles([("old.csv", Self.countryCSV(Self.countryColumns)), ("new.csv", Self.countryCSV(newColumns, rows: rows))])
        let json = try changeset(paths + ["--id", "ISO3166-1-Alpha-3", "--format", "json"])
        #expect(json.status == 1, "\(json)")
        let order = try #require(try Self.layout(json.stdout)?["columnOrder"] as? [String: Any], "\(json)")
        #expect(order["old"] as? [String] == Self.countryColumns.filter { $0 != "WMO" })
        #expect(order["new"] as? [String] == newColumns)
        #expect(order["moved"] as? Int == 1)
        #expect(json.stdout.contains(#""removed":[{"path":"WMO","records":3}]"#), "\(json)")
    }

    /// Dropping a column leaves the others in their order: no column order line.
    @Test func aColumnRemovedIsNoReorder() throws {
        let paths = try scratchFiles([("old.csv", Self.countryCSV(Self.countryColumns)),
                                      ("new.csv", Self.countryCSV(Self.countryColumns.filter { $0 != "MARC" }))])
        let json = try changeset(paths + ["--id", "ISO3166-1-Alpha-3", "--format", "json"])
        #expect(try Self.layout(json.stdout) == nil, "\(json)")
    }

    @Test func aJSONFileTurnedFromCRLFToLFIsReportedButMemberOrderIsNot() throws {
        let records = [#"{"id": 1, "name": "Aruba"}"#, #"{"id": 2, "name": "Angola"}"#]
        let old = "[\r\n" + records.joined(separator: ",\r\n") + "\r\n]\r\n"
        let new = "[\n" + records.joined(separator: ",\n") + "\n]\n"
        let reordered = "[\n" + [#"{"name": "Aruba", "id": 1}"#, records[1]].joined(separator: ",\n") + "\n]\n"
        let paths = try scratchFiles([("old.json", old), ("new.json", new), ("reordered.json", reordered)])
        let text = try changeset([paths[0], paths[1], "--id", "id"])
        #expect(text.status == 0 && text.stdout == "0 inserted, 0 deleted, 0 updated, 0 moved, 2 unchanged\nline endings: CRLF -> LF\n", "\(text)")
        let json = try changeset([paths[0], paths[1], "--id", "id", "--format", "json"])
        #expect((try Self.layout(json.stdout)?["lineEndings"] as? [String: Any])?["old"] as? String == "crlf", "\(json)")
        let members = try changeset([paths[1], paths[2], "--id", "id", "--format", "json"])
        #expect(try Self.layout(members.stdout) == nil, "\(members)")
    }

    @Test func mixedLineEndingsAreCountedByKind() throws {
        let paths = try scratchFiles([("old.csv", Self.csv(Self.rows)), ("new.csv", "id,name,iso2\r\n1,Aruba,AW\n2,Angola,AO\r\n3,Albania,AL\n")])
        let text = try changeset(paths + ["--id", "id"])
        #expect(text.status == 0 && text.stdout.hasSuffix("\nline endings: LF -> mixed (2 CRLF, 2 LF)\n"), "\(text)")
    }

    /// A compressed input's layout is its decompressed text's.
    @Test func aGzipInputHasItsLayoutRead() throws {
        let paths = try scratchFiles([("old.csv", Self.csv(Self.rows, lineBreak: "\r\n", byteOrderMark: true)), ("new.csv", Self.csv(Self.rows))])
        let gzip = try runProcess(URL(fileURLWithPath: "/usr/bin/gzip"), ["-k", paths[0]])
        #expect(gzip.status == 0, "\(gzip)")
        let text = try changeset([paths[0] + ".gz", paths[1], "--id", "id"])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.hasSuffix("unchanged\nline endings: CRLF -> LF\nbyte-order mark: removed\n"), "\(text)")
    }

    /// Past --memory-limit (records matched a partition at a time) and from
    /// standard input (a stream, read once), the layout is the same.
    @Test func aPartitionedComparisonAndStandardInputReportTheLayoutToo() throws {
        let old = Self.csv(Self.rows, lineBreak: "\r\n")
        let paths = try scratchFiles([("old.csv", old), ("new.csv", Self.csv(Self.rows, final: false))])
        let expected = "0 inserted, 0 deleted, 0 updated, 0 moved, 3 unchanged\nline endings: CRLF -> LF\nfinal newline: removed\n"
        let partitioned = try changeset(paths + ["--id", "id", "--memory-limit", "0"])
        #expect(partitioned.status == 0 && partitioned.stdout == expected, "\(partitioned)")
        let piped = try changeset(["-", paths[1], "--id", "id"], input: Data(old.utf8))
        #expect(piped.status == 0 && piped.stdout == expected, "\(piped)")
    }

    /// A file converted to another format is a new file: its layout is no change.
    @Test func inputsOfTwoFormatsReportNoLayout() throws {
        let paths = try scratchFiles([("old.json", #"[{"id":1,"name":"Aruba"}]"#), ("new.csv", "\u{FEFF}id,name\r\n1,Aruba\r\n"),
                                      ("new.tsv", "id\tname\n1\tAruba")])
        for (old, new) in [(paths[0], paths[1]), (paths[1], paths[2])] {
            let json = try changeset([old, new, "--id", "id", "--format", "json"])
            let layout = try Self.layout(json.stdout)
            #expect(json.status == 0 && layout == nil, "\(json)")
        }
    }

    /// Files alike in layout add nothing: no line, no `layout` member.
    @Test func filesAlikeInLayoutReportNothingOfIt() throws {
        let paths = try scratchFiles([("old.csv", Self.csv(Self.rows, lineBreak: "\r\n")), ("new.csv", Self.csv(Self.rows + ["4,Andorra,AD"], lineBreak: "\r\n"))])
        let text = try changeset(paths + ["--id", "id"])
        #expect(text.status == 1 && !text.stdout.contains("line endings"), "\(text)")
        let json = try changeset(paths + ["--id", "id", "--format", "json"])
        #expect(try Self.layout(json.stdout) == nil, "\(json)")
    }

    /// The json report and the ndjson layout line validate against the schemas in docs/schema/.
    @Test func theLayoutValidatesAgainstTheJSONSchemas() throws {
        let paths = try scratchFiles([("old.csv", Self.csv(Self.rows, lineBreak: "\r\n", final: false)),
                                      ("new.csv", Self.csv(["id,iso2,name", "1,AW,Aruba", "2,AO,Angola", "3,AL,Albania"], byteOrderMark: true))])
        let json = try changeset(paths + ["--id", "id", "--format", "json"])
        #expect(try Self.layout(json.stdout)?.keys.sorted() == ["byteOrderMark", "columnOrder", "finalNewline", "lineEndings"], "\(json)")
        let report = try JSONSchemaTests.validate([json.stdout], against: "report.schema.json")
        #expect(report.status == 0, "\(report)")
        let ndjson = try changeset(paths + ["--id", "id", "--format", "ndjson"])
        let lines = try JSONSchemaTests.validate(JSONSchemaTests.lines(ndjson.stdout), against: "ndjson-line.schema.json")
        #expect(lines.status == 0, "\(lines)")
    }
}
