/// Comparing inputs larger than memory (`--memory-limit`): the records go to
/// temporary files as they are read, split by a hash of their id into
/// partitions; each partition pair is matched on its own, into one 4-byte
/// old position per new record; the engine's flat diff finds the moves with
/// its predecessor links in a file. Only the records a report can show (the
/// changed ones and the first 1000 of each side, which the field checks
/// sample) go into small tables: their ids and fingerprints taken as the
/// partition pairs are matched (a moved record's in one more pass over the
/// partitions, when records moved), their places in the input from a file
/// of 16 bytes a record. The comparison then goes on as in memory: the same
/// changeset (positions are the files'), the same report, byte for byte.
///
/// What it takes: `--id` (records matched by content need every fingerprint
/// at once), no `--section`, `--duplicates error`. Memory: the matching (4
/// bytes a new record), a few bits a record, the subsequence's tails (4
/// bytes a record on it), a partition pair a core, and the changes.
extension Comparison {
    /// Bytes of memory a record of each side takes in a comparison in memory,
    /// about (10M against 10M records took 765 MB), for `estimatedMemory`.
    static let bytesPerRecordInMemory = 48

    /// Whether `options` allow a comparison in partitions (see above).
    static func canPartition(_ options: ComparisonOptions) -> Bool {
        !options.records.id.isEmpty && options.records.section == nil && options.records.duplicates == .error
    }

    /// About how much memory comparing the inputs in memory takes: their
    /// record counts, from their sizes and the records in `sampleCount`
    /// samples of 64 KiB spread through each (`recordStarts`), at
    /// `bytesPerRecordInMemory`. Samples through the whole file, not its
    /// first bytes alone: a large first record, or a JSON array on one line,
    /// made those say a record or none. An input whose size is not known
    /// before it is read (a stream, a compressed file) counts for nothing
    /// here: the readers count records as they go (`RecordBudget`).
    static func estimatedMemory(_ inputs: [InputFile]) throws -> Int {
        var total = 0
        for (index, input) in inputs.enumerated() where !inputs[..<index].contains(where: input.isSameInput) {
            guard let size = input.bytes.knownCount, size > 0 else { continue }
            let window = 1 << 16
            let starts = size <= sampleCount * window
                ? [0]
                : (0..<sampleCount).map { (size - window) / (sampleCount - 1) * $0 }
            var sampled = 0
            var records = 0
            for start in starts {
                let sample = try input.bytes.copy(start..<min(size, start + (starts.count == 1 ? size : window)))
                sampled += sample.count
                records += recordStarts(in: sample, format: input.format)
            }
            // No record start in any sample: each lies inside a record, so records are larger than a sample.
            let bytesPerRecord = records == 0 ? max(sampled / starts.count, 1) : max(1, sampled / records)
            total += (size / bytesPerRecord + 1) * bytesPerRecordInMemory
        }
        return total
    }

    /// Samples of each input `estimatedMemory` reads.
    static let sampleCount = 16

    /// About how many records start in `bytes`, a piece of an input cut
    /// anywhere: NDJSON, CSV and TSV a record a line; a JSON array a record
    /// after each `}` `,` `{` (white space between), which holds for one
    /// record a line, pretty-printed and on one line alike. A quoted line
    /// break, objects in an array inside a record, or such text in a string
    /// count too: the estimate errs towards more records, never fewer.
    static func recordStarts(in bytes: [UInt8], format: InputFormat) -> Int {
        // Each mark found with memchr: a byte at a time, this count took
        // about 17 instructions a byte, 35 M for the two inputs' 2 MiB of
        // samples, before any record was read.
        let span = bytes.span
        let mark = format == .json ? UInt8(ascii: "{") : 0x0A
        var count = 0
        var next = 0
        while let found = span.firstIndex(of: mark, from: next) {
            next = found + 1
            if format != .json || Self.followsClosedObjectAndComma(found, in: span) { count += 1 }
        }
        return count
    }

    /// Whether the `{` at `position` comes after a `}` and a `,`, with only
    /// white space between them (and none of the three before the piece's start).
    private static func followsClosedObjectAndComma(_ position: Int, in bytes: Span<UInt8>) -> Bool {
        var index = position - 1
        func skipWhiteSpace() {
            while index >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index -= 1 }
        }
        skipWhiteSpace()
        guard index >= 0, bytes[index] == UInt8(ascii: ",") else { return false }
        index -= 1
        skipWhiteSpace()
        return index >= 0 && bytes[index] == UInt8(ascii: "}")
    }

    /// The number of partitions for inputs of about `bytes` under `limit`:
    /// the pairs held at once (one a core) take about a quarter of the limit.
    static func partitionCount(bytes: Int, limit: Int, cores: Int = ProcessFacts.workerCount) -> Int {
        min(128, max(1, bytes / max(1, limit / (4 * max(1, cores))) + 1))
    }

    /// One input read past memory: its records in temporary files.
    struct SpilledSide: Sendable {
        /// The input's name, for errors.
        let source: String
        var count = 0
        /// The sum of every record's fingerprint (a change stream's header
        /// carries it; the tables read back hold only some records).
        var fingerprintSum: UInt64 = 0
        /// Per partition, per record: row (32 bits), fingerprint (64), key
        /// length (32), key bytes.
        var partitions: [SpillFile]
        /// Per row, `rowEntrySize` bytes: start (64 bits), length (32), line
        /// (32). A row's id and fingerprint are its partition entry's.
        var rows: SpillFile
        /// Bytes of all the ids, which share one arena of 4 GiB as a table's in memory do.
        var keyBytes = 0
        /// What holds for the whole input (names, schema, fields found): a table of no rows.
        var whole = RecordTable()

        static let rowEntrySize = 16

        init(source: String, partitions: Int) throws {
            self.source = source
            self.partitions = try (0..<partitions).map { _ in try SpillFile(bufferSize: 1 << 16) }
            rows = try SpillFile()
        }

        /// Writes a batch of records away; their rows follow the ones before.
        mutating func add(_ batch: RecordTable) throws {
            let lines = batch.lines
            // (A matched old row travels with a flag in its top bit: 31 bits a row.)
            guard count + batch.count < Int(Int32.max) else {
                throw InputError(source: source, location: nil,
                                 parts: [.text("more than 2G records past "), .setting(.memoryLimit), .text(" is more than changeset supports")])
            }
            // The ids share one arena of 4 GiB, as a table's in memory do (so do the kept ones, a part of them).
            guard keyBytes + batch.keys.byteCount <= Int(UInt32.max) else {
                throw InputError(source: source, location: nil, message: "the ids take 4 GiB or more, more than changeset supports")
            }
            for row in 0..<batch.count {
                let position = UInt32(count + row)
                let fingerprint = batch.fingerprint(row)
                fingerprintSum &+= fingerprint
                let range = batch.byteRange(row)
                try batch.keys.withKey(row) { key in
                    // The hash's low half scaled to the partitions (no division); the key
                    // index within a partition places keys by the high half.
                    let partition = Int(((RecordTable.keyHash(key) & 0xFFFF_FFFF) &* UInt64(partitions.count)) >> 32)
                    try partitions[partition].appendEntry(row: position, fingerprint: fingerprint, key: key)
                    try rows.appendRow(start: UInt64(range.lowerBound), length: UInt32(range.count), line: UInt32(truncatingIfNeeded: lines[row]))
                }
            }
            keyBytes += batch.keys.byteCount
            count += batch.count
        }

        /// Writes the reader's last records away and keeps what it knows of
        /// the whole input (not the table itself: a table read back would
        /// count its offsets from the 4 GiB multiples the file passed).
        mutating func finish(_ last: RecordTable) throws {
            var last = last
            try add(last.takeRows())
            whole = last.withoutRows
            for index in partitions.indices { try partitions[index].finishWriting() }
            try rows.finishWriting()
        }

        /// Whether an id repeats (each partition read back and indexed).
        func repeatsKey() throws -> Bool {
            try partitions.contains { try IndexedPartition($0).repeats }
        }

        /// The ids and fingerprints of the records at `positions` (ascending)
        /// that `collected` lacks, added to it from one pass over the
        /// partitions, read `chunk` bytes at a time.
        func collectMissing(_ positions: [Int32], into collected: inout CollectedEntries, chunk: Int = 1 << 20) throws {
            var missing = Bitmap(count: count)
            for position in positions { missing.insert(Int(position)) }
            for position in collected.positions { missing.remove(Int(position)) }
            guard !missing.isEmpty else { return }
            // A chunk at a time (the entry it ends in the middle of read again with the next): no partition held whole.
            for partition in partitions {
                var offset = 0
                while offset < partition.size {
                    let bytes = try partition.read(at: offset, count: min(chunk, partition.size - offset))
                    var whole = 0
                    while whole + 16 <= bytes.count, whole + 16 + Int(bytes.uint32(at: whole + 12)) <= bytes.count {
                        whole += 16 + Int(bytes.uint32(at: whole + 12))
                    }
                    if whole == 0 {
                        // One entry larger than a chunk (a long id): read whole.
                        let header = bytes.count >= 16 ? bytes : try partition.read(at: offset, count: 16)
                        guard header.count >= 16 else { throw SpillFile.endedEarly }
                        whole = 16 + Int(header.uint32(at: 12))
                    }
                    let entries = whole <= bytes.count ? Array(bytes[..<whole]) : try partition.read(at: offset, count: whole)
                    guard entries.count == whole else { throw SpillFile.endedEarly }
                    try Comparison.forEachEntry(entries) { row, fingerprint, key in
                        if missing.contains(Int(row)) { collected.add(row, fingerprint, key) }
                    }
                    offset += whole
                }
            }
        }

        /// The table of the records at `kept` (positions, ascending): row k
        /// of it is the record at `kept[k]`, its place read back from `rows`,
        /// its id and fingerprint from `collected`, which holds those of
        /// every kept record (in any order).
        func keptTable(_ kept: [Int32], _ collected: CollectedEntries) throws -> RecordTable {
            let order = collected.positions.indices.sorted { collected.positions[$0] < collected.positions[$1] }
            guard order.count == kept.count, zip(order, kept).allSatisfy({ collected.positions[$0] == UInt32($1) }) else {
                throw InputError(source: source, location: nil, message: "the ids of the changed records were not all found again in the temporary files")
            }
            var table = whole
            table.reserveCapacity(kept.count)
            var rowWindow = Window(file: rows)
            for (position, entryIndex) in zip(kept, order) {
                let entry = try rowWindow.load(Int(position) * Self.rowEntrySize, count: Self.rowEntrySize)
                let row = rowWindow.bytes
                let start = Int(row.uint64(at: entry))
                let range = start..<(start + Int(row.uint32(at: entry + 8)))
                collected.keys.withKey(entryIndex) { table.keys.append($0) }
                table.append(fingerprint: collected.fingerprints[entryIndex], range: range, line: Int(row.uint32(at: entry + 12)))
            }
            return table
        }
    }

    /// Some records of one side, as the passes over its partitions meet
    /// them: position, fingerprint and id, in the order met.
    struct CollectedEntries: Sendable {
        var positions: [UInt32] = []
        var fingerprints: [UInt64] = []
        var keys = RecordKeys()

        init() {}

        /// The entries of `file`, written as a partition's are.
        init(_ file: SpillFile) throws {
            let bytes = try file.read(at: 0, count: file.size)
            guard bytes.count == file.size else { throw SpillFile.endedEarly }
            try Comparison.forEachEntry(bytes) { row, fingerprint, key in add(row, fingerprint, key) }
        }

        mutating func add(_ position: UInt32, _ fingerprint: UInt64, _ key: Span<UInt8>) {
            positions.append(position)
            fingerprints.append(fingerprint)
            keys.append(key)
        }

    }

    /// Reads a spill file forward through a window of 64 KiB (or one entry,
    /// if larger): sparse reads cost a read each, dense ones a read a window.
    struct Window {
        let file: SpillFile
        var start = 0
        var bytes: [UInt8] = []

        init(file: SpillFile) { self.file = file }

        /// Makes `bytes` hold the file's `count` bytes at `offset`; returns where they start in it.
        mutating func load(_ offset: Int, count: Int) throws -> Int {
            if offset < start || offset + count > start + bytes.count {
                start = offset
                bytes = try file.read(at: offset, count: max(count, 1 << 16))
                guard bytes.count >= count else {
                    throw SpillFile.endedEarly
                }
            }
            return offset - start
        }
    }

    /// Predecessor links in a temporary file: 4 bytes a new record, written in
    /// order, read back from the end through a window (see `PredecessorLinks`).
    struct SpilledPredecessors: PredecessorLinks {
        var file: SpillFile
        var window: [UInt8] = []
        var windowStart = 0
        var flushed = false

        mutating func append(_ predecessor: Int32) throws {
            try file.append(UInt32(bitPattern: predecessor))
        }

        mutating func predecessor(of position: Int) throws -> Int32 {
            if !flushed {
                try file.finishWriting()
                flushed = true
            }
            let offset = position * 4
            if offset < windowStart || offset + 4 > windowStart + window.count {
                // Positions come in decreasing order: the window ends at this one.
                windowStart = max(0, offset + 4 - (1 << 20))
                window = try file.read(at: windowStart, count: offset + 4 - windowStart)
                guard window.count == offset + 4 - windowStart else {
                    throw SpillFile.endedEarly
                }
            }
            return Int32(bitPattern: window.uint32(at: offset - windowStart))
        }
    }

    /// Compares two inputs in partitions (see above); `partitions` of them.
    static func runPartitioned(_ oldInput: InputFile, _ newInput: InputFile, options: ComparisonOptions, partitions: Int) throws -> Comparison {
        let inputs = [oldInput, newInput]
        // A file a partition a side, beside each side's rows and kept entries, and the links.
        let partitions = max(1, (SpillFile.roomForOpenFiles(2 * partitions + 5) - 5) / 2)
        // One input on both sides is read once (as OLD), and its files stand for both.
        let same = oldInput.isSameInput(as: newInput)
        var read = try OrderedConcurrentMap.mapEachOnItsOwnThread(Array(inputs.prefix(same ? 1 : 2).enumerated())) { side, input in
            Result<SpilledSide, any Error> {
                var records = options.records
                records.appliesRenames = side == 1
                var spilled = try SpilledSide(source: input.name, partitions: partitions)
                let last = try input.readWhole(records, delimiter: input.format.delimiter(options.delimiter), indexesKeys: false) {
                    try spilled.add($0)
                }
                try spilled.finish(last)
                return spilled
            }
        }
        if same { read.append(read[0]) }
        if case .failure = read[1], case .success(let old) = read[0], try old.repeatsKey() {
            // In memory OLD's ids are indexed as it is read: a repeat there is said before NEW's error.
            try throwRepeatedID(old, oldInput, sideIndex: 0, options: options)
        }
        var spilled = try read.map { try $0.get() }
        // `spilled` alone holds the files now, so emptying it frees them (and their page cache).
        read = []
        let (oldCount, newCount) = (spilled[0].count, spilled[1].count)
        let fingerprintSums = (old: spilled[0].fingerprintSum, new: spilled[1].fingerprintSum)
        // The changes carry positions for now; their rows in the kept tables come below.
        // (The matching is the closure's, freed when the engine is done with it.)
        var keptEntries: [SpillFile] = []
        var changeset: SectionedChangeset<SectionName, RecordRef> = try {
            let matching = try match(spilled[0], spilled[1], oldInput: oldInput, newInput: newInput, options: options)
            keptEntries = matching.kept
            var links = SpilledPredecessors(file: try SpillFile())
            return try Differ.flatDiff(
                oldCount: oldCount, matching: matching.oldOfNew, links: &links,
                isUpdated: matching.updated.contains,
                element: { RecordRef(fingerprint: 0, row: $0) })
        }()

        // The records a report may read: the changed ones, and the first 1000 a side.
        var oldKept = Bitmap(count: oldCount)
        var newKept = Bitmap(count: newCount)
        for position in 0..<min(oldCount, keptFirst) { oldKept.insert(position) }
        for position in 0..<min(newCount, keptFirst) { newKept.insert(position) }
        for deletion in changeset.deletions { oldKept.insert(deletion.at.item) }
        for insertion in changeset.insertions { newKept.insert(insertion.at.item) }
        for update in changeset.updates {
            oldKept.insert(update.old.item)
            newKept.insert(update.new.item)
        }
        for move in changeset.moves {
            oldKept.insert(move.from.item)
            newKept.insert(move.to.item)
        }
        let oldPositions = oldKept.members
        let newPositions = newKept.members
        // The matching wrote away the ids of every kept record but the moved
        // ones: theirs come from one more pass over the partitions, when records moved.
        // Both sides read back at once (each reads its files start to end);
        // the files go with the closure, before the inputs are read again.
        let tables = try { () throws -> [RecordTable] in
            let sides = [(spilled[0], oldPositions, keptEntries[0]), (spilled[1], newPositions, keptEntries[1])]
            spilled = []
            keptEntries = []
            let read = try OrderedConcurrentMap.mapEachOnItsOwnThread(same ? Array(sides.prefix(1)) : sides) { side, positions, entries in
                var found = try CollectedEntries(entries)
                try side.collectMissing(positions, into: &found)
                return try side.keptTable(positions, found)
            }
            // One input on both sides: nothing changed, so both hold the same positions (and the files are one).
            return same ? [read[0], read[0]] : read
        }()
        let (oldTable, newTable) = (tables[0], tables[1])
        // The changes' records by their rows in the kept tables.
        func newRef(_ position: Int) -> RecordRef {
            let row = KeptPositions.row(of: position, in: newPositions)
            return RecordRef(fingerprint: newTable.fingerprint(row), row: row)
        }
        for index in changeset.insertions.indices { changeset.insertions[index].element = newRef(changeset.insertions[index].at.item) }
        for index in changeset.updates.indices { changeset.updates[index].element = newRef(changeset.updates[index].new.item) }
        for index in changeset.moves.indices { changeset.moves[index].element = newRef(changeset.moves[index].to.item) }

        let delimiters = inputs.map { $0.format.delimiter(options.delimiter) }
        let mixed = oldInput.format.isJSON != newInput.format.isJSON
        let oldSnapshot = Snapshot(input: oldInput, records: oldTable, delimiter: delimiters[0], flattensObjects: mixed && oldInput.format.isJSON,
                                   recordCount: oldCount)
        let newSnapshot = Snapshot(input: newInput, records: newTable, delimiter: delimiters[1],
                                   renames: newInput.format.isJSON ? options.records.renames : [],
                                   flattensObjects: mixed && newInput.format.isJSON, recordCount: newCount)
        return try Comparison(old: oldSnapshot, new: newSnapshot, options: options,
                              kept: KeptPositions(old: oldPositions, new: newPositions, fingerprintSums: fingerprintSums), changeset: changeset)
    }

    /// The records of each side a report may read whatever changed: the first ones.
    static let keptFirst = 1000

    /// Each new record's old position (-1: none) and whether it was updated
    /// (a bit a new record), partition pair by partition pair, a pair a core;
    /// and per side a file of the entries (as a partition's) of the records
    /// the tables keep that the matching tells (deleted, inserted, updated,
    /// the first `keptFirst`): written away, since the diff that comes next
    /// takes the most memory. A repeated id is the error a comparison in
    /// memory gives (each input read again by a reader that indexes ids, OLD first).
    private static func match(
        _ old: SpilledSide, _ new: SpilledSide, oldInput: InputFile, newInput: InputFile, options: ComparisonOptions
    ) throws -> (oldOfNew: [Int32], updated: Bitmap, kept: [SpillFile]) {
        var oldOfNew = [Int32](repeating: -1, count: new.count)
        var updated = Bitmap(count: new.count)
        var kept = [try SpillFile(), try SpillFile()]
        var oldRepeats = false
        var newRepeats = false
        // A group of pairs at once, one a core: each pair's matches (a few MB) are held until scattered.
        for group in stride(from: 0, to: old.partitions.count, by: ProcessFacts.workerCount) {
            let pairs = Array(group..<min(group + ProcessFacts.workerCount, old.partitions.count))
            for result in try OrderedConcurrentMap.map(pairs, { try matchPartition($0, old, new) }) {
                oldRepeats = oldRepeats || result.oldRepeats
                newRepeats = newRepeats || result.newRepeats
                for (side, entries) in [result.oldKept, result.newKept].enumerated() {
                    for index in entries.positions.indices {
                        try entries.keys.withKey(index) { try kept[side].appendEntry(row: entries.positions[index], fingerprint: entries.fingerprints[index], key: $0) }
                    }
                }
                for (newRow, oldRow) in result.matches {
                    // The old row's top bit says the pair differs.
                    oldOfNew[Int(newRow)] = Int32(bitPattern: oldRow & 0x7FFF_FFFF)
                    if oldRow & 0x8000_0000 != 0 { updated.insert(Int(newRow)) }
                }
            }
        }
        if oldRepeats { try throwRepeatedID(old, oldInput, sideIndex: 0, options: options) }
        if newRepeats { try throwRepeatedID(new, newInput, sideIndex: 1, options: options) }
        for side in kept.indices { try kept[side].finishWriting() }
        return (oldOfNew, updated, kept)
    }

    /// The error a comparison in memory gives for an id that repeats in
    /// `input`, found in its partitions: which record first has an id an
    /// earlier one has, that one's line, how many ids repeat in how many
    /// records; the repeat's place (line and column) from reading the input
    /// again, a batch at a time, as a reader in memory would place it.
    private static func throwRepeatedID(_ side: SpilledSide, _ input: InputFile, sideIndex: Int, options: ComparisonOptions) throws -> Never {
        var ids = Set<UInt32>()
        var duplicateRecords = 0
        var first: (row: UInt32, firstRow: UInt32, key: [UInt8])?
        for partition in side.partitions {
            let indexed = try IndexedPartition(partition)
            for duplicate in indexed.duplicates {
                let firstRow = indexed.rows[duplicate.first]
                ids.insert(firstRow)
                duplicateRecords += 1
                if first.map({ duplicate.row < $0.row }) ?? true {
                    first = (duplicate.row, firstRow, indexed.keys.withKey(duplicate.first) { $0.array })
                }
            }
        }
        guard let first else { throw InputFile.changed(input.name) }
        var rows = Window(file: side.rows)
        let entry = try rows.load(Int(first.firstRow) * SpilledSide.rowEntrySize, count: SpilledSide.rowEntrySize)
        let firstLine = Int(rows.bytes.uint32(at: entry + 12))
        var records = options.records
        records.appliesRenames = sideIndex == 1
        var location: InputLocation?
        _ = try input.readWhole(records, delimiter: input.format.delimiter(options.delimiter), indexesKeys: false,
                                batches: { _ in }, locating: Int(first.row)) { location = $0 }
        var error = RecordTableBuilder.repeatedIDError(
            source: input.name, location: location, key: first.key.span, firstLine: firstLine,
            ids: ids.count, duplicateRecords: duplicateRecords, records: side.count)
        // No composite key is looked for: that takes a comparison in memory.
        error.repeatsID = false
        throw error
    }

    /// One side's partition, read back with its ids indexed.
    struct IndexedPartition {
        var keys = RecordKeys()
        var rows: [UInt32] = []
        var fingerprints: [UInt64] = []
        var index: KeyIndex
        /// Entries whose id an earlier entry has: the entry's row, and the
        /// earlier entry's place here (entries are in file order).
        var duplicates: [(row: UInt32, first: Int)] = []
        var repeats: Bool { !duplicates.isEmpty }

        init(_ file: SpillFile) throws {
            let bytes = try file.read(at: 0, count: file.size)
            guard bytes.count == file.size else {
                throw SpillFile.endedEarly
            }
            var entries = 0
            try forEachEntry(bytes) { _, _, _ in entries += 1 }
            rows.reserveCapacity(entries)
            fingerprints.reserveCapacity(entries)
            index = KeyIndex(capacity: entries)
            try forEachEntry(bytes) { row, fingerprint, key in
                let local = rows.count
                rows.append(row)
                fingerprints.append(fingerprint)
                keys.append(key)
                if let first = index.insert(row: local, hash: RecordTable.keyHash(key), rowHasKey: { keys.key($0, is: key) }) {
                    duplicates.append((row, first))
                }
            }
        }
    }

    /// One partition pair matched: (new row, old row with the top bit set
    /// when the two differ) per match, whether an id repeats on a side, and
    /// the entries of the records a report may read on each side (unmatched,
    /// differing, or among the first `keptFirst`).
    private static func matchPartition(
        _ partition: Int, _ oldSide: SpilledSide, _ new: SpilledSide
    ) throws -> (matches: [(UInt32, UInt32)], oldRepeats: Bool, newRepeats: Bool, oldKept: CollectedEntries, newKept: CollectedEntries) {
        let old = try IndexedPartition(oldSide.partitions[partition])
        var newRepeats = false
        let newEntries = try new.partitions[partition].read(at: 0, count: new.partitions[partition].size)
        guard newEntries.count == new.partitions[partition].size else {
            throw SpillFile.endedEarly
        }
        var taken = Bitmap(count: old.rows.count)
        var differing = Bitmap(count: old.rows.count)
        var matches: [(UInt32, UInt32)] = []
        matches.reserveCapacity(old.rows.count)
        var newKept = CollectedEntries()
        // New ids OLD does not have, kept to find one that repeats.
        var unmatchedKeys = RecordKeys()
        var unmatched = KeyIndex(capacity: 16)
        try forEachEntry(newEntries) { row, fingerprint, key in
            let hash = RecordTable.keyHash(key)
            if let local = old.index.firstRow(hash: hash, rowHasKey: { old.keys.key($0, is: key) }) {
                if taken.contains(local) { newRepeats = true }
                taken.insert(local)
                let differs = old.fingerprints[local] != fingerprint
                if differs { differing.insert(local) }
                if differs || row < keptFirst { newKept.add(row, fingerprint, key) }
                matches.append((row, old.rows[local] | (differs ? 0x8000_0000 : 0)))
            } else {
                newKept.add(row, fingerprint, key)
                let position = unmatchedKeys.count
                unmatchedKeys.append(key)
                if unmatched.insert(row: position, hash: hash, rowHasKey: { unmatchedKeys.key($0, is: key) }) != nil { newRepeats = true }
            }
        }
        var oldKept = CollectedEntries()
        for local in old.rows.indices where !taken.contains(local) || differing.contains(local) || old.rows[local] < keptFirst {
            old.keys.withKey(local) { oldKept.add(old.rows[local], old.fingerprints[local], $0) }
        }
        return (matches, old.repeats, newRepeats, oldKept, newKept)
    }

    /// Calls `body` with each entry of a partition file (see `SpilledSide`).
    static func forEachEntry(_ bytes: [UInt8], _ body: (UInt32, UInt64, Span<UInt8>) throws -> Void) throws {
        var offset = 0
        let span = bytes.span
        while offset < bytes.count {
            guard offset + 16 <= bytes.count else { throw SpillFile.endedEarly }
            let length = Int(bytes.uint32(at: offset + 12))
            guard offset + 16 + length <= bytes.count else {
                throw SpillFile.endedEarly
            }
            try body(bytes.uint32(at: offset), bytes.uint64(at: offset + 4), span.extracting((offset + 16)..<(offset + 16 + length)))
            offset += 16 + length
        }
    }
}

/// In a comparison in partitions, the positions (ascending) of the records
/// each side's table holds: row k of OLD's table is the record at `old[k]`.
package struct KeptPositions: Sendable {
    let old: [Int32]
    let new: [Int32]
    /// Per side, the sum of every record's fingerprint, kept or not.
    let fingerprintSums: (old: UInt64, new: UInt64)

    /// The row of the record at `position` in a table holding `positions`.
    static func row(of position: Int, in positions: [Int32]) -> Int {
        var low = 0
        var high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if Int(positions[middle]) < position { low = middle + 1 } else { high = middle }
        }
        precondition(low < positions.count && Int(positions[low]) == position, "a record the comparison did not keep")
        return low
    }
}
