import ArgumentParser
import ChangesetKit

/// The options that say how three versions merge: how records are read and
/// matched, and which side settles a conflict. `merge` and git's merge
/// driver share them, so both merge alike.
struct MergingOptions: ParsableArguments {
    @OptionGroup var matching: RecordMatchingOptions

    @Option(help: ArgumentHelp("Resolve every conflict with this side's version: ours or theirs (the conflicts are still listed).", valueName: "side"))
    var prefer: MergePreference?

    /// The library's merge options for these flags; `format` is the one
    /// to read the files in when `--input-format` names none.
    func mergeOptions(format: InputFormat? = nil) throws -> MergeOptions {
        try matching.mergeOptions(format: format, prefer: prefer)
    }
}
