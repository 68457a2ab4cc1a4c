/// A setting of the library's options that an error can name: a field no
/// record has (``FieldCheckError``), a setting that does not fit an input
/// (``InputError``). An error's `description` names it as the library spells
/// it (``description``: `RecordOptions.ignore`); the `changeset` command
/// names its flag instead (`--ignore`).
public enum LibrarySetting: String, Sendable, CaseIterable, CustomStringConvertible {
    /// ``RecordOptions/id``: the fields that identify a record.
    case id
    /// ``RecordOptions/section``: the field that groups records into sections.
    case section
    /// ``RecordOptions/ignore``: fields that never count as a change.
    case ignore
    /// ``RecordOptions/only``: the only fields that count.
    case only
    /// ``RecordOptions/renames``: a field known by another name in the new snapshot.
    case rename
    /// The context fields a report shows beside each change (`Comparison.report(context:)`, `OutputSettings.show`).
    case context
    /// A field's absolute tolerance (the comparison options' `tolerance`, for one field).
    case tolerance
    /// A field's relative tolerance (the comparison options' `tolerance`, for one field).
    case relativeTolerance
    /// ``RecordOptions/recordsAt``: where the records array sits in a JSON document.
    case recordsAt
    /// The comparison options' `tables`: which tables of two SQLite databases are compared.
    case tables

    /// The setting as the library spells it, for messages.
    public var description: String {
        switch self {
        case .id: "RecordOptions.id"
        case .section: "RecordOptions.section"
        case .ignore: "RecordOptions.ignore"
        case .only: "RecordOptions.only"
        case .rename: "RecordOptions.renames"
        case .context: "the context fields"
        case .tolerance: "the absolute tolerance of the field"
        case .relativeTolerance: "the relative tolerance of the field"
        case .recordsAt: "RecordOptions.recordsAt"
        case .tables: "the tables to compare"
        }
    }
}

/// A piece of an error message: text, or a setting named, which the library
/// and the command word differently (see ``LibrarySetting``).
package enum MessagePart: Sendable, Equatable {
    case text(String)
    case setting(LibrarySetting)
}

extension [MessagePart] {
    /// The message with each setting named by `name`.
    package func rendered(naming name: (LibrarySetting) -> String) -> String {
        map { part in
            switch part {
            case .text(let text): text
            case .setting(let setting): name(setting)
            }
        }.joined()
    }
}
