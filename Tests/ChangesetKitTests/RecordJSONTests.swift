@testable import ChangesetKit
import Foundation
import Testing

/// A report writes a deleted or inserted record's JSON from the record's
/// bytes (`Snapshot.appendRecordJSON`), not from a `Value` read from them:
/// these tests hold the two to the same bytes on records spelled every way
/// the readers accept (white space anywhere, escapes, non-ASCII text,
/// numbers as written, quoted and unquoted cells).
struct RecordJSONTests {
    static let numbers = ["0", "-0", "1.0", "1e2", "1E+2", "-3.14e-10", "2.50", "12345678901234567890123", "1e400"]

    /// A random spelling of `value`: white space between tokens, and in strings escapes
    /// where JSON needs them and now and then where it does not (`\u0061`, `\/`, a surrogate pair).
    static func spell(_ value: Value, _ random: inout SplitMix, into text: inout String) {
        func space() {
            for _ in 0..<Int.random(in: 0...4, using: &random) where Int.random(in: 0..<3, using: &random) == 0 {
                text += [" ", "\t", "\n", "\r\n"].randomElement(using: &random)!
            }
        }
        func string(_ string: String) {
            text += "\""
            for scalar in string.unicodeScalars {
                let escapes = Int.random(in: 0..<8, using: &random) == 0
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "/" where escapes: text += "\\/"
                case "\n" where escapes: text += "\\n"
                case "\u{0}"..."\u{1F}": text += "\\u" + hex(scalar.value)
                default:
                    guard escapes else {
                        text.unicodeScalars.append(scalar)
                        continue
                    }
                    if scalar.value > 0xFFFF {
                        let offset = scalar.value - 0x10000
                        text += "\\u" + hex(0xD800 + (offset >> 10)) + "\\u" + hex(0xDC00 + (offset & 0x3FF))
                    } else {
                        text += "\\u" + hex(scalar.value)
                    }
                }
            }
            text += "\""
        }
        func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: Bool.random(using: &random))
            return String(repeating: "0", count: 4 - digits.count) + digits
        }
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let literal): text += literal
        case .string(let content): string(content)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                space()
                if index > 0 { text += "," }
                space()
                spell(element, &random, into: &text)
            }
            space()
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.enumerated() {
                space()
                if index > 0 { text += "," }
                space()
                string(member.name)
                space()
                text += ":"
                space()
                spell(member.value, &random, into: &text)
            }
            space()
            text += "}"
        }
    }

    /// A record `{"id": N, ...}` with random members, numbers among them spelled as in `numbers`.
    static func record(_ id: Int, _ random: inout SplitMix) -> Value {
        var members = [Value.Member(name: "id", value: .number(String(id)))]
        for index in 0..<Int.random(in: 0...5, using: &random) {
            let value: Value = Int.random(in: 0..<4, using: &random) == 0
                ? .number(numbers.randomElement(using: &random)!) : TextLineTests.value(&random)
            members.append(Value.Member(name: TextLineTests.string(&random) + "\(index)", value: value))
        }
        return .object(members)
    }

    /// Every record of `text` read as `format`, its JSON from its bytes against its `Value` written as JSON.
    /// Returns how many records took the quick way (their bytes copied, no `Value` made).
    static func compareEveryRecord(_ text: String, format: InputFormat, options: RecordOptions, delimiter: UInt8 = 0x2C) throws -> Int {
        let input = InputFile(name: "test", bytes: InputBytes(copying: Array(text.utf8)), format: format)
        let snapshot = Snapshot(input: input, records: try input.readWhole(options, delimiter: delimiter, indexesKeys: true), delimiter: delimiter)
        var quick = 0
        for row in 0..<snapshot.records.count {
            var fromBytes: [UInt8] = []
            try snapshot.appendRecordJSON(ofRecord: row, to: &fromBytes)
            var fromValue: [UInt8] = []
            try snapshot.value(ofRecord: row).writeJSON(into: &fromValue)
            #expect(fromBytes == fromValue, "record \(row) of \(format): \(String(decoding: fromBytes, as: UTF8.self))")
            let compacted = try input.bytes.withBytes(in: snapshot.records.byteRange(row)) { bytes in
                var json: [UInt8] = []
                return format.isJSON && Snapshot.appendCompactJSON(bytes, to: &json)
            }
            if compacted { quick += 1 }
        }
        return quick
    }

    @Test func jsonRecordsFromTheirBytesAreTheirValuesWritten() throws {
        let seed: UInt64 = 36
        var random = SplitMix(seed: seed)
        let options = RecordOptions(id: [FieldPath(["id"])])
        var quick = 0
        for round in 0..<40 {
            let records = (0..<20).map { Self.record($0, &random) }
            let spelled = records.map { record in
                var text = ""
                Self.spell(record, &random, into: &text)
                return text
            }
            let array = "[\n" + spelled.joined(separator: round % 2 == 0 ? ",\n" : " , ") + "\n]\n"
            quick += try Self.compareEveryRecord(array, format: .json, options: options)
            // NDJSON: one record a line, so no line break between its tokens.
            let lines = spelled.map { $0.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: "\t") }
            quick += try Self.compareEveryRecord(lines.joined(separator: "\n") + "\n", format: .ndjson, options: options)
        }
        // Both ways were taken: records copied from their bytes, and records with escapes written from their values.
        #expect(quick > 0 && quick < 40 * 2 * 20, "seed \(seed)")
    }

    /// Hand-written records at the edges: numbers as written, empty containers, a lone escape.
    @Test func jsonRecordsAtTheEdges() throws {
        let text = #"""
        [ {"id":1, "n" : 1.0 , "e":1e2,"z":-0, "big":12345678901234567890123},
          {"id":2,"empty":{ },"none":[ ],"deep":[[ [ ] ]],"last":"x" },
          {"id":3,"text":"café 日本 😀","slash":"a/b"},
          {"id":4,"escaped":"a\/b","u":"\u0041"},
          {"id" :5 ,	"tab" :	" " }
        ]
        """#
        let quick = try Self.compareEveryRecord(text, format: .json, options: RecordOptions(id: [FieldPath(["id"])]))
        #expect(quick == 4)
    }

    @Test func csvRecordsFromTheirBytesAreTheirValuesWritten() throws {
        let seed: UInt64 = 3636
        var random = SplitMix(seed: seed)
        let options = RecordOptions(id: [FieldPath(["id"])], mode: .cellText)
        for _ in 0..<40 {
            var text = "id,name,n,note\n"
            for id in 0..<20 {
                var cells = [String(id), TextLineTests.string(&random), Self.numbers.randomElement(using: &random)!, TextLineTests.string(&random)]
                if Int.random(in: 0..<4, using: &random) == 0 { cells[3] = ["", "01", "1904-09-20", " 7", "true", "null"].randomElement(using: &random)! }
                text += cells.map { cell in
                    let needsQuotes = cell.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
                    return needsQuotes || Int.random(in: 0..<5, using: &random) == 0
                        ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
                }.joined(separator: ",") + (Bool.random(using: &random) ? "\n" : "\r\n")
            }
            _ = try Self.compareEveryRecord(text, format: .csv, options: options)
        }
    }

    /// A change made with its record's JSON text gives that record back as a `Value`, equal to one made with the value.
    @Test func aChangeWithRecordTextHasItsRecord() throws {
        let record = try Value(json: #"{"id":7,"name":"caf\u00e9 \"x\"","n":1.0,"tags":["a",null,true]}"#)
        var json: [UInt8] = []
        record.writeJSON(into: &json)
        let fromText = Change(kind: .deleted, id: ["7"], old: RecordPlace(index: 3, line: 4), recordJSON: json)
        let fromValue = Change(kind: .deleted, id: ["7"], old: RecordPlace(index: 3, line: 4), record: record)
        #expect(fromText.record == record)
        #expect(fromText == fromValue)
        #expect(fromText.hasRecord && fromValue.hasRecord)
        var written: [UInt8] = []
        fromValue.appendRecordJSON(to: &written)
        #expect(written == json)
        // Setting the record replaces the text.
        var replaced = fromText
        replaced.record = .object([Value.Member(name: "id", value: .number("8"))])
        written = []
        replaced.appendRecordJSON(to: &written)
        #expect(String(decoding: written, as: UTF8.self) == #"{"id":8}"#)
    }

    /// The re-key note hashes a JSON record less its key from its members'
    /// bytes (`KeylessHasher`): the same hash as the record read into a
    /// `Value` and hashed (`KeylessRecord.hash`), under both ways values
    /// compare, on records spelled every way, with names left out that are
    /// spelled with escapes, and records that hold nothing but empty values.
    @Test func keylessHashesFromMembersAreTheValuesHashes() throws {
        let seed: UInt64 = 3637
        var random = SplitMix(seed: seed)
        let options = RecordOptions(id: [FieldPath(["id"])])
        for round in 0..<20 {
            var records = (0..<20).map { Self.record($0, &random) }
            records.append(.object([Value.Member(name: "id", value: .number("90")), Value.Member(name: "gone", value: .string(""))]))
            records.append(.object([Value.Member(name: "id", value: .number("91")), Value.Member(name: "n\u{e9}", value: .null)]))
            records.append(.object([Value.Member(name: "id", value: .number("92")), Value.Member(name: "a\"b", value: .number("1.0"))]))
            let text = "[\n" + records.map { record in
                var text = ""
                Self.spell(record, &random, into: &text)
                return text
            }.joined(separator: ",\n") + "\n]\n"
            let input = InputFile(name: "test", bytes: InputBytes(copying: Array(text.utf8)), format: .json)
            let snapshot = Snapshot(input: input, records: try input.readWhole(options, delimiter: 0x2C, indexesKeys: true), delimiter: 0x2C)
            let dropped: Set<ExactTextKey> = round % 2 == 0 ? [ExactTextKey("id")] : [ExactTextKey("id"), ExactTextKey("n\u{e9}"), ExactTextKey("a\"b")]
            let keyless = KeylessRecord(droppedNames: dropped, nestedPaths: [])
            for mode in [ComparisonMode.typed, .text] {
                let hasher = KeylessHasher(snapshot, keyless: keyless, mode: mode)
                for row in 0..<snapshot.records.count {
                    #expect(try hasher.hash(row: row) == keyless.hash(snapshot, row: row, mode: mode), "record \(row), \(mode), seed \(seed)")
                }
            }
        }
    }
}
