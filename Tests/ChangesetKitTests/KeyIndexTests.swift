import Foundation
import Testing
@testable import ChangesetKit

@Suite struct KeyIndexTests {
    /// Keys whose hashes collide are still told apart by their text.
    @Test func collidingHashesNeverMatchTheWrongKey() {
        var keys: [String] = []
        var index = KeyIndex()
        // Every key gets one of two hashes, with the same tag: the worst case for the table.
        for (row, key) in ["a", "b", "c", "a", "d", "b", "a"].enumerated() {
            let hash: UInt64 = key < "c" ? 7 : 8
            let first = index.insert(row: row, hash: hash, rowHasKey: { keys[$0] == key })
            #expect(first == ["a": 0, "b": 1][key].flatMap { $0 < row ? $0 : nil }, "\(key) at \(row)")
            keys.append(key)
        }
        #expect(index.firstRow(hash: 7) { keys[$0] == "b" } == 1)
        #expect(index.firstRow(hash: 8) { keys[$0] == "d" } == 4)
        #expect(index.firstRow(hash: 7) { keys[$0] == "e" } == nil)
        // The chain of a repeated key, in row order.
        #expect(index.nextRow(after: 0) == 3 && index.nextRow(after: 3) == 6 && index.nextRow(after: 6) == nil)
        #expect(index.nextRow(after: 1) == 5 && index.nextRow(after: 2) == nil)
    }

    @Test func growsPastItsFirstSize() {
        var keys: [String] = []
        var hashes: [UInt64] = []
        var index = KeyIndex()
        for row in 0..<10_000 {
            let key = "k\(row)"
            let hash = RecordTable.keyHash(key)
            #expect(index.insert(row: row, hash: hash, rowHasKey: { keys[$0] == key }) == nil)
            keys.append(key)
            hashes.append(hash)
        }
        for row in stride(from: 0, to: 10_000, by: 97) {
            #expect(index.firstRow(hash: hashes[row]) { keys[$0] == keys[row] } == row)
        }
    }

    /// Repeated keys keep their chains, and every key its first row, through
    /// the table's growth (from 16 slots, several times, to sizes that are no
    /// power of two) and through a reserve made after rows came.
    @Test func chainsOfRepeatedKeysSurviveGrowth() {
        var keys: [String] = []
        var index = KeyIndex()
        for row in 0..<20_000 {
            if row == 5_000 { index.reserve(30_000) }
            let key = "id-\(row % 7_000)"
            let first = index.insert(row: row, hash: RecordTable.keyHash(key), rowHasKey: { keys[$0] == key })
            #expect(first == (row < 7_000 ? nil : row % 7_000))
            keys.append(key)
        }
        #expect(index.distinctCount == 7_000)
        for id in stride(from: 0, to: 7_000, by: 13) {
            let key = "id-\(id)"
            #expect(index.firstRow(hash: RecordTable.keyHash(key)) { keys[$0] == key } == id)
            var chain = [id]
            while let next = index.nextRow(after: chain.last!) { chain.append(next) }
            #expect(chain == Array(stride(from: id, to: 20_000, by: 7_000)))
        }
        #expect(index.firstRow(hash: RecordTable.keyHash("id-7000")) { keys[$0] == "id-7000" } == nil)
    }

    /// NEW's index gives up its hash table once read; the counts and the
    /// chains of repeated keys (what key hints read) stay.
    @Test func removingLookupsKeepsCountsAndChains() {
        var keys: [String] = []
        var index = KeyIndex()
        for row in 0..<1_000 {
            let key = "id-\(row % 300)"
            index.insert(row: row, hash: RecordTable.keyHash(key), rowHasKey: { keys[$0] == key })
            keys.append(key)
        }
        let repeated = index.rowsWithRepeatedKeys
        index.removeLookups()
        #expect(index.distinctCount == 300)
        #expect(index.rowsWithRepeatedKeys == repeated && repeated == Array(0..<1_000))
        #expect(index.nextRow(after: 5) == 305)
    }
}

@Suite struct RecordTableTests {
    /// Offsets are kept in 32 bits with the rows where they pass a multiple
    /// of 4 GiB: byte ranges past 4 GiB, a first record past it, a gap of
    /// more than 4 GiB between two records, and records of 64 KiB and more
    /// come back exactly.
    @Test(arguments: [0, 1 << 32 + 7, 3 << 32])
    func byteRangesPast4GiBComeBackExactly(firstStart: Int) {
        var table = RecordTable()
        var starts: [Int] = []
        var start = firstStart
        // Lengths are 16 bits with the long ones (64 KiB and up) kept apart.
        func length(_ row: Int) -> Int { row % 97 == 5 ? 65_535 + row : row % 89 == 3 ? 65_534 : 100 + row % 3 }
        for row in 0..<2_000 {
            starts.append(start)
            table.append(fingerprint: UInt64(row), range: start..<(start + length(row)), line: row + 1)
            // Most records follow closely; a few jump across a 4 GiB boundary, one by more than 8 GiB.
            start += row == 1_500 ? 9 << 30 : row % 400 == 399 ? 3 << 30 : length(row) + 1
        }
        for row in 0..<2_000 {
            #expect(table.byteRange(row) == starts[row]..<(starts[row] + length(row)))
            #expect(table.line(row) == row + 1 && table.fingerprint(row) == UInt64(row) && table.refs[row].row == row)
        }
        #expect(table.count == 2_000 && table.fingerprints == (0..<2_000).map(UInt64.init))
    }

    /// Lines are kept as steps of a byte from every 64th record's line:
    /// records side by side (step 0), a record a line, pretty-printed records,
    /// and steps of 255 lines or more come back exactly.
    @Test func linesComeBackFromTheirSteps() {
        var random = SplitMix(seed: 0x4C49_4E45)
        var table = RecordTable()
        var lines: [Int] = []
        var line = 1 + random.next(upTo: 3)
        for row in 0..<5_000 {
            switch random.next(upTo: 10) {
            case 0: line += 255 + random.next(upTo: 100_000)
            case 1, 2: break
            case 3: line += 254
            default: line += 1 + random.next(upTo: 12)
            }
            lines.append(line)
            table.append(fingerprint: UInt64(row), range: row..<(row + 1), line: line)
        }
        #expect(table.lines == lines)
        for row in stride(from: 0, to: 5_000, by: 7) { #expect(table.line(row) == lines[row]) }
    }

    /// A copy of a table (what a builder hands out while it reads on) keeps
    /// its rows as they were while the original grows past its reserved
    /// room: starts, lengths (long ones too) and lines are copied on write.
    @Test func aCopyKeepsItsRowsWhileTheOriginalGrows() {
        func length(_ row: Int) -> Int { row % 50 == 7 ? 70_000 + row : 10 + row % 5 }
        var table = RecordTable()
        table.reserveCapacity(100)
        var start = 0
        var starts: [Int] = []
        for row in 0..<1_000 {
            if row == 300 {
                let copy = table
                for more in 300..<1_000 {
                    starts.append(start)
                    table.append(fingerprint: UInt64(more), range: start..<(start + length(more)), line: 2 * more + 1)
                    start += length(more)
                }
                #expect(copy.count == 300 && copy.lines == (0..<300).map { 2 * $0 + 1 })
                for old in 0..<300 { #expect(copy.byteRange(old) == starts[old]..<(starts[old] + length(old))) }
                break
            }
            starts.append(start)
            table.append(fingerprint: UInt64(row), range: start..<(start + length(row)), line: 2 * row + 1)
            start += length(row)
        }
        #expect(table.count == 1_000 && table.lines == (0..<1_000).map { 2 * $0 + 1 })
        for row in 0..<1_000 { #expect(table.byteRange(row) == starts[row]..<(starts[row] + length(row))) }
    }
}

@Suite struct RowColumnsTests {
    /// Rows come back as they went in across growth from empty and past a
    /// reserved capacity; a copy shares the rows until either changes, then
    /// each keeps its own.
    @Test func rowsSurviveGrowthAndCopiesAreIndependent() {
        var columns = RowColumns<UInt32, UInt16, UInt8>()
        #expect(columns.count == 0)
        for row in 0..<40 { columns.append(UInt32(row) << 8, UInt16(row), UInt8(row & 0xFF)) }
        columns.reserveCapacity(64)
        for row in 40..<1_000 { columns.append(UInt32(row) << 8, UInt16(row), UInt8(row & 0xFF)) }
        var copy = columns
        copy.append(7, 7, 7)
        columns.append(9, 9, 9)
        #expect(columns.count == 1_001 && copy.count == 1_001)
        #expect(columns.first(1_000) == 9 && copy.first(1_000) == 7 && copy.second(1_000) == 7 && columns.third(1_000) == 9)
        for row in 0..<1_000 {
            #expect(columns.first(row) == UInt32(row) << 8 && columns.second(row) == UInt16(row) && columns.third(row) == UInt8(row & 0xFF))
            #expect(copy.first(row) == columns.first(row) && copy.second(row) == columns.second(row) && copy.third(row) == columns.third(row))
        }
        // Reserving on a shared copy gives it rows of its own too.
        var reserved = copy
        reserved.reserveCapacity(5_000)
        reserved.append(1, 2, 3)
        #expect(copy.count == 1_001 && reserved.count == 1_002 && reserved.third(1_001) == 3 && reserved.first(1_000) == 7)
    }
}

@Suite struct RecordKeysTests {
    /// `RecordKey.parts` finds the separator by its byte, not by Character:
    /// a NUL is a grapheme of its own, so the two agree, next to a combining
    /// mark too; a one-part key with no NUL is itself.
    @Test func partsSplitWhatJoinJoined() {
        let keyParts: [[String]] = [
            ["1"], ["é"], ["e\u{301}"], ["a", "b"], ["", ""], ["a\u{0}b", "c"], ["\u{0}\u{301}", "x\u{0}"], ["\u{0}", "\u{0}\u{1}", "\u{301}"],
        ]
        for parts in keyParts {
            #expect(RecordKey.parts(RecordKey.join(parts)) == parts)
        }
    }

    /// Keys come back as they went in, short or long, empty, non-ASCII or
    /// composite (with U+0000 inside), and compare with a String byte for byte.
    @Test func keysComeBackAsTheyWentIn() {
        let texts = ["1", "", "550e8400-e29b-41d4-a716-446655440000", "é", "e\u{301}", RecordKey.join(["a", "b\u{0}c"]),
                     String(repeating: "x", count: 1000), "日本"]
        let keys = RecordKeys(texts)
        #expect(Array(keys) == texts && keys.count == texts.count)
        for (position, text) in texts.enumerated() {
            #expect(keys.key(position, is: text))
            for (other, otherText) in texts.enumerated() where other != position {
                #expect(!keys.key(position, is: otherText), "\(position) \(other)")
            }
        }
        // "é" precomposed and decomposed are equal Strings but different keys: ids compare as bytes.
        #expect(!keys.key(3, is: "e\u{301}") && keys[4] == "e\u{301}")
        #expect(RecordKeys(texts) == keys && RecordKeys(texts.reversed()) != keys && RecordKeys().isEmpty)
    }

    /// Keys copied into room reserved for fewer, shorter keys, across the
    /// arena's growth, and a copy taken in between keeps its keys as they were.
    @Test func keysCrossingTheReservedRoomComeBackAsTheyWentIn() {
        var keys = RecordKeys()
        keys.reserveCapacity(4, bytesPerKey: 2)
        let texts = (0..<300).map { $0 % 37 == 0 ? "" : $0 % 11 == 0 ? String(repeating: "k\($0)", count: 40) : "\($0)" }
        var copy = RecordKeys()
        for (position, text) in texts.enumerated() {
            if position == 150 { copy = keys }
            text.withBytes { keys.append($0) }
        }
        #expect(Array(keys) == texts && Array(copy) == Array(texts[..<150]))
        #expect(keys.byteCount == texts.reduce(0) { $0 + $1.utf8.count })
    }
}

@Suite struct HugePagesTests {
    /// The AnonHugePages of the mapping that holds `address`, from /proc/self/smaps.
    func anonHugePagesKB(holding address: UInt) throws -> Int? {
        // Read to the end: a /proc file's size is 0, and String(contentsOfFile:) stops after one page.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return nil }
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inMapping = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inMapping && fields.first == "AnonHugePages:" {
                return Int(fields[1])
            }
        }
        return nil
    }

    /// How often the kernel could not find a huge page at a fault and used small ones.
    func hugePageFallbacks() -> Int {
        guard let handle = FileHandle(forReadingAtPath: "/proc/vmstat"),
              let data = try? handle.readToEnd() else { return 0 }
        try? handle.close()
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("thp_fault_fallback ") }
        return line.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
    }

    /// A big table written after the advice is backed by huge pages when the
    /// system offers them (`madvise` or `always` in transparent_hugepage) and
    /// has a free one (else the kernel counts a fallback, and so does this test).
    @Test func aBigTableIsBackedByHugePagesWhereTheSystemAllows() throws {
        let setting = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? "[never]"
        let fallbacks = hugePageFallbacks()
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 << 20, alignment: HugePages.size)
        defer { memory.deallocate() }
        HugePages.advise(memory)
        memory.initializeMemory(as: UInt8.self, repeating: 1)
        let huge = try anonHugePagesKB(holding: UInt(bitPattern: memory.baseAddress!))
        if hugePageFallbacks() > fallbacks {
            // The kernel had no huge page free: the advice was given, and nothing more can be checked.
        } else if setting.contains("[never]") {
            #expect(huge == 0 || huge == nil)
        } else {
            #expect((huge ?? 0) >= 2048, "transparent_hugepage: \(setting)")
        }
    }
}

/// The readers hash a one-part id as soon as they read it, so the key
/// index's slot can be fetched while the rest of the record is read, and
/// hand that hash to the table builder when the record ends. The hash must
/// be the final key text's, also when the reader rewrites the text (a JSON
/// number id is keyed by its canonical form), for any chunking.
@Suite struct EarlyKeyHashTests {
    func table(_ text: String, format: InputFormat, chunkSize: Int) throws -> RecordTable {
        let options = RecordOptions(id: [FieldPath(["id"])])
        let feed: (Span<UInt8>) throws -> Void
        let finish: () throws -> RecordTable
        if format == .csv {
            let reader = CSVRecordReader(source: "test", delimiter: 0x2C, options: options)
            (feed, finish) = (reader.feed, reader.finish)
        } else {
            let reader = JSONRecordReader(source: "test", layout: .array, options: options)
            (feed, finish) = (reader.feed, reader.finish)
        }
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            try bytes[start..<min(start + chunkSize, bytes.count)].withSpan { try feed($0) }
        }
        return try finish()
    }

    @Test(arguments: [InputFormat.json, .csv], [1, 7, 4096])
    func idsHashedAsTheyAreReadAreFoundByTheirKeyText(format: InputFormat, chunkSize: Int) throws {
        let text = format == .csv
            ? "id,v\n1.50,a\nb,c\n2e0,d\n550e8400-e29b-41d4-a716-446655440000,e\n"
            : #"[{"id":1.50,"v":1},{"v":2,"id":"b"},{"id":2e0},{"id":"550e8400-e29b-41d4-a716-446655440000"}]"#
        let records = try table(text, format: format, chunkSize: chunkSize)
        // A JSON number id is keyed by its value (canonical text); a CSV id, text, by its bytes.
        let numbers = format == .csv ? ["1.50", "2e0"] : ["1.5", "2"]
        let others = format == .csv ? ["1.5", "2"] : ["1.50", "2e0"]
        #expect(Array(records.keys) == [numbers[0], "b", numbers[1], "550e8400-e29b-41d4-a716-446655440000"])
        for (row, key) in records.keys.enumerated() {
            #expect(records.firstRow(withKey: key) == row, "\(key)")
        }
        #expect(records.firstRow(withKey: others[0]) == nil && records.firstRow(withKey: others[1]) == nil)
    }

    /// A CSV id and section are keyed by their cells' bytes, each apart:
    /// a section cell read after the id must not become the id's key.
    @Test(arguments: [1, 5, 4096])
    func anIdKeepsItsKeyBesideTheSection(chunkSize: Int) throws {
        let options = RecordOptions(id: [FieldPath(["id"])], section: FieldPath(["cat"]))
        let reader = CSVRecordReader(source: "test", delimiter: 0x2C, options: options)
        let bytes = Array("id,cat,v\n1.50,2.0,a\n7,3e0,b\nx,4.50,c\n".utf8)
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            try bytes[start..<min(start + chunkSize, bytes.count)].withSpan { try reader.feed($0) }
        }
        let records = try reader.finish()
        #expect(Array(records.keys) == ["1.50", "7", "x"])
        #expect(records.sections.map { records.sectionNames[Int($0)] } == ["2.0", "3e0", "4.50"])
        for (row, key) in records.keys.enumerated() { #expect(records.firstRow(withKey: key) == row, "\(key)") }
    }

    /// The duplicate check uses the early hash too: two spellings of one
    /// JSON number are one id; two CSV cells, or two JSON strings, that
    /// spell one number are two.
    @Test(arguments: [InputFormat.json, .csv])
    func twoSpellingsOfOneNumberIdAreADuplicateOnlyAsJSONNumbers(format: InputFormat) throws {
        let text = format == .csv ? "id\n1.5\n1.50\n" : #"[{"id":1.5},{"id":1.50}]"#
        if format == .csv {
            #expect(Array(try table(text, format: format, chunkSize: 3).keys) == ["1.5", "1.50"])
            return
        }
        let error = try #require(throws: InputError.self) { try table(text, format: format, chunkSize: 3) }
        #expect(error.message.hasPrefix(#"duplicate id "1.5": the record at line"#), "\(error)")
        let strings = try table(#"[{"id":"1.5"},{"id":"1.50"}]"#, format: format, chunkSize: 3)
        #expect(Array(strings.keys) == ["1.5", "1.50"])
    }
}

/// A record's section is found among the names seen before by hash and
/// bytes (the first 16), then by a dictionary: every record must land in
/// its own section whichever way it is found.
@Suite struct SectionInterningTests {
    @Test(arguments: [InputFormat.json, .csv])
    func everyRecordKeepsItsSectionPastSixteenNamesWithANullFirstAndTwoNormalisations(format: InputFormat) throws {
        // A null (or, in CSV text mode, empty) section first, 24 names
        // cycling, and "é" composed and decomposed: two sections.
        var names: [String?] = [nil]
        for round in 0..<3 {
            for name in 0..<24 { names.append("s\(name)") }
            names.append("\u{E9}")
            names.append("e\u{301}")
            if round == 1 { names.append(nil) }
        }
        let text: String
        switch format {
        case .csv:
            text = "id,cat\n" + names.enumerated().map { "\($0.offset),\($0.element ?? "")\n" }.joined()
        default:
            text = "[" + names.enumerated().map { index, name in
                #"{"id":\#(index),"cat":\#(name.map { "\"\($0)\"" } ?? "null")}"#
            }.joined(separator: ",") + "]"
        }
        let options = RecordOptions(id: [FieldPath(["id"])], section: FieldPath(["cat"]), mode: format == .csv ? .text : .typed)
        let outcome = read(text, format: format, options: options)
        let sections = try #require(outcome.table?.sections, "\(outcome)")
        // By bytes: `==` on String would take the two spellings of "é" for one.
        #expect(sections.map { $0.map { Array($0.utf8) } } == names.map { $0.map { Array($0.utf8) } })
    }
}
