import Foundation
import Testing

/// CSV files with rows of a cell too many or too few (issue 34): the shapes
/// of s-and-p-500's constituents.csv at 33c24b5c (one row with an extra
/// cell) and of mledoze's countries.csv (short rows), in Fixtures/ragged/.
/// Strict by default, with an error that names `--csv-rows lenient`; with it,
/// reports and merges read such rows.
@Suite struct RaggedRowTests {
    static let constituents = ["ragged/constituents-old.csv", "ragged/constituents-new.csv", "--id", "Symbol"]
    static let countries = ["ragged/countries-old.csv", "ragged/countries-new.csv", "--id", "cca3"]
    static let hint = "(--csv-rows lenient reads such rows: a missing cell as empty, an extra one as a field named by its column number, such as"

    @Test func aRaggedRowStopsADiffAtItsPlaceAndNamesTheLenientOption() throws {
        let long = try changeset(Self.constituents)
        #expect(long.status == 2 && long.stdout.isEmpty, "\(long)")
        #expect(long.stderr == "changeset: ragged/constituents-new.csv:5:92: this row has 9 fields but the header has 8 \(Self.hint) #9)\n", "\(long)")
        let short = try changeset(Self.countries)
        #expect(short.status == 2 && short.stdout.isEmpty, "\(short)")
        #expect(short.stderr == "changeset: ragged/countries-new.csv:6:29: this row has 5 fields but the header has 7 \(Self.hint) #8)\n", "\(short)")
    }

    @Test func lenientReportHoldsAnExtraCellAsAColumnNamedByItsNumber() throws {
        let result = try changeset(Self.constituents + ["--csv-rows", "lenient", "--format", "json"])
        #expect(result.status == 1 && result.stderr.isEmpty, "\(result)")
        let schema = try run("jq", ["-c", ".schema.added"], input: result.stdout)
        #expect(schema == ##"[{"path":"#9","records":1}]"## + "\n", "\(result)")
        let fields = try run("jq", ["-c", "[.changes[] | [.id, (.fields[] | [.path, .old, .new])]]"], input: result.stdout)
        #expect(fields == #"[["AOS",["Security","A. O. Smith","A.O. Smith"]],["ABBV",["Founded","2013 (1888)",2013]]]"# + "\n", "\(result)")
    }

    @Test func lenientReportReadsAShortRowsMissingCellsAsEmpty() throws {
        let result = try changeset(Self.countries + ["--csv-rows", "lenient"])
        #expect(result.status == 1 && result.stderr.isEmpty, "\(result)")
        // Antarctica lost its two empty trailing cells: no change.
        #expect(result.stdout.hasPrefix("1 inserted, 0 deleted, 1 updated, 0 moved, 4 unchanged\n"), "\(result)")
        #expect(result.stdout.contains(#"{"name":"Bouvet Island","cca2":"BV","cca3":"BVT"}"#), "\(result)")
        #expect(result.stdout.contains("area: 2381741 -> 2381740"), "\(result)")
        #expect(!result.stdout.contains("ATA"), "\(result)")
    }

    @Test func lenientMergeWritesAnExtraCellBackInItsColumn() throws {
        let arguments = ["merge", "ragged/constituents-new.csv", "ragged/constituents-ours.csv", "ragged/constituents-theirs.csv", "--id", "Symbol"]
        let strict = try changeset(arguments)
        #expect(strict.status == 2 && strict.stderr.contains("constituents-new.csv:5:92: this row has 9 fields but the header has 8 \(Self.hint) #9)"), "\(strict)")
        let result = try changeset(arguments + ["--csv-rows", "lenient"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        // ABBV merged from both sides is written anew, its extra cell (#9) after the header's columns.
        let expected = try String(contentsOf: fixtures.appendingPathComponent("ragged/constituents-ours.csv"), encoding: .utf8)
            .replacingOccurrences(of: "ABBV,AbbVie,", with: "ABBV,AbbVie Inc.,")
        #expect(result.stdout == expected, "\(result)")
        #expect(result.stdout.contains("ABBV,AbbVie Inc.,Health Care,Biotechnology,\"North Chicago, Illinois\",2012-12-30,0001551152,2013,1888\n"))
    }

    @Test func lenientMergeKeepsShortRowsItDidNotTouchAsTheyStand() throws {
        let base = try String(contentsOf: fixtures.appendingPathComponent("ragged/countries-new.csv"), encoding: .utf8)
        let ours = base.replacingOccurrences(of: ",2381740\n", with: ",2381741\n")
        let theirs = base.replacingOccurrences(of: ",Kabul,", with: ",Kabul City,")
        let paths = try scratchFiles([("base.csv", base), ("ours.csv", ours), ("theirs.csv", theirs)])
        let result = try changeset(["merge"] + paths + ["--id", "cca3", "--csv-rows", "lenient"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout == ours.replacingOccurrences(of: ",Kabul,", with: ",Kabul City,"), "\(result)")
        #expect(result.stdout.hasSuffix("Antarctica,AQ,ATA,,Antarctic\nBouvet Island,BV,BVT\n"), "\(result)")
    }

    /// THEIRS adds a column where OURS inserted a row with an extra cell:
    /// whether that cell is the new column's is not known, so nothing is written.
    @Test func lenientMergeRefusesToMoveAnExtraCellUnderANewColumn() throws {
        let base = try String(contentsOf: fixtures.appendingPathComponent("ragged/constituents-new.csv"), encoding: .utf8)
        let ours = base + "ZTS,Zoetis,Health Care,Pharmaceuticals,\"Parsippany, New Jersey\",2013-06-21,0001555280,1952,NYSE\n"
        let lines = base.split(separator: "\n", omittingEmptySubsequences: false)
        let theirs = lines.enumerated().map { $0.element.isEmpty ? "" : $0.element + ($0.offset == 0 ? ",Exchange" : ",NYSE") }.joined(separator: "\n")
        let paths = try scratchFiles([("base.csv", base), ("ours.csv", ours), ("theirs.csv", theirs)])
        let result = try changeset(["merge"] + paths + ["--id", "Symbol", "--csv-rows", "lenient"])
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains(##"a merged record holds "#9", a cell past the header of a ragged row, but the result's header has 9 columns"##), "\(result)")
    }
}
