import Foundation

/// What a reader keeps of each record: enough to match and compare records,
/// and to find a record's full text again. Stored as parallel arrays (no
/// per-record object) so memory grows with the record count, not record size.
package struct RecordTable: Sendable {
    /// The record's id as key text (see `RecordKey`); empty when no `--id` was given.
    package var keys = RecordKeys()
    /// The index that finds records by key (through `keyHash`): built once
    /// the table is read (`indexKeys`), for the side others are looked up in;
    /// empty until then, and on a side read without one (a comparison's NEW).
    package var keyIndex = KeyIndex()
    /// Index into `sectionNames` per record; empty when no `--section` was
    /// given, and emptied by a comparison once it has grouped the records
    /// (its `oldSections`/`newSections` say where each record is).
    package var sections: [Int32] = []
    /// Section values in order of first appearance; nil is the section of
    /// records whose section field is missing or null.
    package var sectionNames: [String?] = []
    /// Each record's fingerprint of the compared content (see `ValueHasher`)
    /// and its row: the engine's elements (see `Comparison.sections`).
    package private(set) var refs: [RecordRef] = []
    /// Where each record lies in its file, a row a record in one allocation
    /// (see `RowColumns`: a record is added with one capacity check for the
    /// three, not one an array), 7 bytes a record:
    ///
    /// - Where its text starts, in 32 bits: the low 32 bits of the offset.
    ///   Records come in file order, so offsets only grow; `startWraps` lists
    ///   the rows whose offset passed another multiple of 4 GiB (none in a
    ///   file under 4 GiB), and a row's high bits are how many of those come
    ///   at or before it. 4 bytes a record, not 8.
    /// - The length of its text: 16 bits, and lengths of 65,535 bytes and
    ///   more apart in `longLengths` (a single record is smaller than 4 GiB).
    /// - Its line's step from the record before (see `RecordLines`).
    private var places = RowColumns<UInt32, UInt16, UInt8>()
    private var startWraps: [UInt32] = []
    private var longLengths: [Int: UInt32] = [:]
    /// Line of the record's first byte (1-based; 32 bits: fewer than 4G
    /// lines), from the steps in `places`.
    private var lineNumbers = RecordLines()
    /// The header row's names, for CSV and TSV.
    package var fieldNames: [String]?
    /// Whether CSV rows were read with `--csv-rows lenient`: a row read
    /// again may then hold fewer or more cells than `fieldNames`.
    package var raggedRows = false
    /// The snapshot's schema: its top-level field names (CSV: the header) in
    /// order of first appearance, and for each how many records hold a value
    /// for it (not null, not an empty cell).
    package var schema: [String] = []
    package var schemaValueCounts: [Int] = []
    /// The fields named by `--ignore`, `--only` and `--rename` (as written,
    /// patterns too) that at least one record has: a name no side has is
    /// a typo, and an error (see `FieldCheck`).
    package var fieldsFound: Set<FieldPath> = []
    /// JSON: the byte range of the array holding the records, `[` to `]`
    /// inclusive, so `apply` can rewrite just that part of a document.
    package var containerRange: Range<Int>?
    /// How the file is written around its records (line breaks, byte order
    /// mark, final newline, column order), as its reader saw it.
    package var layout: FileLayout?

    package init() {}

    package var count: Int { refs.count }

    /// Record `row`'s fingerprint.
    @inline(__always)
    package func fingerprint(_ row: Int) -> UInt64 { refs[row].fingerprint }

    /// Every record's fingerprint, in order (a new array: for whole-table uses).
    package var fingerprints: [UInt64] { refs.map(\.fingerprint) }

    /// The sum of the records' fingerprints (a change stream's header carries
    /// it): order means nothing to it, and a whole snapshot's is the sum of
    /// its parts'. Summed where they lie: `fingerprints` would copy them
    /// first, 80 MB for 10M records.
    package var fingerprintSum: UInt64 { refs.reduce(0) { $0 &+ $1.fingerprint } }

    /// Where record `row`'s text starts in its file.
    package func start(_ row: Int) -> Int {
        var wraps = 0
        while wraps < startWraps.count && Int(startWraps[wraps]) <= row { wraps += 1 }
        return wraps << 32 | Int(places.first(row))
    }

    package func byteRange(_ index: Int) -> Range<Int> {
        let start = start(index)
        let length = places.second(index)
        return start..<(start + (length == UInt16.max ? Int(longLengths[index]!) : Int(length)))
    }

    /// Adds a record at the end. Records come in file order: `range` starts
    /// at or after the last record's start.
    @inline(__always)
    package mutating func append(fingerprint: UInt64, range: Range<Int>, line: Int) {
        let row = refs.count
        refs.append(RecordRef(fingerprint: fingerprint, row: row))
        if range.lowerBound >> 32 > startWraps.count { noteWraps(row: row, start: range.lowerBound) }
        let length = range.count < Int(UInt16.max) ? UInt16(range.count) : noteLongLength(row: row, range.count)
        places.append(UInt32(truncatingIfNeeded: range.lowerBound), length, lineNumbers.step(row: row, line: line))
    }

    // The rare cases out of line: `append` is inlined into the readers, and kept small.
    @inline(never)
    private mutating func noteWraps(row: Int, start: Int) {
        precondition(row == 0 || start >= self.start(row - 1), "records out of file order")
        startWraps.append(contentsOf: repeatElement(UInt32(row), count: start >> 32 - startWraps.count))
    }

    /// Keeps a length of 65,535 bytes or more apart; returns the mark stored in its place.
    @inline(never)
    private mutating func noteLongLength(row: Int, _ length: Int) -> UInt16 {
        longLengths[row] = UInt32(length)
        return UInt16.max
    }

    /// Makes room for `count` records in all.
    package mutating func reserveCapacity(_ count: Int) {
        refs.reserveCapacity(count)
        places.reserveCapacity(count)
        lineNumbers.reserveCapacity(count)
    }

    /// Moves the records read so far out, leaving what holds for the whole
    /// input (names, schema, sections found): a reader streaming a file larger
    /// than memory hands its records on a batch at a time. The rows read next
    /// count from 0 again; their offsets keep their high bits.
    package mutating func takeRows() -> RecordTable {
        var taken = RecordTable()
        swap(&taken.refs, &refs)
        swap(&taken.places, &places)
        taken.startWraps = startWraps
        // Every row to come starts past the 4 GiB multiples passed so far.
        startWraps = [UInt32](repeating: 0, count: startWraps.count)
        swap(&taken.longLengths, &longLengths)
        swap(&taken.lineNumbers, &lineNumbers)
        swap(&taken.keys, &keys)
        swap(&taken.sections, &sections)
        return taken
    }

    /// What this table knows of the whole input (field names, schema,
    /// fields found, sections found, the records' container), with no rows.
    package var withoutRows: RecordTable {
        var table = RecordTable()
        table.sectionNames = sectionNames
        table.fieldNames = fieldNames
        table.raggedRows = raggedRows
        table.schema = schema
        table.schemaValueCounts = schemaValueCounts
        table.fieldsFound = fieldsFound
        table.containerRange = containerRange
        table.layout = layout
        return table
    }

    /// The line of record `index`'s first byte.
    package func line(_ index: Int) -> Int { lineNumbers.line(index, steps: places) }

    /// Every record's line, in order.
    package var lines: [Int] {
        var lines: [Int] = []
        lines.reserveCapacity(count)
        lineNumbers.forEach(steps: places) { lines.append($0) }
        return lines
    }

    /// Appends the records of `part`, the stretch of the same file that
    /// follows this one, read on its own (see `InputFile.readRecordsInParts`):
    /// its byte ranges are the file's already; its lines count from the
    /// part's start, so `lineOffset` (the line breaks before it) is added.
    /// Sections and schema fields are merged by name, in order of first
    /// appearance. The key index is left to `indexKeys`.
    package mutating func append(part: RecordTable, lineOffset: Int) {
        let rowOffset = count
        reserveCapacity(rowOffset + part.count)
        var row = 0
        part.lineNumbers.forEach(steps: part.places) { line in
            append(fingerprint: part.fingerprint(row), range: part.byteRange(row), line: line + lineOffset)
            row += 1
        }
        keys.append(contentsOf: part.keys)
        if !part.sections.isEmpty || !part.sectionNames.isEmpty {
            var position = Dictionary(uniqueKeysWithValues: sectionNames.enumerated().map { (SectionName($0.element), Int32($0.offset)) })
            let mapped = part.sectionNames.map { name -> Int32 in
                if let known = position[SectionName(name)] { return known }
                let added = Int32(sectionNames.count)
                sectionNames.append(name)
                position[SectionName(name)] = added
                return added
            }
            sections.append(contentsOf: part.sections.lazy.map { mapped[Int($0)] })
        }
        // By bytes, as the readers tell names apart (`String`'s == would take
        // "é" composed and decomposed for one name).
        var field = Dictionary(uniqueKeysWithValues: schema.enumerated().map { (ExactTextKey($0.element), $0.offset) })
        for (name, valueCount) in zip(part.schema, part.schemaValueCounts) {
            if let known = field[ExactTextKey(name)] {
                schemaValueCounts[known] += valueCount
            } else {
                field[ExactTextKey(name)] = schema.count
                schema.append(name)
                schemaValueCounts.append(valueCount)
            }
        }
        fieldsFound.formUnion(part.fieldsFound)
        if fieldNames == nil { fieldNames = part.fieldNames }
        raggedRows = raggedRows || part.raggedRows
        // The byte order mark and the columns are the first part's; the final newline the last one's.
        if let first = layout, let next = part.layout {
            layout = FileLayout(lineEndings: first.lineEndings + next.lineEndings, byteOrderMark: first.byteOrderMark,
                                finalNewline: next.finalNewline, columns: first.columns)
        }
    }

    /// Builds the key index over every record's key, in row order, as a
    /// reader does while it reads; returns whether some key repeats.
    package mutating func indexKeys() -> Bool {
        var index = KeyIndex(capacity: count)
        var repeats = false
        let keys = self.keys
        // A group of keys at a time: each hashed and its slot asked for (a
        // prefetch), then the group inserted while those lines arrive (see
        // `firstRows(withKeysOf:rows:_:)`); one at a time, every insert waited
        // for its cache miss, and this took as long as reading the parts.
        var hashes = InlineArray<16, UInt64>(repeating: 0)
        for groupStart in stride(from: 0, to: count, by: hashes.count) {
            let group = groupStart..<min(groupStart + hashes.count, count)
            for row in group {
                let hash = keys.withKey(row, RecordTable.keyHash)
                hashes[row - groupStart] = hash
                index.prefetch(hash: hash)
            }
            for row in group {
                let first = keys.withKey(row) { key in
                    index.insert(row: row, hash: hashes[row - groupStart], rowHasKey: { keys.key($0, is: key) })
                }
                if first != nil { repeats = true }
            }
        }
        keyIndex = index
        return repeats
    }

    /// The first record with `key` (see `KeyIndex`), if any.
    package func firstRow(withKey key: String) -> Int? {
        firstRow(withKey: key, hash: RecordTable.keyHash(key))
    }

    /// The first record with `key`, whose `keyHash` is `hash`, if any.
    package func firstRow(withKey key: String, hash: UInt64) -> Int? {
        keyIndex.firstRow(hash: hash) { keys.key($0, is: key) }
    }

    /// The first record whose key is the UTF-8 text `key`, if any.
    @inline(__always)
    package func firstRow(withKey key: Span<UInt8>) -> Int? {
        keyIndex.firstRow(hash: RecordTable.keyHash(key)) { keys.key($0, is: key) }
    }

    /// For each of `rows` of `other` whose key this table has, `found(row,
    /// the first row here with that key)`, in order. At a million records
    /// almost every lookup misses the cache, so the rows go a group at a
    /// time: each key of a group is hashed and its slot asked for (a
    /// prefetch), then the group is looked up while those lines arrive.
    package func firstRows(withKeysOf other: RecordTable, rows: Range<Int>, _ found: (Int, Int) -> Void) {
        var hashes = InlineArray<16, UInt64>(repeating: 0)
        for groupStart in stride(from: rows.lowerBound, to: rows.upperBound, by: hashes.count) {
            let group = groupStart..<min(groupStart + hashes.count, rows.upperBound)
            for row in group {
                let hash = other.keys.withKey(row, RecordTable.keyHash)
                hashes[row - groupStart] = hash
                keyIndex.prefetch(hash: hash)
            }
            for row in group {
                let first = other.keys.withKey(row) { key in keyIndex.firstRow(hash: hashes[row - groupStart]) { keys.key($0, is: key) } }
                if let first { found(row, first) }
            }
        }
    }

    package static func keyHash(_ key: String) -> UInt64 {
        StableHash.string(key, seed: keyHashSeed)
    }

    @inline(__always)
    package static func keyHash(_ key: Span<UInt8>) -> UInt64 {
        StableHash.bytes(key, seed: keyHashSeed)
    }

    /// A computed constant, not a `static let`: a stored static is reached
    /// through a lazy-initialisation check on every call, once a key.
    private static var keyHashSeed: UInt64 { 0x6B65_7973 }
}

/// Key text: one id value as text (a string's characters, a number's canonical
/// form, `true`/`false`), so `1` in JSON and `1` in a CSV cell are one id.
/// A composite key joins its parts with U+0000 (a NUL inside a part is
/// written U+0000 U+0001, so parts never run together).
package enum RecordKey {
    package static func join(_ parts: [String]) -> String {
        if parts.count == 1 { return parts[0] }
        return parts.map { $0.replacingOccurrences(of: "\u{0}", with: "\u{0}\u{1}") }
            .joined(separator: "\u{0}\u{0}")
    }

    package static func parts(_ key: String) -> [String] {
        // NUL is a control character, a grapheme of its own: a Character
        // search finds it where its byte is, at the cost of grapheme
        // breaking over the whole key (about 1,100 instructions for a short
        // one, and a report asks once a change).
        guard key.utf8.contains(0) else { return [key] }
        return key.components(separatedBy: "\u{0}\u{0}").map {
            $0.replacingOccurrences(of: "\u{0}\u{1}", with: "\u{0}")
        }
    }

    /// How an id is shown to a person: the parts joined by commas.
    package static func display(_ key: String) -> String {
        parts(key).joined(separator: ",")
    }
}

/// What the engine sees of a record: its fingerprint and its row in its
/// table (the id stays in the table). Two refs are `==` when their
/// fingerprints are, so the engine calls a matched pair with different
/// fingerprints updated. With `--id`, records are matched through the
/// tables' key index; without, a record's content is its identity (`id`).
///
/// Stored as three 32-bit words, so a ref takes 12 bytes, not the 16 a
/// `UInt64` beside an `Int32` would round up to. A `RecordTable` keeps its
/// records' refs, and a comparison without sections hands that same array to
/// the engine, so a fingerprint is held once.
package struct RecordRef: Identifiable, Equatable, Sendable {
    private let fingerprintLow: UInt32
    private let fingerprintHigh: UInt32
    private let storedRow: UInt32

    package init(fingerprint: UInt64, row: Int) {
        precondition(row >= 0 && row <= Int(UInt32.max), "a row past 32 bits")
        fingerprintLow = UInt32(truncatingIfNeeded: fingerprint)
        fingerprintHigh = UInt32(truncatingIfNeeded: fingerprint >> 32)
        storedRow = UInt32(truncatingIfNeeded: row)
    }

    package var fingerprint: UInt64 { UInt64(fingerprintHigh) << 32 | UInt64(fingerprintLow) }
    package var row: Int { Int(storedRow) }

    package var id: UInt64 { fingerprint }

    package static func == (lhs: RecordRef, rhs: RecordRef) -> Bool {
        lhs.fingerprintLow == rhs.fingerprintLow && lhs.fingerprintHigh == rhs.fingerprintHigh
    }
}

/// Each record's line in about a byte a record, not 4: records come in file
/// order, so a record's line is the line of the record before it plus a
/// step, mostly 0 (records side by side, as in a JSON array on one line) or
/// a few (a record a line, a pretty-printed record of a few lines). Every
/// 64th record's line is kept whole, so finding a line adds at most 63 steps.
/// The steps, a byte a record, are kept by the table beside each record's
/// place (the third of `RecordTable.places`); this keeps the rest.
struct RecordLines: Sendable {
    /// The line of records 0, 64, 128, ...
    private var checkpoints: [UInt32] = []
    /// The lines of the records whose step does not fit in a byte (marked 255), by row.
    private var farLines: [Int: UInt32] = [:]
    /// The line of the last record added.
    private var last = 0

    private static let far: UInt8 = 255

    /// The step to store for record `row` (rows come in order, from 0), on `line`.
    @inline(__always)
    mutating func step(row: Int, line: Int) -> UInt8 {
        let step = line - last
        last = line
        if row & 63 == 0 {
            checkpoints.append(UInt32(truncatingIfNeeded: line))
            return 0
        }
        if step >= 0 && step < Int(RecordLines.far) { return UInt8(step) }
        return noteFar(row: row, line)
    }

    @inline(never)
    private mutating func noteFar(row: Int, _ line: Int) -> UInt8 {
        farLines[row] = UInt32(truncatingIfNeeded: line)
        return RecordLines.far
    }

    /// Record `row`'s line, with `steps` the table's places (steps third).
    func line<First, Second>(_ row: Int, steps: RowColumns<First, Second, UInt8>) -> Int {
        var line = Int(checkpoints[row >> 6])
        var next = (row & ~63) + 1
        while next <= row {
            let step = steps.third(next)
            line = step == RecordLines.far ? Int(farLines[next]!) : line + Int(step)
            next += 1
        }
        return line
    }

    /// Calls `body` with every record's line, in order (each step read once).
    func forEach<First, Second>(steps: RowColumns<First, Second, UInt8>, _ body: (Int) -> Void) {
        var line = 0
        for row in 0..<steps.count {
            if row & 63 == 0 {
                line = Int(checkpoints[row >> 6])
            } else {
                let step = steps.third(row)
                line = step == RecordLines.far ? Int(farLines[row]!) : line + Int(step)
            }
            body(line)
        }
    }

    mutating func reserveCapacity(_ count: Int) {
        checkpoints.reserveCapacity(count / 64 + 1)
    }
}
