import ChangesetKit

/// The library's errors name its settings as the library spells them
/// (`RecordOptions.ignore`); the command's user gave flags, so the command
/// names those: one table, used wherever the command reports an error.
enum LibraryErrorWording {
    /// The flag that sets `setting`.
    static func flag(_ setting: LibrarySetting) -> String {
        switch setting {
        case .id: "--id"
        case .section: "--section"
        case .ignore: "--ignore"
        case .only: "--only"
        case .rename: "--rename"
        case .context: "--show"
        case .tolerance: "--tolerance"
        case .relativeTolerance: "--relative-tolerance"
        case .recordsAt: "--records-at"
        case .tables: "--table"
        case .duplicates: "--duplicates"
        case .csvRows: "--csv-rows"
        case .arrayKey: "--array-key"
        case .delimiter: "--delimiter"
        case .inputFormat: "--input-format"
        case .memoryLimit: "--memory-limit"
        case .format: "--format"
        case .assertion: "--assert"
        case .ignoreCase: "--ignore-case"
        case .ignoreWhitespace: "--ignore-whitespace"
        case .looseTypes: "--loose-types"
        case .numbersByValue: "--numbers-by-value"
        case .ignoreOrder: "--ignore-order"
        case .arrays: "--arrays"
        case .absoluteTolerances: "--tolerance"
        case .relativeTolerances: "--relative-tolerance"
        case .kinds: "--kinds"
        }
    }

    /// What the command prints for `error`: a library error with its
    /// settings named as flags, any other as it describes itself.
    static func text(of error: any Error) -> String {
        switch error {
        case let error as any SettingNamingError: error.description(naming: flag, asArguments: true)
        default: "\(error)"
        }
    }
}
