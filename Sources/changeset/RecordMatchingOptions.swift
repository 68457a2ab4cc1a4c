import ArgumentParser
import ChangesetKit

/// The options that say how records are read and matched, shared by the
/// diff and the merge: ids, sections, the records' place in a document,
/// which fields count, renames, and the input format.
struct RecordMatchingOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The field that identifies a record: a.b reaches into nested objects, a,b makes a composite key; escape . , \\ in names with \\.",
        valueName: "field"))
    var id: String?

    @Option(help: ArgumentHelp("Group records into sections by this field; a changed value is a move between sections.", valueName: "field"))
    var section: String?

    @Option(help: ArgumentHelp("The array inside a JSON document that holds the records, as a path (data.items).", valueName: "path"))
    var recordsAt: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The CSV field delimiter, one ASCII character (default , and tab for .tsv).", valueName: "char"))
    var delimiter: String?

    @Option(help: ArgumentHelp("What a repeated id is: error, or occurrence (records sharing an id match an equal one first, then the k-th the k-th).", valueName: "policy"))
    var duplicates: DuplicatePolicy = .error

    @Option(help: ArgumentHelp(
        "A CSV row with more or fewer cells than the header: strict (an error), or lenient (a missing cell is empty, an extra one a field named # and its column number, #7; ## if the header has #7).",
        valueName: "policy"))
    var csvRows: CSVRowPolicy = .strict

    @Option(help: ArgumentHelp("Leave this field out of the comparison (repeatable); a glob such as 'UNTERM*' or 'translations.*' names several.", valueName: "field"))
    var ignore: [String] = []

    @Option(help: ArgumentHelp("Compare only this field (repeatable; globs as for --ignore).", valueName: "field"))
    var only: [String] = []

    @Option(help: ArgumentHelp("A field named NEW is the field OLD of the old snapshot, for --id, --section, --ignore, --only and the comparison (repeatable); an = in a name is written \\=.", valueName: "old=new"))
    var rename: [String] = []

    @Option(help: ArgumentHelp("Read the inputs as this format instead of guessing: json, ndjson, csv or tsv.", valueName: "format"))
    var inputFormat: InputFormat?

    @Option(help: ArgumentHelp(
        "Match the elements of the arrays at PATH inside records by FIELD (a,b composite), wherever they stand; PATH= matches them by content and position. PATH: states, or states.cities for the arrays inside its elements; a name may be a glob. Repeatable; without it, elements that all hold the --id fields, else a member named id, once each, are matched by it.",
        valueName: "path=field"))
    var arrayKey: [String] = []

    func validate() throws {
        for text in rename {
            do { _ = try Rename(parsing: text) } catch { throw ValidationError(LibraryErrorWording.text(of: error)) }
        }
        for text in arrayKey {
            do { _ = try ArrayKeyRule(parsing: text) } catch { throw ValidationError(LibraryErrorWording.text(of: error)) }
        }
        if let delimiter, delimiter.utf8.count != 1 || !delimiter.unicodeScalars.allSatisfy(\.isASCII) {
            throw ValidationError("--delimiter must be one ASCII character, not \"\(TerminalText.datum(delimiter))\"")
        }
        if delimiter == "\"" { throw ValidationError("--delimiter cannot be \", CSV's quote character") }
        if let delimiter, ["\n", "\r", "\u{0}"].contains(delimiter) {
            throw ValidationError("--delimiter cannot be a line break or NUL")
        }
    }

    var delimiterByte: UInt8? { delimiter.map { $0.utf8.first! } }

    func recordOptions() throws -> RecordOptions {
        var options = RecordOptions()
        do {
            options.id = try id.map(FieldPath.parseList) ?? []
            options.section = try section.map { try FieldPath(parsing: $0) }
            options.ignore = try ignore.map { try FieldPath(parsing: $0) }
            options.only = try only.map { try FieldPath(parsing: $0) }
            options.recordsAt = try recordsAt.map { try FieldPath(parsing: $0) }
            options.renames = try rename.map(Rename.init(parsing:))
            options.arrayKeys = try arrayKey.map(ArrayKeyRule.init(parsing:))
        } catch {
            throw ValidationError(LibraryErrorWording.text(of: error))
        }
        options.duplicates = duplicates
        options.csvRows = csvRows
        return options
    }

    /// A merge's options: these, `format` for all three inputs (else `--input-format`), and `prefer`.
    func mergeOptions(format: InputFormat? = nil, prefer: MergePreference?) throws -> MergeOptions {
        var options = MergeOptions()
        options.records = try recordOptions()
        let format = inputFormat ?? format
        options.baseFormat = format
        options.oursFormat = format
        options.theirsFormat = format
        options.delimiter = delimiterByte
        options.prefer = prefer
        return options
    }

}
