import Foundation
import Testing
@testable import ChangesetKit

/// The search for a key that makes a repeated id unique hashes a bounded
/// number of values: every column on the first `keyFirstLook` records of
/// each side, then at most `keyCandidateLimit` columns on the rest, so its
/// work grows with the records, not with records x columns (trying every
/// column on every record made a repeated id in a wide file take minutes).
@Suite struct CompositeKeySearchTests {
    /// A CSV of `columns` columns (`id`, then `c1`...) and `rows` rows, the cells from `cell(row, column)`.
    static func wide(columns: Int, rows: Int, cell: (Int, Int) -> String) -> Data {
        var text = (["id"] + (1..<columns).map { "c\($0)" }).joined(separator: ",") + "\n"
        for row in 0..<rows {
            text += (0..<columns).map { cell(row, $0) }.joined(separator: ",") + "\n"
        }
        return Data(text.utf8)
    }

    /// Every id twice and every other column unique (the worst case: no
    /// column drops out early), more records than the search's sample.
    @Test func theSearchHashesALinearNumberOfValuesWhateverTheColumns() throws {
        let columns = 500
        let rows = Comparison.compositeKeySample + 1_000
        let old = Self.wide(columns: columns, rows: rows) { row, column in column == 0 ? "\(row / 2)" : "\(row * 1000 + column)" }
        let new = Self.wide(columns: columns, rows: rows) { row, column in column == 0 ? "\(row / 2)" : "\(row * 1000 + column + (row == 7 ? 1 : 0))" }
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        options.records.duplicates = .occurrence
        let comparison = try Comparison.run(old: .data(old, format: .csv, name: "old.csv"), new: .data(new, format: .csv, name: "new.csv"),
                                            options: options)
        let search = try comparison.compositeKeySearch()
        #expect(search.keys == [["id", "c1"], ["id", "c2"], ["id", "c3"]])
        // Per side: every candidate on the first look, then the kept ones on the rest.
        let bound = 2 * ((columns - 1) * Comparison.keyFirstLook + Comparison.keyCandidateLimit * rows)
        #expect(search.valuesHashed > 0 && search.valuesHashed <= bound, "\(search.valuesHashed) values hashed, bound \(bound)")
        // Trying every column on every record would hash (columns - 1) x rows a side.
        #expect(bound < (columns - 1) * rows, "the bound must sit below the quadratic work it rules out")
    }
}
