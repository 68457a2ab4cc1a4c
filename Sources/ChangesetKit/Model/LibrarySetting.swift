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
    /// ``RecordOptions/duplicates``: what a repeated id means.
    case duplicates
    /// ``RecordOptions/csvRows``: how a CSV row of the wrong length is read.
    case csvRows
    /// ``RecordOptions/arrayKeys``: the member that identifies an array's elements.
    case arrayKey
    /// The comparison and merge options' `delimiter`: a CSV file's field separator.
    case delimiter
    /// The comparison and merge options' input formats (`oldFormat`, `baseFormat`, ...): how a file is read, whatever its name.
    case inputFormat
    /// The comparison options' `memoryLimit`: the memory held before records go to temporary files.
    case memoryLimit
    /// The output settings' `format`: the format a comparison is written in.
    case format
    /// An ``Assertion``'s text, as ``Assertion/init(parsing:)`` reads it.
    case assertion
    /// ``ValueTolerance/ignoreCase``: letter case counts as no change.
    case ignoreCase
    /// ``ValueTolerance/ignoreWhitespace``: white space counts as no change.
    case ignoreWhitespace
    /// The comparison options' `looseTypes`: JSON compared by a value's text.
    case looseTypes
    /// The comparison options' `numbersByValue`: CSV numbers compared by value.
    case numbersByValue
    /// The comparison options' `ignoreOrder`: no moves reported.
    case ignoreOrder
    /// The comparison options' `arrays`: how arrays inside records compare.
    case arrays
    /// The absolute tolerances' texts, as ``ValueTolerance/init(absolute:relative:ignoreCase:ignoreWhitespace:)`` reads them.
    case absoluteTolerances
    /// The relative tolerances' texts, as ``ValueTolerance/init(absolute:relative:ignoreCase:ignoreWhitespace:)`` reads them.
    case relativeTolerances
    /// ``OutputSettings/kinds``: the kinds of change a report shows.
    case kinds

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
        case .duplicates: "RecordOptions.duplicates"
        case .csvRows: "RecordOptions.csvRows"
        case .arrayKey: "RecordOptions.arrayKeys"
        case .delimiter: "the delimiter option"
        case .inputFormat: "the input format option"
        case .memoryLimit: "the memory limit"
        case .format: "the output format"
        case .assertion: "assertion"
        case .ignoreCase: "ignoreCase"
        case .ignoreWhitespace: "ignoreWhitespace"
        case .looseTypes: "looseTypes"
        case .numbersByValue: "numbersByValue"
        case .ignoreOrder: "ignoreOrder"
        case .arrays: "arrays"
        case .absoluteTolerances: "absolute tolerance"
        case .relativeTolerances: "relative tolerance"
        case .kinds: "OutputSettings.kinds"
        }
    }
}

/// A piece of an error message: text, or a setting named, which the library
/// and the command word differently (see ``LibrarySetting``).
package enum MessagePart: Sendable, Equatable {
    case text(String)
    case setting(LibrarySetting)
    /// A setting given a value: `library` as the library writes the value
    /// (`["id", "c1"]`), `argument` as the command line does (`id,c1`).
    case assignment(LibrarySetting, library: String, argument: String)
    /// Words that differ beyond a setting's name: `library` for a library
    /// caller, `command` for the command's user (a whole command line).
    case alternative(library: String, command: String)
}

extension [MessagePart] {
    /// The message with each setting named by `name`, and each value
    /// written as a command-line argument when `asArguments` (the command's
    /// wording), as the library writes it otherwise.
    package func rendered(naming name: (LibrarySetting) -> String, asArguments: Bool = false) -> String {
        map { part in
            switch part {
            case .text(let text): text
            case .setting(let setting): name(setting)
            case .assignment(let setting, let library, let argument): name(setting) + " " + (asArguments ? argument : library)
            case .alternative(let library, let command): asArguments ? command : library
            }
        }.joined()
    }
}

/// An error whose message names library settings (see ``LibrarySetting``):
/// its `description` names them as the library spells them, and the
/// command asks for its flags instead.
package protocol SettingNamingError: Error {
    /// The message with each setting named by `name`, values as command-line arguments when `asArguments`.
    func description(naming name: (LibrarySetting) -> String, asArguments: Bool) -> String
}
