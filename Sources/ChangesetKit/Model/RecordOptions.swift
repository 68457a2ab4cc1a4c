/// How values are compared, chosen per run from the two input formats.
public enum ComparisonMode: Sendable, Equatable {
    /// Both sides are JSON: a value's type is part of it (`1` differs from `"1"`),
    /// numbers compare by value, objects ignore key order.
    case typed
    /// One side is CSV, which has only text, and the other JSON (or
    /// `--loose-types`, or `--numbers-by-value`): every scalar compares as the
    /// text a CSV cell would hold, numbers by value (`6199` equals `6.199e3`
    /// and the JSON number `6199`), `true`/`false` as words, and an empty
    /// cell, a `null` and a missing field are the same.
    case text
    /// Both sides are CSV: a cell's text is its value, compared by its bytes
    /// (`6199` -> `6.199e3` is a change, as daff, csv-diff and git have it);
    /// an empty cell and a missing field are the same.
    case cellText

    /// Whether scalars compare as text (`.text` or `.cellText`).
    public var isText: Bool { self != .typed }
}

/// What to do when two records of one file share an id.
public enum DuplicatePolicy: String, Sendable, CaseIterable {
    /// A duplicate id is an error naming both lines.
    case error
    /// Records that share an id match an equal record on the other side
    /// first, then the k-th left matches the k-th left.
    case occurrence
}

/// What a CSV row with more or fewer cells than the header is.
public enum CSVRowPolicy: String, Sendable, CaseIterable {
    /// An error at the row, naming its line and column.
    case strict
    /// Read as it stands: a missing cell is absent (as an empty cell is),
    /// and an extra one is a field named by its column number (see
    /// `RecordOptions.positionalFieldName(column:header:)`).
    case lenient
}

/// A field a setting names, for the check that some record has it.
package struct NotedField: Sendable, Equatable {
    package var setting: LibrarySetting
    package var path: FieldPath

    package init(setting: LibrarySetting, path: FieldPath) {
        self.setting = setting
        self.path = path
    }
}

/// What the readers need to know to turn bytes into records.
public struct RecordOptions: Sendable {
    /// The key fields (`--id`); empty means a record's identity is its content.
    public var id: [FieldPath] = []
    /// The field whose value names a record's section (`--section`).
    public var section: FieldPath?
    /// Fields left out of equality (`--ignore`).
    public var ignore: [FieldPath] = []
    /// When not empty, the only fields that equality looks at (`--only`).
    public var only: [FieldPath] = []
    /// What two records of one input that share an id are: an error (the
    /// default), or records matched in order of occurrence.
    public var duplicates: DuplicatePolicy = .error
    /// The array inside a JSON document that holds the records (`--records-at`).
    public var recordsAt: FieldPath?
    /// How values compare; a comparison sets it from the two inputs' formats
    /// (and its `looseTypes` and `numbersByValue` options).
    public var mode: ComparisonMode = .typed
    /// `--rename OLD=NEW`: the reader of the new side reads a member named
    /// NEW (in the object OLD is in) as OLD.
    public var renames: [Rename] = []
    /// Whether a CSV row may hold fewer or more cells than the header (`--csv-rows`).
    public var csvRows: CSVRowPolicy = .strict
    /// `--array-key`: which member identifies the elements of which arrays
    /// inside records (the first rule naming an array applies); arrays no
    /// rule names take the `id` fields, else a member named `id`, when every
    /// element holds it once.
    public var arrayKeys: [ArrayKeyRule] = []
    /// False for the old side: its reader only notes whether OLD occurs.
    package var appliesRenames = true
    /// Whether the command takes `--duplicates occurrence` (a merge, which
    /// matches records by unique ids, does not): a repeated id's error
    /// advises it only then, never an option the command refuses.
    package var acceptsDuplicatesOccurrence = true
    /// Other fields options name (`--tolerance price=0.01`), as (option, path):
    /// the readers note whether a record has them, like `--ignore`'s.
    package var notedFields: [NotedField] = []

    /// Options with the given id fields, section, field rules, duplicate
    /// policy, records path and mode; everything else at its default.
    public init(
        id: [FieldPath] = [], section: FieldPath? = nil, ignore: [FieldPath] = [], only: [FieldPath] = [],
        duplicates: DuplicatePolicy = .error, recordsAt: FieldPath? = nil, mode: ComparisonMode = .typed
    ) {
        self.id = id
        self.section = section
        self.ignore = ignore
        self.only = only
        self.duplicates = duplicates
        self.recordsAt = recordsAt
        self.mode = mode
    }
}

extension RecordOptions {
    /// The name of a CSV row's cell past the header: `#` and its 1-based
    /// column number (`#7` in a file of six columns). A header that has the
    /// name already keeps it, and the cell takes one more `#` (`##7`), so no
    /// cell is read under a column it does not stand in.
    public static func positionalFieldName(column: Int, header: [String]) -> String {
        var name = "#\(column)"
        while header.contains(where: { ExactText.same($0, name) }) { name = "#" + name }
        return name
    }

    /// The 1-based column a positional field name stands for in a file with
    /// `header` (the inverse of `positionalFieldName`), or nil.
    public static func positionalColumn(ofFieldName name: String, header: [String]) -> Int? {
        let digits = name.drop { $0 == "#" }
        guard digits.count < name.count, let column = Int(digits), column > header.count,
              String(column) == digits, positionalFieldName(column: column, header: header) == name else { return nil }
        return column
    }

    /// Rules that name a renamed field by its new name (`--rename cca3=iso
    /// --only iso`) are about the old one: the new side reads NEW as OLD, so
    /// a rule on NEW would otherwise never apply.
    mutating func nameRulesByOldNames() {
        let renamed = oldName
        id = id.map(renamed)
        section = section.map(renamed)
        ignore = ignore.map(renamed)
        only = only.map(renamed)
        notedFields = notedFields.map { NotedField(setting: $0.setting, path: renamed($0.path)) }
        arrayKeys = arrayKeys.map { ArrayKeyRule(path: renamed(FieldPath($0.path)).components, key: $0.key) }
    }

    /// `path` with a renamed field's new name replaced by its old one.
    func oldName(_ path: FieldPath) -> FieldPath {
        for rename in renames where path.components.starts(with: rename.new.components) {
            return FieldPath(rename.old.components + path.components.dropFirst(rename.new.components.count))
        }
        return path
    }
}
