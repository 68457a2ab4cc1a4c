import Foundation
import Testing
@testable import ChangesetKit

/// A comparison past `memoryLimit` (records in temporary files, matched a
/// partition at a time, `Comparison+Partitioned.swift`) must give what the
/// comparison in memory gives: every report format byte for byte, the
/// counts, and the same errors, on random pairs cut into random numbers of
/// partitions.
@Suite struct PartitionedComparisonTests {
    /// A random pair of `format`: unique ids (numbers or text), OLD's records
    /// deleted, updated (a field, a nested value, an array element), moved
    /// and joined by new ones in NEW.
    static func randomPair(_ format: InputFormat, _ random: inout SplitMix, records: Int) -> (old: String, new: String) {
        struct Record { var id: String; var name: String; var price: String; var tags: [String] }
        let textIDs = random.next(upTo: 2) == 0
        func id(_ number: Int) -> String { textIDs ? "\"k\(number)\"" : "\(number)" }
        var old = (0..<records).map { number in
            Record(id: id(number * 3), name: "n\(random.next(upTo: 20))", price: "\(random.next(upTo: 100)).5",
                   tags: (0..<random.next(upTo: 3)).map { "t\($0)" })
        }
        var new: [Record] = []
        for record in old where random.next(upTo: 10) != 0 {
            var record = record
            switch random.next(upTo: 8) {
            case 0: record.name += "x"
            case 1: record.price = "\(random.next(upTo: 100))"
            case 2: record.tags.append("new")
            default: break
            }
            new.append(record)
        }
        for extra in 0..<random.next(upTo: records / 5 + 2) {
            new.insert(Record(id: id(records * 3 + extra * 3 + 1), name: "added", price: "1", tags: []), at: random.next(upTo: new.count + 1))
        }
        for _ in 0..<random.next(upTo: 6) where new.count > 1 {
            let moved = new.remove(at: random.next(upTo: new.count))
            new.insert(moved, at: random.next(upTo: new.count + 1))
        }
        if random.next(upTo: 3) == 0 { old.shuffle(using: &random) }
        func text(_ records: [Record]) -> String {
            switch format {
            case .csv:
                return "id,name,price,tags\n" + records.map { "\($0.id.replacingOccurrences(of: "\"", with: "")),\($0.name),\($0.price),\($0.tags.joined(separator: ";"))\n" }.joined()
            case .ndjson:
                return records.map { "{\"id\": \($0.id), \"name\": \"\($0.name)\", \"price\": \($0.price), \"tags\": [\($0.tags.map { "\"\($0)\"" }.joined(separator: ","))]}\n" }.joined()
            default:
                return "[\n" + records.map { "  {\n    \"id\": \($0.id),\n    \"name\": \"\($0.name)\",\n    \"price\": \($0.price),\n    \"tags\": [\($0.tags.map { "\"\($0)\"" }.joined(separator: ", "))]\n  }" }
                    .joined(separator: ",\n") + "\n]\n"
            }
        }
        return (text(old), text(new))
    }

    static func input(_ name: String, _ text: String, _ format: InputFormat) -> InputFile {
        InputFile(name: name, bytes: InputBytes(copying: Array(text.utf8)), format: format)
    }

    /// The error comparing `old` and `new` gives, as text ("no error" if none).
    static func error(_ old: String, _ new: String, _ format: InputFormat, _ options: ComparisonOptions) -> String {
        do {
            _ = try Comparison.run(input("old", old, format), input("new", new, format), options: options)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    /// Every output of one comparison: the report formats, the counts alone and `--quiet`'s counts.
    static func outputs(_ old: InputFile, _ new: InputFile, _ options: ComparisonOptions) throws -> (outputs: [String], partitioned: Bool) {
        let comparison = try Comparison.run(old, new, options: options)
        var outputs: [String] = []
        for format in [OutputFormat.text, .json, .ndjson, .markdown, .html, .batch] {
            var output = ""
            do {
                let summary = try comparison.write(OutputSettings(format: format, width: 0), to: &output)
                outputs.append(output + "\(summary)")
            } catch let error as OptionError where format == .batch && options.ignoreOrder {
                // A batch carries every move, which --ignore-order would not count: refused, in memory as in partitions.
                outputs.append("\(error)")
            }
        }
        var counts = ""
        _ = try comparison.write(OutputSettings(format: .text, countsOnly: true), to: &counts)
        outputs.append(counts)
        outputs.append("\(try comparison.counts())")
        var shown = ""
        _ = try comparison.write(OutputSettings(format: .text, limit: 3, kinds: [.deleted, .updated], show: [FieldPath(["name"])]), to: &shown)
        outputs.append(shown)
        return (outputs, comparison.isPartitioned)
    }

    @Test(arguments: [InputFormat.json, .ndjson, .csv])
    func aComparisonInPartitionsIsTheComparisonInMemory(format: InputFormat) throws {
        var random = SplitMix(seed: 0x5041_5254 &+ UInt64(format.rawValue.count))
        for round in 0..<30 {
            let (oldText, newText) = Self.randomPair(format, &random, records: round == 0 ? 1500 : random.next(upTo: 80))
            var options = ComparisonOptions()
            options.records.id = [FieldPath(["id"])]
            options.ignoreOrder = random.next(upTo: 4) == 0
            if random.next(upTo: 4) == 0 { options.records.ignore = [FieldPath(["tags"])] }
            let inMemory = try Self.outputs(Self.input("old", oldText, format), Self.input("new", newText, format), options)
            options.memoryLimit = 0
            options.partitions = 1 + random.next(upTo: 8)
            let partitioned = try Self.outputs(Self.input("old", oldText, format), Self.input("new", newText, format), options)
            #expect(!inMemory.partitioned && partitioned.partitioned)
            for (index, (expected, actual)) in zip(inMemory.outputs, partitioned.outputs).enumerated() where expected != actual {
                Issue.record("round \(round), output \(index), \(options.partitions!) partitions:\n\(expected)\n---\n\(actual)")
            }
        }
    }

    /// JSON against CSV, and NEW empty or OLD empty: the same in partitions.
    @Test func mixedAndEmptyInputsInPartitions() throws {
        var random = SplitMix(seed: 0x4D49_5844)
        let (oldJSON, newJSON) = Self.randomPair(.json, &random, records: 40)
        let (_, newCSV) = Self.randomPair(.csv, &random, records: 40)
        let pairs: [(InputFile, InputFile)] = [
            (Self.input("old", oldJSON, .json), Self.input("new", newCSV, .csv)),
            (Self.input("old", oldJSON, .json), Self.input("new", "[]", .json)),
            (Self.input("old", "", .ndjson), Self.input("new", newJSON, .json)),
        ]
        for (old, new) in pairs {
            var options = ComparisonOptions()
            options.records.id = [FieldPath(["id"])]
            let inMemory = try Self.outputs(old, new, options)
            options.memoryLimit = 0
            options.partitions = 3
            let partitioned = try Self.outputs(old, new, options)
            #expect(partitioned.partitioned)
            #expect(partitioned.outputs == inMemory.outputs)
        }
    }

    /// Errors are the ones a comparison in memory gives: a repeated id in
    /// OLD or in NEW (where it first repeats, how many), a syntax error, a
    /// field no record has.
    @Test func errorsInPartitionsAreTheErrorsInMemory() throws {
        let good = "{\"id\": 1, \"a\": 1}\n{\"id\": 2, \"a\": 2}\n{\"id\": 3, \"a\": 3}\n"
        let repeated = "{\"id\": 1, \"a\": 1}\n{\"id\": 2, \"a\": 2}\n{\"id\": 1, \"a\": 3}\n"
        let broken = "{\"id\": 1, \"a\": 1}\n{\"id\": 2, \"a\": }\n"
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        var typo = options
        typo.records.ignore = [FieldPath(["b"])]
        // OLD's repeated id is said before NEW's error, as OLD's ids are indexed as it is read in memory
        // (the fuzz target diff-apply found the order reversed: OLD `id\r\n*"\r\n*"`, NEW a CSV without the column).
        for (old, new, options, format) in [(repeated, good, options, InputFormat.ndjson), (good, repeated, options, .ndjson),
                                            (repeated, repeated, options, .ndjson), (broken, good, options, .ndjson),
                                            (good, broken, options, .ndjson), (good, good, typo, .ndjson), (repeated, broken, options, .ndjson),
                                            ("id\r\n*\"\r\n*\"", "\r\nctre\"3: ", options, .csv)] {
            func error(_ options: ComparisonOptions) -> String { Self.error(old, new, format, options) }
            var partitioned = options
            partitioned.memoryLimit = 0
            partitioned.partitions = 2
            let expected = error(options)
            #expect(expected != "no error")
            #expect(error(partitioned) == expected)
        }
    }

    /// Offsets past 4 GiB survive batches and the read back: a table read
    /// back must not count its offsets from the 4 GiB multiples the file
    /// passed before (a 100M-record CSV file failed so, "a record could not
    /// be read again").
    @Test func recordsPast4GiBAreReadBackWhereTheyAre() throws {
        var reading = RecordTable()
        var side = try Comparison.SpilledSide(source: "in", partitions: 3)
        var expected: [(Range<Int>, Int, String)] = []
        let starts = [0, 100, 3 << 30, (4 << 30) + 5, (4 << 30) + 900, (9 << 30) + 1, (9 << 30) + 2, (13 << 30) + 7]
        for (row, start) in starts.enumerated() {
            let range = start..<(start + 10 + row * 7000 + (row == 5 ? 70_000 : 0))
            reading.keys.append("k\(row)")
            reading.append(fingerprint: UInt64(row), range: range, line: row + 1)
            expected.append((range, row + 1, "k\(row)"))
            if row % 3 == 1 { try side.add(reading.takeRows()) }
        }
        try side.finish(reading)
        #expect(side.count == starts.count)
        for held in [Array(0..<starts.count), [0, 4, 7], [3], [5, 6]] {
            // The ids and fingerprints from a pass over the partitions (as a moved record's are found).
            var found = Comparison.CollectedEntries()
            try side.collectMissing(held.map(Int32.init), into: &found)
            #expect(Set(found.positions) == Set(held.map(UInt32.init)))
            // Read in chunks smaller than an entry (18 bytes) or a few: the same entries.
            for chunk in [7, 20, 40] {
                var inChunks = Comparison.CollectedEntries()
                try side.collectMissing(held.map(Int32.init), into: &inChunks, chunk: chunk)
                #expect(inChunks.positions == found.positions && inChunks.fingerprints == found.fingerprints && inChunks.keys == found.keys, "chunk \(chunk)")
            }
            let table = try side.keptTable(held.map(Int32.init), found)
            #expect(table.count == held.count)
            for (row, position) in held.enumerated() {
                #expect(table.byteRange(row) == expected[position].0, "position \(position) of \(held)")
                #expect(table.line(row) == expected[position].1 && table.fingerprint(row) == UInt64(position))
                #expect(table.keys[row] == expected[position].2)
            }
        }
        // A kept record whose id was not found is an error, never a table that is off by a row.
        var some = Comparison.CollectedEntries()
        try side.collectMissing([0, 4], into: &some)
        #expect(throws: InputError.self) { try side.keptTable([0, 4, 7], some) }
    }

    /// Repeated ids on random pairs (a record or several copied, in OLD, in
    /// NEW, or both, in every format): the error in partitions, found in the
    /// partition files and placed by reading the input again a batch at a
    /// time, is the in-memory one to the character (line, column, counts).
    @Test(arguments: [InputFormat.json, .ndjson, .csv])
    func repeatedIDsInPartitionsAreTheErrorsInMemory(format: InputFormat) throws {
        var random = SplitMix(seed: 0x4455_5053 &+ UInt64(format.rawValue.count))
        for round in 0..<25 {
            // Records a line (a JSON array's too, indented), so a copy is a line copied.
            var (old, new) = Self.randomPair(format == .json ? .ndjson : format, &random, records: 5 + random.next(upTo: 60))
            func copyingRecords(_ text: String) -> String {
                var lines = text.split(separator: "\n").map(String.init)
                let first = format == .csv ? 1 : 0
                guard lines.count > first else { return text }
                for _ in 0...random.next(upTo: 3) {
                    lines.insert(lines[first + random.next(upTo: lines.count - first)], at: first + random.next(upTo: lines.count - first + 1))
                }
                return format == .json ? "[\n" + lines.map { "   " + $0 }.joined(separator: ",\n") + "\n]\n" : lines.joined(separator: "\n") + "\n"
            }
            if format == .json && round % 3 == 0 { new = "[\n" + new.split(separator: "\n").map { "   " + $0 }.joined(separator: ",\n") + "\n]\n" }
            if format == .json && round % 3 == 1 { old = "[\n" + old.split(separator: "\n").map { "   " + $0 }.joined(separator: ",\n") + "\n]\n" }
            switch round % 3 {
            case 0: old = copyingRecords(old)
            case 1: new = copyingRecords(new)
            default: (old, new) = (copyingRecords(old), copyingRecords(new))
            }
            var options = ComparisonOptions()
            options.records.id = [FieldPath(["id"])]
            func error(_ options: ComparisonOptions) -> String { Self.error(old, new, format, options) }
            let expected = error(options)
            #expect(expected.contains("duplicate id"), "round \(round): \(expected)")
            options.memoryLimit = 0
            options.partitions = 1 + random.next(upTo: 5)
            #expect(error(options) == expected, "round \(round)")
        }
    }

    /// Ids spread over the partitions (a bad spread is one partition as
    /// large as the input: the memory the partitions are there to spare).
    @Test func idsSpreadOverThePartitions() throws {
        var side = try Comparison.SpilledSide(source: "in", partitions: 8)
        var table = RecordTable()
        for row in 0..<8000 {
            table.keys.append("B\(100_000 + row)")
            table.append(fingerprint: UInt64(row), range: (row * 10)..<(row * 10 + 9), line: row + 1)
        }
        try side.finish(table)
        let entries = side.partitions.map { $0.size / (16 + 7) }
        #expect(entries.reduce(0, +) == 8000)
        #expect(entries.allSatisfy { $0 > 800 && $0 < 1200 }, "\(entries)")
    }

    /// A replay needs every record's place: refused in partitions, with a way out.
    @Test func replayFormatsAreRefusedInPartitions() throws {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        options.memoryLimit = 0
        let comparison = try Comparison.run(Self.input("old", "[{\"id\": 1}]", .json), Self.input("new", "[{\"id\": 2}]", .json), options: options)
        for format in [OutputFormat.patch, .jsonpatch] {
            var output = ""
            #expect(throws: OutputSettingsError.replayPastMemoryLimit(format, limit: 0)) { try comparison.write(OutputSettings(format: format), to: &output) }
            #expect(output.isEmpty)
        }
    }

    /// Only comparisons by id without sections go to partitions; the
    /// limit's estimate leaves small inputs in memory.
    @Test func whatGoesToPartitions() throws {
        let text = "{\"id\": 1, \"s\": \"a\"}\n"
        func partitioned(_ change: (inout ComparisonOptions) -> Void) throws -> Bool {
            var options = ComparisonOptions()
            options.records.id = [FieldPath(["id"])]
            options.memoryLimit = 0
            change(&options)
            return try Comparison.run(Self.input("old", text, .ndjson), Self.input("new", text, .ndjson), options: options).isPartitioned
        }
        #expect(try partitioned { _ in })
        #expect(try !partitioned { $0.records.id = [] })
        #expect(try !partitioned { $0.records.section = FieldPath(["s"]) })
        #expect(try !partitioned { $0.records.duplicates = .occurrence })
        #expect(try !partitioned { $0.memoryLimit = nil })
        #expect(try !partitioned { $0.memoryLimit = 1 << 30 })
        #expect(Comparison.partitionCount(bytes: 16 << 30, limit: 1 << 30, cores: 2) == 128)
        #expect(Comparison.partitionCount(bytes: 6 << 30, limit: 1 << 30, cores: 2) == 49)
        #expect(Comparison.partitionCount(bytes: 6 << 30, limit: 1 << 30, cores: 8) == 128)
        #expect(Comparison.partitionCount(bytes: 100, limit: 1 << 30) == 1)
    }

    /// The estimate's count of record starts in a sample, found with
    /// memchr, is the count a byte-at-a-time pass gives, on pieces cut
    /// anywhere: pretty-printed, one-line and nested arrays, white space
    /// between the marks, marks at a piece's ends.
    @Test func recordStartsCountAsAByteAtATimePass() {
        func byteAtATime(_ bytes: [UInt8], _ format: InputFormat) -> Int {
            guard format == .json else { return bytes.filter { $0 == 0x0A }.count }
            var count = 0
            var state = 0  // 1: after `}`; 2: after `}` and `,`
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "}"): state = 1
                case UInt8(ascii: ","): state = state == 1 ? 2 : 0
                case UInt8(ascii: "{"): count += state == 2 ? 1 : 0; state = 0
                case 0x20, 0x09, 0x0A, 0x0D: break
                default: state = 0
                }
            }
            return count
        }
        let fixed = ["", "{", ",{", "},{", "}, \n\t{", "} ,{", "},x{", "}}{", "[{\"a\":[{},{}]},\r\n{\"b\":1}]", "{}\n{}\n", "\n\n"]
        let seed: UInt64 = 36_64
        var generator = SplitMix(seed: seed)
        let alphabet = Array("{},  \n\r\tx\"[]".utf8)
        let random = (0..<500).map { _ in
            (0..<Int.random(in: 0...64, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
        }
        for bytes in fixed.map({ Array($0.utf8) }) + random {
            for format in [InputFormat.json, .ndjson, .csv] {
                #expect(Comparison.recordStarts(in: bytes, format: format) == byteAtATime(bytes, format),
                        "\(String(decoding: bytes, as: UTF8.self).debugDescription) as \(format), seed \(seed)")
            }
        }
    }
}
