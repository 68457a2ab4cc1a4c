import ArgumentParser
import ChangesetKit

/// The options that say what counts as a difference: how records are read
/// and matched, tolerances, order, types, arrays and the memory limit.
/// The diff and git's diff driver share them, so both compare alike.
struct ComparingOptions: ParsableArguments {
    @OptionGroup var matching: RecordMatchingOptions

    @Option(help: ArgumentHelp("Compare this table of two SQLite databases (.db, .sqlite, .sqlite3, or by their header): its rows in primary-key order, matched by the primary key unless --id names one. Repeatable, and a glob such as 'prod*' names several: each table is a section.", valueName: "table"))
    var table: [String] = []

    @Flag(help: "Order sections by value instead of by first appearance.")
    var sortSections = false

    @Option(help: ArgumentHelp("Numbers that differ by at most X are equal; FIELD=X for one field (repeatable).", valueName: "[field=]x"))
    var tolerance: [String] = []

    @Option(help: ArgumentHelp("Numbers that differ by at most R times the larger are equal; FIELD=R for one field (repeatable).", valueName: "[field=]r"))
    var relativeTolerance: [String] = []

    @Flag(help: "Strings that differ only in letter case are equal.")
    var ignoreCase = false

    @Flag(help: "Strings that differ only in leading, trailing or repeated white space are equal.")
    var ignoreWhitespace = false

    @Flag(help: "Order means nothing: report no moves within sections and no section moves.")
    var ignoreOrder = false

    @Flag(help: "Compare JSON as CSV is compared, by a value's text: \"3\" equals 3, \"4.50\" equals 4.5, \"true\" equals true, and null, \"\" and a missing field are one.")
    var looseTypes = false

    @Flag(help: "Two CSV files: cells that spell numbers compare by value (6199 equals 6.199e3), as a CSV cell and a JSON number always do. Without it a CSV cell's text is its value.")
    var numbersByValue = false

    @Option(help: ArgumentHelp("Arrays inside records: compared element by element (elements, the default), as one value (whole), or as sets whose order means nothing (set: elements matched by key or content wherever they stand; not with the patch formats).", valueName: "elements|whole|set"))
    var arrays: ArrayComparison = .elements

    @Option(help: ArgumentHelp("Past this much memory (an estimate from the input sizes), compare with --id through temporary files in TMPDIR, a part of the records at a time; the output is the same. A size: 800M, 1.5G, or bytes; 0 always (default: half the memory of the machine or its container; none for --format patch and jsonpatch).", valueName: "size"))
    var memoryLimit: String?

    /// `--memory-limit`: a size in bytes, with an optional K, M, G or T (powers of 1024).
    static func byteCount(_ text: String) throws -> Int {
        do { return try ProcessFacts.byteCount(parsing: text) } catch { throw ValidationError("--memory-limit \(error)") }
    }

    /// The library's options from these. `replaying`: the result is a patch,
    /// which needs every record in memory, so no memory limit unless one is given.
    func comparisonOptions(replaying: Bool) throws -> ComparisonOptions {
        var options = ComparisonOptions()
        options.records = try matching.recordOptions()
        do {
            options.tolerance = try ValueTolerance(absolute: tolerance, relative: relativeTolerance, ignoreCase: ignoreCase, ignoreWhitespace: ignoreWhitespace)
        } catch {
            throw ValidationError(LibraryErrorWording.text(of: error))
        }
        options.records.notedFields = options.tolerance.notedFields
        options.oldFormat = matching.inputFormat
        options.newFormat = matching.inputFormat
        options.delimiter = matching.delimiterByte
        options.tables = table
        options.sortSections = sortSections
        options.ignoreOrder = ignoreOrder
        options.looseTypes = looseTypes
        options.numbersByValue = numbersByValue
        options.arrays = arrays
        options.memoryLimit = try memoryLimit.map(Self.byteCount) ?? (replaying ? nil : ProcessFacts.defaultMemoryLimit)
        return options
    }
}
