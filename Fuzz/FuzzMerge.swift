// libFuzzer target merge: three snapshots BASE, OURS and THEIRS, merged as
// `changeset merge` merges them (MergeCommand, DatasetMerge.run), in memory.
//
// Where the snapshots come from, by the input's first byte:
// - a control byte other than tab, LF and CR: a generator driven by the
//   bytes after it makes a BASE of records with ids, and OURS and THEIRS as
//   edits of it (deleted, changed, nested-changed, moved, re-keyed and
//   inserted records; arrays of objects, keyed by `id` or not, with
//   elements changed, deleted, moved and inserted; CSV columns removed, added and moved; THEIRS sometimes
//   edits OURS rather than BASE, so both sides make the same change), written
//   as JSON arrays, NDJSON, CSV, TSV, JSON documents with the records at
//   `data` (`--records-at data`) or JSON and NDJSON mixed (the first byte
//   says which; the later bytes say how each side is written: indentation,
//   escapes, CR LF, a byte order mark, quoting);
// - anything else: the input as text, BASE 0x00 OURS 0x00 THEIRS (without
//   two 0x00 bytes, cut in thirds), each side's format as InputFile.sniff sees it.
//
// Each is merged with identity by content and with `--id id`. Errors the
// library throws while reading the three are expected; once they read, these
// must hold (MergeTests' laws, and what MergeCommand and the man page promise):
// - merge(BASE, X, X) is X's records, in X's order, for X = OURS and THEIRS;
//   merge(BASE, BASE, X) is X's records in X's order; merge(BASE, X, BASE)
//   is X's records in X's order; none of them conflicts. Records are
//   compared by fingerprint (the comparison's equality) and, with `--id`, by key.
// - Swapping OURS and THEIRS gives as many conflicts, of the same kinds with
//   deleted-by-ours and deleted-by-theirs swapped.
// - With `--prefer ours` and `--prefer theirs`: the same number of conflicts,
//   all resolved (no conflict record); without conflicts, the same records.
// - A result without unresolved conflicts, written by MergeWriter, reads back
//   in OURS's format with the same options, and its records are the merged
//   records in order: each one taken from a side has that record's
//   fingerprint (and key), each merged one its value's fingerprint. In a
//   CSV result, THEIRS's record may lack a cell in a column OURS removed
//   when BASE's record holds the same value there (OURS removed it, THEIRS
//   left it alone: MergeWriter.csvColumns), and only then.
// A result with unresolved conflicts is written with markers (it must not
// trap) but not read back: it is not a dataset until resolved by hand.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let inputs: MergeInputs?
    if let first = bytes.first, first < 0x20, first != 0x09, first != 0x0A, first != 0x0D {
        var generator = MergeGenerator(shape: first, bytes: bytes.dropFirst())
        inputs = generator.inputs()
    } else {
        inputs = MergeInputs(splitting: bytes)
    }
    guard let inputs else { return 0 }
    for id in [[], [FieldPath(["id"])]] {
        MergeCheck(inputs, id: id)?.run()
    }
    return 0
}

// MARK: - The three inputs

/// BASE, OURS and THEIRS as bytes, with their formats.
struct MergeInputs {
    var texts: [[UInt8]]
    var formats: [InputFormat]
    var recordsAt: FieldPath?
    var origin: String

    init(texts: [[UInt8]], formats: [InputFormat], recordsAt: FieldPath?, origin: String) {
        self.texts = texts
        self.formats = formats
        self.recordsAt = recordsAt
        self.origin = origin
    }

    /// The raw input as BASE 0x00 OURS 0x00 THEIRS (else in thirds); nil
    /// when `changeset merge` would refuse the three before reading them.
    init?(splitting bytes: [UInt8]) {
        var parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map(Array.init)
        if parts.count < 3 {
            let third = bytes.count / 3
            parts = [Array(bytes[..<third]), Array(bytes[third..<(2 * third)]), Array(bytes[(2 * third)...])]
        }
        // As InputFile.open: a UTF-16 or UTF-32 input is refused by name.
        if parts.contains(where: { ForeignEncoding(Array($0.prefix(1 << 16))) != nil }) { return nil }
        let formats = parts.map { part in InputFile.sniff(part.span, recordsAt: nil) }
        // As DatasetMerge.run: all JSON/NDJSON or all CSV/TSV (an empty BASE takes OURS's).
        if formats[2].isJSON != formats[1].isJSON || (!parts[0].isEmpty && formats[0].isJSON != formats[1].isJSON) { return nil }
        self.init(texts: parts, formats: formats, recordsAt: nil, origin: "raw input")
    }

    /// The three texts, escaped, for a failure message (write each to a file to reproduce).
    var shown: String {
        zip(["BASE", "OURS", "THEIRS"], zip(texts, formats)).map { name, side in
            "\(name) (\(side.1.rawValue)): \(String(decoding: side.0, as: UTF8.self).debugDescription)\n\(name) (hex): \(hex(side.0))"
        }.joined(separator: "\n")
    }
}

// MARK: - The checks

/// The three snapshots read with one set of options, and the checks on their merges.
struct MergeCheck {
    let inputs: MergeInputs
    let options: MergeOptions
    let base: Snapshot
    let ours: Snapshot
    let theirs: Snapshot
    /// Whether BASE is empty (a snapshot without records that cannot stand in for OURS or THEIRS).
    let baseIsEmpty: Bool

    /// Reads the three as DatasetMerge.run does; nil when one does not read.
    init?(_ inputs: MergeInputs, id: [FieldPath]) {
        var options = MergeOptions()
        options.records.id = id
        options.records.recordsAt = inputs.recordsAt
        options.records.mode = inputs.formats[1].isJSON ? .typed : .text
        options.records.appliesRenames = true
        self.inputs = inputs
        self.options = options
        func read(_ side: Int, _ name: String) throws -> Snapshot {
            let format = inputs.texts[side].isEmpty && side == 0 ? inputs.formats[1] : inputs.formats[side]
            let input = InputFile(name: name, bytes: InputBytes(copying: inputs.texts[side]), format: format)
            let delimiter: UInt8 = format == .tsv ? 0x09 : UInt8(ascii: ",")
            // An empty BASE (git's add/add merge has none) is a snapshot without records.
            if side == 0 && input.bytes.isEmpty { return Snapshot(input: input, records: RecordTable(), delimiter: delimiter) }
            return Snapshot(input: input, records: try input.readRecords(options.records, delimiter: delimiter), delimiter: delimiter)
        }
        guard let base = try? read(0, "base"), let ours = try? read(1, "ours"), let theirs = try? read(2, "theirs") else { return nil }
        self.base = base
        self.ours = ours
        self.theirs = theirs
        baseIsEmpty = inputs.texts[0].isEmpty
    }

    var mode: String {
        "\(inputs.origin), \(options.records.id.isEmpty ? "by content" : "--id id")"
            + (inputs.recordsAt.map { " --records-at \($0)" } ?? "")
    }

    func fail(_ what: String, _ detail: String) -> Never {
        fatalError("merge (\(mode)): \(what)\n\(detail)\n\(inputs.shown)")
    }

    /// merge(b, o, t) with `prefer`; the three have read, so an error here is a bug.
    func merge(_ b: Snapshot, _ o: Snapshot, _ t: Snapshot, prefer: MergePreference? = nil, label: String) -> DatasetMerge {
        var options = options
        options.prefer = prefer
        do {
            return try DatasetMerge(base: b, ours: o, theirs: t, options: options)
        } catch {
            fail("\(label) throws, though the three snapshots read", "\(error)")
        }
    }

    func run() {
        let main = merge(base, ours, theirs, label: "merge(BASE, OURS, THEIRS)")
        let swapped = merge(base, theirs, ours, label: "merge(BASE, THEIRS, OURS)")
        checkSymmetry(main, swapped)
        checkWritten(main, label: "merge(BASE, OURS, THEIRS)")
        checkWritten(swapped, label: "merge(BASE, THEIRS, OURS)")
        for prefer in MergePreference.allCases {
            let label = "merge(BASE, OURS, THEIRS) --prefer \(prefer.rawValue)"
            let resolved = merge(base, ours, theirs, prefer: prefer, label: label)
            if resolved.result.hasUnresolvedConflicts || resolved.result.records.contains(where: \.isConflict) {
                fail("\(label) leaves a conflict unresolved", "records: \(resolved.result.records)\nconflicts: \(resolved.result.conflicts)")
            }
            if resolved.result.conflicts.count != main.result.conflicts.count {
                fail("\(label) lists \(resolved.result.conflicts.count) conflicts, without --prefer \(main.result.conflicts.count)",
                     "with: \(resolved.result.conflicts)\nwithout: \(main.result.conflicts)")
            }
            if main.result.conflicts.isEmpty && resolved.result.records != main.result.records {
                fail("\(label) changes a merge that has no conflicts", "with: \(resolved.result.records)\nwithout: \(main.result.records)")
            }
            checkWritten(resolved, label: label)
        }
        for (name, side) in [("OURS", ours), ("THEIRS", theirs)] {
            checkLaw(merge(base, side, side, label: "merge(BASE, \(name), \(name))"), equals: side, law: "merge(BASE, \(name), \(name))")
            guard !baseIsEmpty else { continue }
            checkLaw(merge(base, base, side, label: "merge(BASE, BASE, \(name))"), equals: side, law: "merge(BASE, BASE, \(name))")
            checkLaw(merge(base, side, base, label: "merge(BASE, \(name), BASE)"), equals: side, law: "merge(BASE, \(name), BASE)")
        }
    }

    /// Conflicts do not depend on which side is OURS: as many, of the same kinds (deleted-by swapped).
    func checkSymmetry(_ main: DatasetMerge, _ swapped: DatasetMerge) {
        func kinds(_ conflicts: [MergeConflict], swapping: Bool) -> [String] {
            conflicts.map { conflict in
                switch (conflict.kind, swapping) {
                case (.deletedByOurs, true): MergeConflict.Kind.deletedByTheirs.rawValue
                case (.deletedByTheirs, true): MergeConflict.Kind.deletedByOurs.rawValue
                default: conflict.kind.rawValue
                }
            }.sorted()
        }
        let a = main.result.conflicts, b = swapped.result.conflicts
        if a.count != b.count {
            fail("merge(BASE, OURS, THEIRS) has \(a.count) conflicts, merge(BASE, THEIRS, OURS) \(b.count)", "first: \(a)\nswapped: \(b)")
        }
        if kinds(a, swapping: false) != kinds(b, swapping: true) {
            fail("swapping OURS and THEIRS changes the kinds of conflicts", "first: \(a)\nswapped: \(b)")
        }
    }

    /// One record of a result: its key (with `--id`; nil for a merged record) and fingerprint.
    struct Entry: Equatable, CustomStringConvertible {
        var key: String?
        var fingerprint: UInt64
        var from: String

        var description: String { "\(from) key=\(key.map { $0.debugDescription } ?? "-") fp=\(String(fingerprint, radix: 16))" }

        func matches(_ other: Entry) -> Bool {
            guard fingerprint == other.fingerprint else { return false }
            guard let key, let otherKey = other.key else { return true }
            return Array(key.utf8) == Array(otherKey.utf8)
        }
    }

    func entries(of table: RecordTable, from: String) -> [Entry] {
        (0..<table.count).map { row in
            Entry(key: options.records.id.isEmpty ? nil : table.keys[row], fingerprint: table.fingerprints[row], from: "\(from)[\(row)]")
        }
    }

    /// The merged records as entries; nil for a conflict record.
    func entries(of merge: DatasetMerge) -> [Entry?] {
        let keyed = !options.records.id.isEmpty
        return merge.result.records.map { record in
            switch record {
            case .ours(let row):
                Entry(key: keyed ? merge.ours.records.keys[row] : nil, fingerprint: merge.ours.records.fingerprints[row], from: "ours[\(row)]")
            case .theirs(let row):
                Entry(key: keyed ? merge.theirs.records.keys[row] : nil, fingerprint: merge.theirs.records.fingerprints[row], from: "theirs[\(row)]")
            case .merged(let value):
                Entry(key: nil, fingerprint: value.contentHash(mode: options.records.mode), from: "merged \(value.jsonText)")
            case .conflict:
                nil
            }
        }
    }

    /// THEIRS's record at `row` as a CSV result holds it: a cell in a column
    /// OURS removed is left out where the result has no such column and
    /// BASE's record has the same value there (OURS removed it, THEIRS did
    /// not change it: MergeWriter.csvColumns); nil when nothing is left out.
    func csvEntry(_ merge: DatasetMerge, theirsRow row: Int, header: [String]) -> Entry? {
        func has(_ names: [String]?, _ name: String) -> Bool { (names ?? []).contains { ExactText.same($0, name) } }
        guard case .object(let members)? = try? merge.theirs.value(ofRecord: row) else { return nil }
        let baseMembers: [Value.Member]
        if let baseRow = merge.baseRow(ofTheirs: row), case .object(let found)? = try? merge.base.value(ofRecord: baseRow) {
            baseMembers = found
        } else {
            baseMembers = []
        }
        let left = members.filter { member in
            guard !has(header, member.name), !member.value.isEmptyText else { return true }
            let removedByOurs = has(merge.base.records.fieldNames, member.name) && !has(merge.ours.records.fieldNames, member.name)
            let unchanged = baseMembers.contains { ExactText.same($0.name, member.name) && $0.value.isEquivalent(to: member.value, mode: .text) }
            return !(removedByOurs && unchanged)
        }
        guard left.count < members.count else { return nil }
        return Entry(key: options.records.id.isEmpty ? nil : merge.theirs.records.keys[row],
                     fingerprint: Value.object(left).contentHash(mode: .text),
                     from: "theirs[\(row)] less the cells OURS's removal of their columns left out")
    }

    func checkLaw(_ merge: DatasetMerge, equals side: Snapshot, law: String) {
        let expected = entries(of: side.records, from: side.input.name)
        let found = entries(of: merge)
        let same = merge.result.conflicts.isEmpty && found.count == expected.count
            && zip(found, expected).allSatisfy { found, expected in found.map { $0.matches(expected) } ?? false }
        if !same {
            fail("\(law) is not \(side.input.name.uppercased())'s records in its order",
                 "expected: \(expected)\nfound: \(found.map { $0?.description ?? "conflict" })\nconflicts: \(merge.result.conflicts)")
        }
        // Spelled as that side spells them too: a respelling (`2.50` -> `2.5`) is a change the law carries.
        for (index, record) in merge.result.records.enumerated() {
            let spelling: UInt64?
            switch record {
            case .ours(let row): spelling = try? merge.ours.spelling(ofRecord: row)
            case .theirs(let row): spelling = try? merge.theirs.spelling(ofRecord: row)
            case .merged, .conflict: spelling = nil
            }
            guard let spelling else { continue }
            if spelling != (try? side.spelling(ofRecord: index)) {
                fail("\(law) does not spell record \(index) as \(side.input.name.uppercased()) does", "records: \(merge.result.records)")
            }
        }
    }

    /// Writes the result; without unresolved conflicts it must read back as the merged records.
    func checkWritten(_ merge: DatasetMerge, label: String) {
        var output = ""
        let unresolved = merge.result.hasUnresolvedConflicts
        do {
            try MergeWriter(merge).write(to: &output, markers: unresolved ? MergeWriter.Markers() : nil)
        } catch {
            fail("writing \(label) throws", "\(error)")
        }
        guard !unresolved else { return }
        var expected = entries(of: merge)
        let input = InputFile(name: "result", bytes: InputBytes(copying: Array(output.utf8)), format: merge.ours.input.format)
        let table: RecordTable
        do {
            table = try input.readRecords(options.records, delimiter: merge.ours.delimiter)
        } catch {
            fail("the result of \(label) does not read back", "\(error)\nresult: \(output.debugDescription)\nrecords: \(expected)")
        }
        let found = entries(of: table, from: "result")
        if !merge.ours.input.format.isJSON, let header = table.fieldNames {
            expected = expected.enumerated().map { index, entry in
                guard case .theirs(let row) = merge.result.records[index] else { return entry }
                return csvEntry(merge, theirsRow: row, header: header) ?? entry
            }
        }
        let same = found.count == expected.count
            && zip(expected, found).allSatisfy { expected, found in expected.map { $0.matches(found) } ?? false }
        if !same {
            fail("the result of \(label) reads back as other records than the merge made",
                 "merged: \(expected.map { $0?.description ?? "conflict" })\nread back: \(found)\nresult: \(output.debugDescription)")
        }
    }
}

// MARK: - The generator

/// The fuzzer's bytes, one at a time; zeros once they run out.
struct ByteSource {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = Array(bytes)
    }

    mutating func next() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// A number in 0..<n.
    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next()) % n }

    mutating func chance(_ oneIn: Int) -> Bool { below(oneIn) == 0 }
}

/// A generated snapshot: records as members in order, a CSV header, and the
/// version of the JSON document around the records (`--records-at data`).
struct GeneratedSnapshot {
    var records: [[Value.Member]] = []
    var columns: [String] = []
    var document = 1
}

/// BASE, OURS and THEIRS made from the fuzzer's bytes (see the file's comment).
struct MergeGenerator {
    enum Shape: Int, CaseIterable {
        case json, ndjson, csv, tsv, document, mixed
    }

    var source: ByteSource
    let shape: Shape

    init(shape byte: UInt8, bytes: ArraySlice<UInt8>) {
        shape = Shape(rawValue: Int(byte) % Shape.allCases.count)!
        source = ByteSource(bytes)
    }

    var flat: Bool { shape == .csv || shape == .tsv }

    static let names = ["a", "b", "c", "n", "\u{E9}", "e\u{301}"]
    static let nestedNames = ["d", "e"]
    static let cells = ["", "1", "2", "1.0", "x", "\u{E9}", "e\u{301}", "a,b", "q\"q", "l\nl", " ", "true", "null", "01", "-0", "y"]

    mutating func inputs() -> MergeInputs {
        let base = makeBase()
        let ours = edit(base)
        let theirs = edit(source.chance(4) ? ours : base)
        var texts: [[UInt8]] = []
        var formats: [InputFormat] = []
        for (index, snapshot) in [base, ours, theirs].enumerated() {
            let format: InputFormat = switch shape {
            case .json, .document: .json
            case .ndjson: .ndjson
            case .csv: .csv
            case .tsv: .tsv
            case .mixed: source.chance(2) ? .json : .ndjson
            }
            // Now and then an empty BASE, as git gives for a file both sides added.
            if index == 0 && source.chance(16) {
                texts.append([])
            } else {
                texts.append(write(snapshot, format: format))
            }
            formats.append(format)
        }
        return MergeInputs(texts: texts, formats: formats, recordsAt: shape == .document ? FieldPath(["data"]) : nil,
                           origin: "generated \(shape)")
    }

    // MARK: Records

    mutating func makeBase() -> GeneratedSnapshot {
        var snapshot = GeneratedSnapshot()
        if flat {
            snapshot.columns = ["id"] + ["a", "b", "c"].filter { _ in !source.chance(4) }
            if snapshot.columns.count > 1 && source.chance(4) { snapshot.columns.swapAt(0, snapshot.columns.count - 1) }
        }
        for id in 0..<source.below(7) {
            snapshot.records.append(newRecord(id: id, columns: snapshot.columns))
        }
        return snapshot
    }

    mutating func idValue(_ id: Int) -> Value {
        if flat { return .string(source.chance(8) ? "0\(id)" : "\(id)") }
        switch source.below(8) {
        case 0: return .string("\(id)")
        case 1: return .number("\(id).0")
        default: return .number("\(id)")
        }
    }

    mutating func newRecord(id: Int, columns: [String]) -> [Value.Member] {
        if flat {
            return columns.map { Value.Member(name: $0, value: $0 == "id" ? idValue(id) : cell()) }
        }
        var members = [Value.Member(name: "id", value: idValue(id))]
        for name in ["a", "b", "c"] where !source.chance(4) {
            members.append(Value.Member(name: name, value: jsonValue(depth: 0)))
        }
        if !source.chance(3) { members.append(Value.Member(name: "p", value: objectArray())) }
        if members.count > 1 && source.chance(8) { members.swapAt(0, members.count - 1) }
        return members
    }

    mutating func cell() -> Value { .string(Self.cells[source.below(Self.cells.count)]) }

    mutating func jsonValue(depth: Int) -> Value {
        switch source.below(16) {
        case 0: .number("1")
        case 1: .number("2")
        case 2: .number("1.0")
        case 3: .number("10e-1")
        case 4: .string("1")
        case 5: .string("")
        case 6: .null
        case 7: .bool(true)
        case 8: .string("x")
        case 9: .string("\u{E9}")
        case 10: .string("e\u{301}")
        case 11 where depth < 2:
            .object(Self.nestedNames.filter { _ in !source.chance(3) }.map { Value.Member(name: $0, value: jsonValue(depth: depth + 1)) })
        case 12: .array([.number("1"), .string("x")])
        case 13: .object([])
        case 14: .string("a,b\"c\nd")
        default: .number("-0")
        }
    }

    /// An array of objects, keyed (each holds a unique `id`) or not: what
    /// `ElementPairing` pairs, in a diff and in a merge alike.
    mutating func objectArray() -> Value {
        let keyed = !source.chance(3)
        return .array((0..<source.below(5)).map { element(id: keyed ? $0 : nil) })
    }

    mutating func element(id: Int?) -> Value {
        var members = [Value.Member(name: "q", value: jsonValue(depth: 2))]
        if !source.chance(3) { members.append(Value.Member(name: "r", value: jsonValue(depth: 2))) }
        if let id { members.insert(Value.Member(name: "id", value: .number("\(id)")), at: source.below(members.count + 1)) }
        return .object(members)
    }

    /// The record's array of objects edited inside: elements changed,
    /// deleted, moved and inserted (an inserted id may repeat one, and then
    /// the array is no longer keyed).
    mutating func changeArray(_ record: [Value.Member]) -> [Value.Member] {
        var record = record
        guard let index = Self.index(of: "p", in: record), case .array(var elements) = record[index].value else {
            record.append(Value.Member(name: "p", value: objectArray()))
            return record
        }
        let keyed = elements.contains { if case .object(let members) = $0 { Self.index(of: "id", in: members) != nil } else { false } }
        for at in elements.indices.reversed() {
            switch source.below(5) {
            case 0: elements.remove(at: at)
            case 1:
                guard case .object(var members) = elements[at], let q = Self.index(of: "q", in: members) else { break }
                members[q].value = jsonValue(depth: 2)
                elements[at] = .object(members)
            case 2 where elements.count > 1: elements.insert(elements.remove(at: at), at: source.below(elements.count))
            default: break
            }
        }
        for _ in 0..<source.below(3) {
            elements.insert(element(id: keyed ? 3 + source.below(6) : nil), at: source.below(elements.count + 1))
        }
        record[index].value = .array(elements)
        return record
    }

    static func index(of name: String, in members: [Value.Member]) -> Int? {
        members.firstIndex { ExactText.same($0.name, name) }
    }

    /// One side's edit of `start`: columns, then each record, then moves and insertions.
    mutating func edit(_ start: GeneratedSnapshot) -> GeneratedSnapshot {
        var snapshot = start
        if flat {
            editColumns(&snapshot)
        } else if source.chance(4) {
            snapshot.document += 1 + source.below(2)
        }
        var records: [[Value.Member]] = []
        var moved: [[Value.Member]] = []
        for record in snapshot.records {
            switch source.below(10) {
            case 0: continue
            case 1, 2: records.append(setField(record, columns: snapshot.columns))
            case 3: records.append(removeField(record))
            case 4: moved.append(record)
            case 5: records.append(flat ? setField(record, columns: snapshot.columns) : changeNested(record))
            case 6: records.append(rekey(record))
            case 7 where !flat: records.append(changeArray(record))
            default: records.append(record)
            }
        }
        for record in moved { records.insert(record, at: source.below(records.count + 1)) }
        for _ in 0..<source.below(3) {
            records.insert(newRecord(id: 5 + source.below(4), columns: snapshot.columns), at: source.below(records.count + 1))
        }
        snapshot.records = records
        return snapshot
    }

    mutating func editColumns(_ snapshot: inout GeneratedSnapshot) {
        switch source.below(8) {
        case 0:
            let column = snapshot.columns[source.below(snapshot.columns.count)]
            guard column != "id" else { return }
            snapshot.columns.removeAll { ExactText.same($0, column) }
            snapshot.records = snapshot.records.map { $0.filter { !ExactText.same($0.name, column) } }
        case 1:
            let column = Self.names[source.below(Self.names.count)]
            guard !snapshot.columns.contains(where: { ExactText.same($0, column) }) else { return }
            snapshot.columns.insert(column, at: source.below(snapshot.columns.count + 1))
            for index in snapshot.records.indices where source.chance(2) {
                snapshot.records[index].append(Value.Member(name: column, value: cell()))
            }
        case 2:
            let column = snapshot.columns.remove(at: source.below(snapshot.columns.count))
            snapshot.columns.insert(column, at: source.below(snapshot.columns.count + 1))
        default:
            break
        }
    }

    mutating func setField(_ record: [Value.Member], columns: [String]) -> [Value.Member] {
        var record = record
        let fields = flat ? columns.filter { $0 != "id" } : Self.names
        let name = fields.isEmpty ? "id" : fields[source.below(fields.count)]
        guard name != "id" else { return record }
        let value = flat ? cell() : jsonValue(depth: 0)
        if let index = Self.index(of: name, in: record) {
            record[index].value = value
        } else {
            record.insert(Value.Member(name: name, value: value), at: source.below(record.count + 1))
        }
        return record
    }

    mutating func removeField(_ record: [Value.Member]) -> [Value.Member] {
        guard record.count > 1 else { return record }
        var record = record
        let index = source.below(record.count)
        guard record[index].name != "id" else { return record }
        // A CSV row has every column: removing a field empties its cell.
        if flat { record[index].value = .string("") } else { record.remove(at: index) }
        return record
    }

    mutating func changeNested(_ record: [Value.Member]) -> [Value.Member] {
        var record = record
        let name = ["a", "b", "c"][source.below(3)]
        let nestedName = Self.nestedNames[source.below(Self.nestedNames.count)]
        let inner = jsonValue(depth: 1)
        guard let index = Self.index(of: name, in: record) else {
            record.append(Value.Member(name: name, value: .object([Value.Member(name: nestedName, value: inner)])))
            return record
        }
        if case .object(var members) = record[index].value {
            if let at = Self.index(of: nestedName, in: members) {
                if source.chance(3) { members.remove(at: at) } else { members[at].value = inner }
            } else {
                members.append(Value.Member(name: nestedName, value: inner))
            }
            record[index].value = .object(members)
        } else {
            record[index].value = .object([Value.Member(name: nestedName, value: inner)])
        }
        return record
    }

    mutating func rekey(_ record: [Value.Member]) -> [Value.Member] {
        var record = record
        guard let index = Self.index(of: "id", in: record) else { return record }
        record[index].value = idValue(source.below(9))
        return record
    }

    // MARK: Text

    /// The snapshot in `format`, in a style the next bytes choose.
    mutating func write(_ snapshot: GeneratedSnapshot, format: InputFormat) -> [UInt8] {
        let style = source.next()
        let lineEnding = style & 1 != 0 ? "\r\n" : "\n"
        let finalLineEnding = style & 2 == 0
        let asciiOnly = style & 4 != 0
        let spaced = style & 8 != 0
        let bom = style & 0x30 == 0x30
        var text = bom ? "\u{FEFF}" : ""
        switch format {
        case .csv, .tsv:
            let delimiter: Unicode.Scalar = format == .tsv ? "\t" : ","
            let quoteAll = style & 0x40 != 0
            func row(_ cells: [String]) -> String {
                cells.map { Self.csvQuoted($0, delimiter: delimiter, always: quoteAll) }.joined(separator: String(Character(delimiter)))
            }
            var lines = [row(snapshot.columns)]
            for record in snapshot.records {
                lines.append(row(snapshot.columns.map { column in
                    guard let index = Self.index(of: column, in: record), case .string(let cell) = record[index].value else { return "" }
                    return cell
                }))
            }
            text += lines.joined(separator: lineEnding) + (finalLineEnding ? lineEnding : "")
        case .ndjson:
            let lines = snapshot.records.map { Self.json(.object($0), asciiOnly: asciiOnly, spaced: spaced, indent: nil) }
            text += lines.joined(separator: lineEnding) + (finalLineEnding ? lineEnding : "")
        case .json:
            let indent: String? = style & 0x80 != 0 ? "  " : nil
            let records = snapshot.records.map { Self.json(.object($0), asciiOnly: asciiOnly, spaced: spaced, indent: indent.map { $0 + "  " }) }
            let pretty = indent != nil || spaced
            var array = records.isEmpty ? "[]" : pretty ? "[\n  " + records.joined(separator: ",\n  ") + "\n]" : "[" + records.joined(separator: ",") + "]"
            if shape == .document { array = "{\"v\":\(snapshot.document),\"data\":\(array)}" }
            // JSON text holds no raw line break inside a string: every \n is structure.
            text += Self.replacing("\n", in: array, with: lineEnding) + (finalLineEnding ? lineEnding : "")
        }
        return Array(text.utf8)
    }

    /// `text` with each `scalar` replaced (by scalars: a quote followed by a combining mark is still a quote).
    static func replacing(_ scalar: Unicode.Scalar, in text: String, with replacement: String) -> String {
        var result = ""
        for each in text.unicodeScalars {
            if each == scalar { result += replacement } else { result.unicodeScalars.append(each) }
        }
        return result
    }

    static func csvQuoted(_ text: String, delimiter: Unicode.Scalar, always: Bool) -> String {
        let special = text.unicodeScalars.contains { $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == delimiter }
        guard always || special else { return text }
        return "\"" + replacing("\"", in: text, with: "\"\"") + "\""
    }

    /// JSON text for a generated value: compact or spaced, members on lines of their own with `indent`.
    static func json(_ value: Value, asciiOnly: Bool, spaced: Bool, indent: String?) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return jsonString(text, asciiOnly: asciiOnly)
        case .array(let elements):
            return "[" + elements.map { json($0, asciiOnly: asciiOnly, spaced: spaced, indent: nil) }.joined(separator: spaced ? ", " : ",") + "]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let parts = members.map { member in
                jsonString(member.name, asciiOnly: asciiOnly) + (spaced ? ": " : ":")
                    + json(member.value, asciiOnly: asciiOnly, spaced: spaced, indent: indent.map { $0 + "  " })
            }
            if let indent {
                return "{\n" + parts.map { indent + $0 }.joined(separator: ",\n") + "\n" + String(indent.dropLast(2)) + "}"
            }
            return "{" + parts.joined(separator: spaced ? ", " : ",") + "}"
        }
    }

    static func jsonString(_ text: String, asciiOnly: Bool) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || (asciiOnly && scalar.value > 0x7E) {
                    result += scalar.utf16.map { "\\u" + String(repeating: "0", count: 4 - String($0, radix: 16).count) + String($0, radix: 16) }.joined()
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
