import Foundation
import Testing
@testable import ChangesetKit

/// The JSON reader's own lexer against yajl's: the same table from every
/// input it takes, in any chunking; on anything else it gives up, and
/// `InputFile` reads the input again with yajl, so errors stay yajl's.
@Suite struct OwnLexerTests {
    /// All a table says, and the line breaks the reader counted.
    struct Read: Equatable, CustomStringConvertible {
        var outcome: ReadOutcome
        var fieldsFound: Set<FieldPath>
        var layout: FileLayout?
        var container: Range<Int>?
        var lineBreaks: Int

        var description: String { "\(outcome) fields \(fieldsFound) container \(String(describing: container)) breaks \(lineBreaks)" }
    }

    static func read(
        _ bytes: [UInt8], layout: JSONLayout, options: RecordOptions, lexer: JSONRecordReader.Lexer, chunkSize: Int
    ) throws -> Read {
        let reader = JSONRecordReader(source: "t", layout: layout, options: options, lexer: lexer)
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            try bytes[start..<end].withSpan { try reader.feed($0) }
            start = end
        }
        let table = try reader.finish()
        return Read(outcome: ReadOutcome(table), fieldsFound: table.fieldsFound, layout: table.layout,
                    container: table.containerRange, lineBreaks: reader.lineBreaksRead)
    }

    static let sizes = [1, 2, 3, 5, 8, 13, 64, 1 << 20]

    /// Checks that the own lexer takes `text` whole, in every chunking, and reads what yajl reads.
    static func expectSameAsYajl(
        _ text: [UInt8], layout: JSONLayout, options: RecordOptions, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let yajl = try read(text, layout: layout, options: options, lexer: .yajl, chunkSize: 1 << 20)
        for size in sizes {
            let own: Read
            do {
                own = try read(text, layout: layout, options: options, lexer: .own, chunkSize: size)
            } catch {
                Issue.record("the own lexer gave up in chunks of \(size): \(String(decoding: text, as: UTF8.self))",
                             sourceLocation: sourceLocation)
                return
            }
            #expect(own == yajl, "chunks of \(size): \(String(decoding: text.prefix(300), as: UTF8.self))", sourceLocation: sourceLocation)
        }
    }

    // MARK: Generated records

    /// A random JSON value: strings with every kind of escape and UTF-8
    /// of every length, numbers in every form yajl takes, literals, nesting.
    static func value(_ random: inout SplitMix, depth: Int = 0) -> String {
        switch random.next(upTo: depth > 2 ? 5 : 7) {
        case 0: return string(&random)
        case 1: return number(&random)
        case 2: return ["true", "false", "null"][random.next(upTo: 3)]
        case 3, 4: return string(&random)
        case 5:
            let count = random.next(upTo: 4)
            return "[" + (0..<count).map { _ in space(&random) + value(&random, depth: depth + 1) + space(&random) }.joined(separator: ",") + "]"
        default:
            let count = random.next(upTo: 4)
            return "{" + (0..<count).map { index in
                space(&random) + "\"k\(index)\(string(&random).dropFirst().dropLast())\"" + space(&random) + ":" + space(&random)
                    + value(&random, depth: depth + 1)
            }.joined(separator: ",") + "}"
        }
    }

    static func string(_ random: inout SplitMix) -> String {
        let pieces = [
            "plain", "a longer run of plain text past eight bytes", "", #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#,
            #"\u00e9"#, #"\u20AC"#, #"\uD83D\uDE00"#, #"\u0041"#, #"\uFFFF"#, "é", "€", "😀", "日本", "{}[],:",
        ]
        let count = random.next(upTo: 5)
        return "\"" + (0..<count).map { _ in pieces[random.next(upTo: pieces.count)] }.joined() + "\""
    }

    static func number(_ random: inout SplitMix) -> String {
        let forms = ["0", "-0", "7", "-12", "3.25", "-0.5", "1e5", "1E+5", "2.5e-3", "10000000000000000000000", "1.000000000000000005", "1e400"]
        return forms[random.next(upTo: forms.count)]
    }

    static func space(_ random: inout SplitMix) -> String {
        ["", "", " ", "  ", "\t", "\n", "\r\n", "\r", " \n "][random.next(upTo: 9)]
    }

    @Test(arguments: 0..<40)
    func generatedArraysReadTheSame(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed))
        let records = (0..<random.next(upTo: 12)).map { id in
            "{" + Self.space(&random) + "\"id\": \(id)," + Self.space(&random) + "\"v\":" + Self.value(&random) + ","
                + "\"w\"" + Self.space(&random) + ":" + Self.space(&random) + Self.value(&random) + Self.space(&random) + "}"
        }
        let text = Self.space(&random) + "[" + records.joined(separator: "," + Self.space(&random)) + "]" + Self.space(&random)
        try Self.expectSameAsYajl(Array(text.utf8), layout: .array, options: RecordOptions(id: [FieldPath(["id"])]))
        try Self.expectSameAsYajl(Array(text.utf8), layout: .array, options: RecordOptions(id: [FieldPath(["id"])], mode: .text))
    }

    @Test(arguments: 0..<40)
    func generatedLinesReadTheSame(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed) &+ 1000)
        let records = (0..<random.next(upTo: 12)).map { id in
            "{\"id\": \"k\(id)\", \"v\": " + Self.value(&random).replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: "\r", with: " ") + "}"
        }
        let breaks = ["\n", "\r\n", "\n\n", "\n  \n"]
        let text = records.map { $0 + breaks[random.next(upTo: breaks.count)] }.joined()
        try Self.expectSameAsYajl(Array(text.utf8), layout: .lines, options: RecordOptions(id: [FieldPath(["id"])]))
    }

    /// An integer the own lexer finds canonical skips the canonical-form test
    /// in its hash and its id's text; one that needs the test (`-0`, more
    /// than 20 digits ending in 0) and every other number still has it: the
    /// ids and fingerprints are yajl's, in typed and text comparisons.
    @Test(arguments: ["0", "-0", "7", "-12", "12345678901234567890", "12345678901234567800", "123456789012345678900",
                      "-123456789012345678900", "123456789012345678901", "1000000000000000000000", "-1230000000000000000000", "1.50", "1e2", "0.0000001", "100"])
    func numbersAsIDsAndValuesReadTheSame(literal: String) throws {
        let text = Array("[{\"id\": \(literal), \"v\": \(literal)},\n{\"id\": \"x\", \"v\": [\(literal), -\(literal.trimmingPrefix("-"))]}]".utf8)
        try Self.expectSameAsYajl(text, layout: .array, options: RecordOptions(id: [FieldPath(["id"])]))
        try Self.expectSameAsYajl(text, layout: .array, options: RecordOptions(id: [FieldPath(["id"])], mode: .text))
    }

    /// The reader's options that route values (sections, `--only`, ids of
    /// two parts, `--records-at`) see the same tokens from either lexer.
    @Test func optionsThatRouteValuesReadTheSame() throws {
        let text = Array(#"{"meta": {"n": [1, {"x": "y"}]}, "data": {"items": [{"id": 1, "s": "a", "p": {"q": 1, "r": [true]}}, {"id": 2, "s": "b\u00e9", "p": {"q": 2}}]}}"#.utf8)
        let nested = RecordOptions(id: [FieldPath(["id"])], recordsAt: FieldPath(["data", "items"]))
        try Self.expectSameAsYajl(text, layout: .nested(FieldPath(["data", "items"])), options: nested)
        let array = Array(#"[{"id": 1, "s": "a", "p": {"q": 1, "r": [true]}}, {"id": 2, "s": "b", "p": {"q": 2}}]"#.utf8)
        try Self.expectSameAsYajl(array, layout: .array, options: RecordOptions(id: [FieldPath(["id"]), FieldPath(["s"])]))
        try Self.expectSameAsYajl(array, layout: .array, options: RecordOptions(id: [FieldPath(["id"])], section: FieldPath(["s"])))
        try Self.expectSameAsYajl(array, layout: .array, options: RecordOptions(id: [FieldPath(["id"])], only: [FieldPath(["p", "q"])]))
        try Self.expectSameAsYajl(Array("[]".utf8), layout: .array, options: RecordOptions(id: [FieldPath(["id"])]))
        try Self.expectSameAsYajl(Array(" \n".utf8), layout: .lines, options: RecordOptions(id: [FieldPath(["id"])]))
    }

    /// A token cut by many chunks is carried whole up to `longestCarriedToken`; a longer one is yajl's.
    @Test func longTokensAcrossChunks() throws {
        let options = RecordOptions(id: [FieldPath(["id"])])
        let long = String(repeating: "ab\\u00e9c", count: 20_000)  // 160 KB of text, escapes all through
        let text = Array(#"[{"id": 1, "s": "\#(long)", "n": 12345678901234567890.5e-3}, {"id": 2, "s": "x"}]"#.utf8)
        let yajl = try Self.read(text, layout: .array, options: options, lexer: .yajl, chunkSize: 1 << 20)
        for size in [4096, 65536] {
            #expect(try Self.read(text, layout: .array, options: options, lexer: .own, chunkSize: size) == yajl)
        }
        let longer = Array(#"[{"id": 1, "s": ""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: JSONRecordReader.longestCarriedToken + 200_000)
            + Array(#""}]"#.utf8)
        #expect(throws: JSONRecordReader.Lexer.GaveUp.self) {
            _ = try Self.read(longer, layout: .array, options: options, lexer: .own, chunkSize: 65536)
        }
        #expect(try Self.read(longer, layout: .array, options: options, lexer: .own, chunkSize: 4 << 20).outcome.table?.keys == ["1"])
    }

    // MARK: What it leaves to yajl

    /// Inputs the own lexer gives up on: every error (yajl places it), and
    /// the few valid texts it does not decode or check as the yajl path does.
    static let leftToYajl: [(text: [UInt8], yajlAccepts: Bool)] = invalidUTF8.map { (inString($0), false) }
        + textsLeftToYajl.map { (Array($0.text.utf8), $0.yajlAccepts) }

    static let invalidUTF8: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]]

    static let textsLeftToYajl: [(text: String, yajlAccepts: Bool)] = [
        (#"[{"id": 1, "s": "a\u0000b"}]"#, true),
        (#"[{"id": 1, "s": "\uD800"}]"#, false),
        (#"[{"id": 1, "s": "\uDC00"}]"#, false),
        (#"[{"id": 1, "s": "\uD800\u0041"}]"#, false),
        (#"[{"id": 1, "s": "\x"}]"#, false),
        (#"[{"id": 1, "s": "\u12G4"}]"#, false),
        ("[{\"id\": 1, \"s\": \"a\u{01}b\"}]", false),
        ("[{\"id\": 1,\u{0B}\"s\": 2}]", false),
        ("[{\"id\": 1,\u{0C}\"s\": 2}]", false),
        (#"[{"id": 01}]"#, false),
        (#"[{"id": 1.}]"#, false),
        (#"[{"id": -}]"#, false),
        (#"[{"id": 1e}]"#, false),
        (#"[{"id": 1, "x": tru}]"#, false),
        (#"[{"id": 1, "x": nul}]"#, false),
        (#"[{"id": 1, "x": NaN}]"#, false),
        (#"[{"id": 1,}]"#, false),
        (#"[{"id": 1}, ]"#, false),
        (#"[{"id": 1} {"id": 2}]"#, false),
        (#"[{"id" 1}]"#, false),
        (#"[{"id": 1}]]"#, false),
        (#"[{"id": 1}"#, false),
        (#"[{"id": 1, "s": "abc"#, false),
        (#"[{"id": 1}] x"#, false),
        (#"[{"id": 1, "id": 2}]"#, false),
        (#"[{"id": 1}, {"id": 1}]"#, false),
        (#"[{"x": 1}]"#, false),
        (#"[{"id": null}]"#, false),
        (#"[1]"#, false),
        (#"{"id": 1}"#, false),
        ("", false),
        ("[{\"id\": 1}] // c", false),
    ]

    /// A record whose string holds `bytes`.
    static func inString(_ bytes: [UInt8]) -> [UInt8] {
        Array(#"[{"id": 1, "s": "a"#.utf8) + bytes + Array(#"b"}]"#.utf8)
    }

    @Test func givesUpOnWhatItLeavesToYajl() throws {
        let options = RecordOptions(id: [FieldPath(["id"])])
        for (text, yajlAccepts) in Self.leftToYajl {
            let shown = String(decoding: text, as: UTF8.self)
            for size in [1, 4, 1 << 20] {
                #expect(throws: JSONRecordReader.Lexer.GaveUp.self, "\(shown)") {
                    _ = try Self.read(text, layout: .array, options: options, lexer: .own, chunkSize: size)
                }
            }
            let yajl = Result { try Self.read(text, layout: .array, options: options, lexer: .yajl, chunkSize: 1 << 20) }
            #expect((try? yajl.get()) != nil ? yajlAccepts : !yajlAccepts, "\(shown)")
        }
    }

    /// NDJSON: two records on one line, or one over two lines, are the handlers' errors; the own lexer leaves them to yajl.
    @Test func givesUpOnNDJSONLayoutErrors() {
        for text in ["{\"id\": 1} {\"id\": 2}\n", "{\"id\":\n1}\n", "[1]\n"] {
            #expect(throws: JSONRecordReader.Lexer.GaveUp.self, "\(text)") {
                _ = try Self.read(Array(text.utf8), layout: .lines, options: RecordOptions(id: [FieldPath(["id"])]), lexer: .own, chunkSize: 3)
            }
        }
    }

    /// Through `InputFile`, an input the own lexer gives up on is read by
    /// yajl: the records of a valid one, and the error, placed, of the rest.
    @Test func aFileItGivesUpOnIsReadByYajl() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("own-lexer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = RecordOptions(id: [FieldPath(["id"])])
        let valid = folder.appendingPathComponent("nul.json")
        try Data(#"[{"id": 1, "s": "a\u0000b"}, {"id": 2, "s": "c"}]"#.utf8).write(to: valid)
        let table = try InputFile.open(valid.path).readRecords(options)
        #expect(table.count == 2)
        let yajl = try Self.read(Array(try Data(contentsOf: valid)), layout: .array, options: options, lexer: .yajl, chunkSize: 1 << 20)
        #expect(ReadOutcome(table) == yajl.outcome)

        // The records the own lexer charged to a memory budget before it gave up are taken back.
        let many = folder.appendingPathComponent("many.json")
        let records = (0..<9000).map { #"{"id": \#($0), "s": "\#($0 == 8999 ? "\\u0000" : "x")"}"# }
        try Data(("[" + records.joined(separator: ",\n") + "]").utf8).write(to: many)
        let budget = RecordBudget(records: 3 * RecordBudget.chargeInterval)
        #expect(try InputFile.open(many.path).readRecords(options, budget: budget).count == 9000)
        #expect(!budget.isExceeded)

        // A part the own lexer gives up on is read again by yajl, alone: the parts still join into the whole's records.
        let text = "[\n" + (0..<2000).map { #"{"id": \#($0), "s": "\#($0 == 1500 ? "\\u0000" : "x")"}"# }.joined(separator: ",\n") + "\n]\n"
        for format in [InputFormat.json, .ndjson] {
            let bytes = format == .json ? Array(text.utf8)
                : Array(text.split(separator: "\n").dropFirst().dropLast().map { $0.hasSuffix(",") ? $0.dropLast() : $0 }.joined(separator: "\n").utf8)
            let input = InputFile(name: "parts", bytes: InputBytes(copying: bytes), format: format)
            let parts = try #require(input.readRecordsInParts(options, delimiter: format.defaultDelimiter, parts: 2, minimumPartSize: 1000))
            let whole = try Self.read(bytes, layout: format == .json ? .array : .lines, options: options, lexer: .yajl, chunkSize: 1 << 20)
            #expect(ReadOutcome(parts) == whole.outcome, "\(format)")
        }

        let invalid = folder.appendingPathComponent("bad.json")
        try Data("[{\"id\": 1},\n {\"id\": 2, \"s\": \"\\uD800\"}]".utf8).write(to: invalid)
        let error = #expect(throws: InputError.self) { _ = try InputFile.open(invalid.path).readRecords(options) }
        #expect(error?.location == InputLocation(line: 2, column: 18))
        #expect(error?.description.contains("unpaired surrogate") == true)
    }
}
