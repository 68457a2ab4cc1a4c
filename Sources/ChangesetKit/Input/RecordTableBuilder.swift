/// Collects the records a reader finds: checks ids for duplicates (unless
/// `--duplicates occurrence`), interns section names, and fills the table.
struct RecordTableBuilder {
    let source: String
    let options: RecordOptions
    private(set) var table = RecordTable()
    /// First record index of each id, to name both lines of a duplicate.
    private var firstIndexOfKey: [String: Int] = [:]
    private var sectionIndex: [String?: Int32] = [:]

    init(source: String, options: RecordOptions) {
        self.source = source
        self.options = options
    }

    mutating func setFieldNames(_ names: [String]) {
        table.fieldNames = names
    }

    mutating func setContainerRange(_ range: Range<Int>) {
        table.containerRange = range
    }

    mutating func append(
        idParts: [String], section: String?, fingerprint: UInt64, range: Range<Int>, line: Int,
        location: @autoclosure () -> SourceLocation
    ) throws {
        let index = table.count
        if !options.id.isEmpty {
            let key = RecordKey.join(idParts)
            if options.duplicates == .error {
                if let first = firstIndexOfKey.updateValue(index, forKey: key) {
                    throw InputError(
                        source: source, location: location(),
                        message: "duplicate id \"\(RecordKey.display(key))\": the record at line \(table.lines[first]) has it too")
                }
            }
            table.keys.append(key)
        }
        if options.section != nil {
            // In text comparisons an empty cell and a null are one thing.
            let name = options.mode == .text && section == "" ? nil : section
            let position: Int32
            if let known = sectionIndex[name] {
                position = known
            } else {
                position = Int32(table.sectionNames.count)
                table.sectionNames.append(name)
                sectionIndex[name] = position
            }
            table.sections.append(position)
        }
        table.fingerprints.append(fingerprint)
        table.starts.append(range.lowerBound)
        table.ends.append(range.upperBound)
        table.lines.append(line)
    }
}
