import Foundation

/// Collects the records a reader finds: checks ids for duplicates (unless
/// `--duplicates occurrence`), interns section names, and fills the table.
struct RecordTableBuilder {
    let source: String
    let options: RecordOptions
    private var records = RecordTable()
    /// Kept apart from `records` while rows are added, so looking up a key
    /// text in `records` does not overlap the index's own update.
    private var keyIndex = KeyIndex()

    /// Records read, including those handed on by `takeRecords`.
    var count: Int { taken + records.count }
    /// Records handed on by `takeRecords`.
    private var taken = 0
    /// A comparison in memory under `--memory-limit`: the records read are
    /// charged to it every `RecordBudget.chargeInterval`, and reading stops
    /// when it is spent.
    var budget: RecordBudget?
    /// The record (counted from the input's first) whose place the reader
    /// is asked for, and its place once read: a comparison past memory finds
    /// an id's first repeat in its files, and its place by reading again.
    var rowToLocate: Int?
    private(set) var locatedRow: InputLocation?

    /// The records read since the last call, moved out (see `RecordTable.takeRows`).
    mutating func takeRecords() -> RecordTable {
        precondition(!indexesKeys, "a key index needs every record")
        taken += records.count
        return records.takeRows()
    }

    /// Records read and not taken yet.
    var heldCount: Int { records.count }

    var table: RecordTable {
        var table = records
        table.keyIndex = keyIndex
        return table
    }

    /// The first record whose id an earlier record has (`--duplicates error`).
    private var firstDuplicate: InputError?
    /// Records whose id an earlier record has, and the rows of those earlier records.
    private var duplicateRecords = 0
    private var repeatedIDs = Set<Int>()

    /// The table, once the input ended; a repeated id (`--duplicates
    /// error`) is an error that says where it first happened and how many
    /// ids repeat.
    func finished() throws -> RecordTable {
        if let error = firstDuplicate {
            throw Self.repeatedIDError(error, ids: repeatedIDs.count, duplicateRecords: duplicateRecords, records: count,
                                       offeringOccurrence: options.acceptsDuplicatesOccurrence)
        }
        return table
    }

    /// The error for an input whose ids repeat (`--duplicates error`): where
    /// the first repeat is (`location`, the record whose id an earlier one
    /// at `firstLine` has), and how many ids repeat in how many records.
    package static func repeatedIDError(
        source: String, location: InputLocation?, key: Span<UInt8>, firstLine: Int, ids: Int, duplicateRecords: Int, records: Int
    ) -> InputError {
        repeatedIDError(firstRepeat(source: source, location: location, key: key, firstLine: firstLine),
                        ids: ids, duplicateRecords: duplicateRecords, records: records)
    }

    private static func firstRepeat(source: String, location: InputLocation?, key: Span<UInt8>, firstLine: Int) -> InputError {
        InputError(source: source, location: location, message: "duplicate id \"\(TerminalText.datum(RecordKey.display(key.extracting(0..<min(key.count, 4 * TerminalText.messageDatumLimit)).decoded)))\": the record at line \(firstLine) has it too")
    }

    /// `offeringOccurrence`: whether the advice may name `--duplicates
    /// occurrence` (`RecordOptions.acceptsDuplicatesOccurrence`).
    private static func repeatedIDError(
        _ first: InputError, ids: Int, duplicateRecords: Int, records: Int, offeringOccurrence: Bool = true
    ) -> InputError {
        var error = first
        error.message += ids == 1 && duplicateRecords == 1
            ? "; it is the only repeated id"
            : "; \(ids) \(ids == 1 ? "id repeats" : "ids repeat"), in \(ids + duplicateRecords) of the \(records) records"
        let severalFields = MessagePart.assignment(.id, library: #"["a", "b"]"#, argument: "a,b")
        error.append(offeringOccurrence
            ? [.text(". An "), .setting(.id), .text(" that is unique (several fields: "), severalFields, .text(") or "),
               .assignment(.duplicates, library: ".occurrence", argument: "occurrence"),
               .text(" (the k-th copy matches the k-th) compares them")]
            : [.text(". A merge matches records by an "), .setting(.id), .text(" unique in each file: give one (several fields: "),
               severalFields, .text("), or remove the repeated record")])
        error.repeatsID = true
        return error
    }
    /// The first 16 section names' bytes, hashes and positions in
    /// `sectionNames`: a record's section is found by comparing an integer
    /// per name and its bytes once, with no String made or retained.
    private var sectionBytes: [(hash: UInt64, bytes: [UInt8], position: Int32)] = []
    /// Where the null section stands, once a record has it.
    private var nullSection: Int32?
    /// The names past the first 16 (a section per id, say), by their bytes.
    private var sectionIndex: [SectionName: Int32] = [:]
    /// The keys' bytes so far, to size the key arena from the first records.
    private var keyBytes = 0

    /// Whether keys go into the key index as records come. A part of a file
    /// read on its own leaves them out: the index is built once over the
    /// joined parts (see `RecordTable.indexKeys`).
    private let indexesKeys: Bool

    init(source: String, options: RecordOptions, indexesKeys: Bool = true) {
        self.source = source
        self.options = options
        self.indexesKeys = indexesKeys
    }

    mutating func setFieldNames(_ names: [String]) {
        records.fieldNames = names
        records.raggedRows = options.csvRows == .lenient
    }

    mutating func setSchema(_ names: [String], valueCounts: [Int]) {
        records.schema = names
        records.schemaValueCounts = valueCounts
    }

    mutating func setFieldsFound(_ paths: [FieldPath]) {
        records.fieldsFound = Set(paths)
    }

    mutating func addFieldsFound(_ paths: [FieldPath]) {
        records.fieldsFound.formUnion(paths)
    }

    mutating func setContainerRange(_ range: Range<Int>) {
        records.containerRange = range
    }

    /// Both readers call this before each record, with the offset it ends at:
    /// after the first 1024 records, their average size and the input's size
    /// give an estimate of the record count, and the tables are sized once
    /// (10% over) instead of growing by doubling.
    @inline(__always)
    mutating func sizeAfterFirstRecords(endingAt end: Int, inputSize: Int?) {
        guard records.count == 1024, taken == 0, let inputSize, end > 0 else { return }
        // From the first record's start: a part of a file starts far from offset 0.
        let first = records.byteRange(0).lowerBound
        reserve(inputSize / max(1, (end - first) / 1024) * 11 / 10)
    }

    /// Reserves room for about `count` records (an estimate from the input size).
    mutating func reserve(_ count: Int) {
        guard count > records.count else { return }
        records.reserveCapacity(count)
        if !options.id.isEmpty {
            // Half again the first keys' length: ids often lengthen as they count up
            // (room reserved and never written costs address space, not memory).
            records.keys.reserveCapacity(count, bytesPerKey: records.keys.isEmpty ? 8 : keyBytes * 3 / 2 / records.keys.count + 1)
            if indexesKeys { keyIndex.reserve(count) }
        }
    }

    /// The key text of one record from its id parts (nil without `--id`).
    static func key(_ parts: [String]) -> String? {
        parts.isEmpty ? nil : parts.count == 1 ? parts[0] : RecordKey.join(parts)
    }

    /// The hash of a record's key, with the key index's slot for it asked
    /// for ahead (see `KeyIndex.prefetch`): a reader calls this as soon as it
    /// has read a one-part id, and hands the hash to `append` when the record ends.
    /// (`mutating` though it changes nothing: a reader's builder is a class's
    /// stored property, and a non-mutating call copied the whole builder,
    /// retaining and releasing each of its arrays, once a record.)
    mutating func hashPrefetchingSlot(key: String) -> UInt64 {
        key.withBytes { hashPrefetchingSlot(key: $0) }
    }

    /// `hashPrefetchingSlot(key:)` for a key given as its UTF-8 text.
    mutating func hashPrefetchingSlot(key: Span<UInt8>) -> UInt64 {
        let hash = RecordTable.keyHash(key)
        if indexesKeys { keyIndex.prefetch(hash: hash) }
        return hash
    }

    /// Adds a record. `keyHash`, when given, is `key`'s hash from
    /// `hashPrefetchingSlot(key:)`. Inlined into the readers: called on its
    /// own, it retains and releases the key and the reader once a record.
    @inline(__always)
    mutating func append(
        key: String?, keyHash: UInt64? = nil, section: String?, fingerprint: UInt64, range: Range<Int>, line: Int,
        location: @autoclosure () -> InputLocation
    ) throws {
        guard let key else {
            return try append(keyText: nil, keyHash: keyHash, section: section, fingerprint: fingerprint, range: range, line: line,
                              location: location())
        }
        try key.withBytes {
            try append(keyText: $0, keyHash: keyHash, section: section, fingerprint: fingerprint, range: range, line: line,
                       location: location())
        }
    }

    /// The index of a record's section name in `sectionNames`, added when new.
    /// Out of line: with `--section` only, and kept apart from every
    /// record's path through `append` (inlined into the readers).
    @inline(never)
    private mutating func sectionPosition(_ section: String?) -> Int32 {
        // In text comparisons an empty cell and a null are one thing.
        guard let text = section, !(options.mode.isText && text.isEmpty) else {
            if let nullSection { return nullSection }
            let position = addSection(nil)
            nullSection = position
            return position
        }
        // Few sections, many records: a short scan of the first names seen
        // before hashing every record's section into a dictionary.
        let found: Int32? = text.withBytes { utf8 in
            let hash = StableHash.bytes(utf8, seed: 0x7365_6374)
            for known in sectionBytes where known.hash == hash && known.bytes.span.sameBytes(as: utf8) {
                return known.position
            }
            guard sectionBytes.count < 16 else { return nil }
            let position = addSection(section)
            sectionBytes.append((hash, utf8.array, position))
            return position
        }
        if let found { return found }
        let name = SectionName(text)
        if let known = sectionIndex[name] { return known }
        return addSection(text)
    }

    private mutating func addSection(_ text: String?) -> Int32 {
        let position = Int32(records.sectionNames.count)
        records.sectionNames.append(text)
        sectionIndex[SectionName(text)] = position
        return position
    }

    /// `append(key:...)` for a key given as its UTF-8 text (a CSV reader's
    /// id cell as it lies in the chunk: no String made for it).
    mutating func append(
        keyText utf8: Span<UInt8>?, keyHash: UInt64? = nil, section: String?, fingerprint: UInt64, range: Range<Int>,
        line: Int, location: @autoclosure () -> InputLocation
    ) throws {
        let index = records.count
        if let rowToLocate, rowToLocate == count { locatedRow = location() }
        if let utf8 {
            assert(keyHash == nil || keyHash == RecordTable.keyHash(utf8), "a key hash for another key")
            if indexesKeys, let first = keyIndex.insert(
                row: index, hash: keyHash ?? RecordTable.keyHash(utf8), rowHasKey: { records.keys.key($0, is: utf8) }) {
                if options.duplicates == .error {
                    // Said at the end of the input, with how many ids repeat: the
                    // first duplicate alone does not tell a wrong key from a stray twin.
                    if firstDuplicate == nil {
                        firstDuplicate = Self.firstRepeat(source: source, location: location(), key: utf8, firstLine: records.line(first))
                    }
                    duplicateRecords += 1
                    repeatedIDs.insert(first)
                }
            }
            guard !records.keys.wouldOverflow(adding: utf8.count) else {
                throw InputError(source: source, location: location(), message: "the ids take 4 GiB or more, more than changeset supports")
            }
            records.keys.append(utf8)
            keyBytes += utf8.count
        }
        if options.section != nil { records.sections.append(sectionPosition(section)) }
        guard range.count <= Int(UInt32.max) else {
            throw InputError(source: source, location: location(), message: "a record of 4 GiB or more is more than changeset supports")
        }
        records.append(fingerprint: fingerprint, range: range, line: line)
        if records.count % RecordBudget.chargeInterval == 0, let budget { try budget.charge(RecordBudget.chargeInterval) }
    }

    /// Takes back from the budget what the records read so far charged (the
    /// records are dropped), once: the builder charges no more after it.
    mutating func refundBudget() {
        budget?.refund(records.count / RecordBudget.chargeInterval * RecordBudget.chargeInterval)
        budget = nil
    }
}

/// A reader that fills a table through a `RecordTableBuilder` (the JSON and
/// CSV readers): what `InputFile` asks of a reader, a file larger than
/// memory's batches too.
protocol BuildsRecordTable: AnyObject {
    var builder: RecordTableBuilder { get set }
    /// The input's size, if known: the table is sized from it after the first records.
    var expectedInputSize: Int? { get set }
    func feed(_ bytes: Span<UInt8>) throws
    /// Ends the input and returns the records (those not taken).
    func finish() throws -> RecordTable
}

extension BuildsRecordTable {
    /// The records read since the last call, moved out: a file larger than
    /// memory is handed on a batch at a time (see `RecordTable.takeRows`);
    /// the reader's `finish` returns the rest, with what holds for the whole input.
    func takeRecords() -> RecordTable { builder.takeRecords() }

    /// Records read and not taken yet.
    var heldRecords: Int { builder.heldCount }

    /// The record (counted from the first) whose place `locatedRow` gives once it is read.
    var rowToLocate: Int? {
        get { builder.rowToLocate }
        set { builder.rowToLocate = newValue }
    }

    var locatedRow: InputLocation? { builder.locatedRow }
}

extension CSVRecordReader: BuildsRecordTable {}
extension JSONRecordReader: BuildsRecordTable {}
