import Foundation
import Testing

/// The key suggested beside a repeated id (`--id id,x is unique in both
/// files`) or without `--id`, in wide files: found past the first columns,
/// and named in the error. (Its work stays linear in the records whatever
/// the number of columns: `CompositeKeySearchTests`.)
@Suite struct KeySuggestionTests {
    /// A CSV of `columns` columns (`id`, then `c1`...) and `rows` rows, the cells from `cell(row, column)`.
    func wide(_ name: String, columns: Int, rows: Int, in directory: URL, cell: (Int, Int) -> String) throws {
        var text = (["id"] + (1..<columns).map { "c\($0)" }).joined(separator: ",") + "\n"
        for row in 0..<rows {
            text += (0..<columns).map { cell(row, $0) }.joined(separator: ",") + "\n"
        }
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    /// 1000 columns x 5000 rows, every id twice and every other column
    /// unique (the search's worst case: no column drops out early): the
    /// error names the first repeat and the keys found. The work the search
    /// does is bounded in `CompositeKeySearchTests`, by count, not by clock.
    @Test func aRepeatedIdInAWideFileNamesTheKeysFound() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try wide("old.csv", columns: 1000, rows: 5000, in: scratch) { row, column in column == 0 ? "\(row / 2)" : "\(row * 1000 + column)" }
        try wide("new.csv", columns: 1000, rows: 5000, in: scratch) { row, column in column == 0 ? "\(row / 2)" : "\(row * 1000 + column + (row == 7 ? 1 : 0))" }
        let repeated = try changeset(["old.csv", "new.csv", "--id", "id"], in: scratch)
        #expect(repeated.status == 2 && repeated.stdout.isEmpty, "\(repeated)")
        #expect(repeated.stderr.hasPrefix("changeset: old.csv:3:1: duplicate id \"0\": the record at line 2 has it too; 2500 ids repeat, in 5000 of the 5000 records.")
                && repeated.stderr.hasSuffix("; --id id,c1 is unique in both files (and --id id,c2 and --id id,c3)\n"), "\(repeated)")
    }

    /// The only column that makes the id unique is the last of 1000, the
    /// others repeat with the id: found, past the first columns tried.
    @Test func aKeyInTheLastOfManyColumnsIsStillSuggested() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try wide("cities.csv", columns: 1000, rows: 2000, in: scratch) { row, column in
            column == 0 ? "\(row / 2)" : column == 999 ? "\(row)" : "\((row / 2) % 50)"
        }
        let result = try changeset(["cities.csv", "cities.csv", "--id", "id"], in: scratch)
        #expect(result.status == 2 && result.stderr.hasSuffix("compares them; --id id,c999 is unique in both files\n"), "\(result)")
        // Without --id too: the one unique column of 300 is the key suggested.
        try wide("old.csv", columns: 300, rows: 2000, in: scratch) { row, column in column == 250 ? "k\(row)" : "\(row % 40)" }
        try wide("new.csv", columns: 300, rows: 2000, in: scratch) { row, column in column == 250 ? "k\(row)" : "\(row == 5 && column == 3 ? 99 : row % 40)" }
        let content = try changeset(["old.csv", "new.csv", "--stat"], in: scratch)
        #expect(content.status == 1 && content.stdout.contains("\nhint: c250 is unique in both files;"), "\(content)")
    }
}
