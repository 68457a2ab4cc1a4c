import Foundation
import Testing
@testable import ChangesetKit

@Suite struct JSONReaderTests {
    @Test func readsAnArrayOfRecordsWithRangesAndLines() throws {
        let text = "[\n  {\"id\": 1, \"a\": \"x\"},\n  {\"id\": \"two\", \"a\": [1, {\"b\": null}]}\n]\n"
        let table = try #require(read(text).table)
        #expect(table.keys == ["1", "two"])
        #expect(table.lines == [2, 3])
        let bytes = Array(text.utf8)
        #expect(String(decoding: bytes[table.ranges[0]], as: UTF8.self) == "{\"id\": 1, \"a\": \"x\"}")
        #expect(String(decoding: bytes[table.ranges[1]], as: UTF8.self) == "{\"id\": \"two\", \"a\": [1, {\"b\": null}]}")
    }

    @Test func emptyArrayHoldsNoRecords() throws {
        #expect(try #require(read("[]").table).keys.isEmpty)
        #expect(try #require(read(" [ ] \n").table).keys.isEmpty)
    }

    @Test func ndjsonSkipsBlankLines() throws {
        let table = try #require(read("{\"id\":1}\n\n  \n{\"id\":2}\r\n{\"id\":3}", format: .ndjson).table)
        #expect(table.keys == ["1", "2", "3"])
        #expect(table.lines == [1, 4, 5])
    }

    @Test func emptyNDJSONHoldsNoRecords() throws {
        #expect(try #require(read("", format: .ndjson).table).keys.isEmpty)
        #expect(try #require(read("\n\n", format: .ndjson).table).keys.isEmpty)
    }

    @Test func recordsAtFindsTheNestedArray() throws {
        let text = #"{"meta": {"items": [9]}, "data": {"note": "x", "items": [{"id": 1}, {"id": 2}]}, "tail": [1]}"#
        var options = RecordOptions(id: [FieldPath(["id"])])
        options.recordsAt = FieldPath(["data", "items"])
        let table = try #require(read(text, options: options).table)
        #expect(table.keys == ["1", "2"])
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let plain = try #require(read("[{\"id\": 1}]").table)
        let marked = try #require(read(byteOrderMark + Array("[{\"id\": 1}]".utf8)).table)
        #expect(marked.keys == plain.keys)
        #expect(marked.fingerprints == plain.fingerprints)
        #expect(marked.ranges == [4..<13])
        // A byte order mark in NDJSON too, and an error after it counts columns from the first character.
        #expect(read(byteOrderMark + Array("x".utf8), format: .ndjson).failureMessage
            == "test:1:1: unexpected 'x'; NaN, Infinity and bare words are not JSON")
    }

    @Test func nestedAndCompositeIDs() throws {
        let text = #"[{"meta": {"key": "a"}, "country": "US", "code": 1}, {"meta": {"key": "b"}, "country": "US", "code": 2}]"#
        let nested = RecordOptions(id: [FieldPath(["meta", "key"])])
        #expect(try #require(read(text, options: nested).table).keys == ["a", "b"])
        let composite = RecordOptions(id: [FieldPath(["country"]), FieldPath(["code"])])
        let keys = try #require(read(text, options: composite).table).keys
        #expect(keys.map(RecordKey.parts) == [["US", "1"], ["US", "2"]])
        #expect(keys.map(RecordKey.display) == ["US,1", "US,2"])
    }

    @Test func idsCompareAsText() throws {
        // A number id and a string id with the same text are the same id; numbers by value.
        let text = #"[{"id": 1}, {"id": "1"}]"#
        #expect(read(text).failureMessage == #"test:1:13: duplicate id "1": the record at line 1 has it too; it is the only repeated id. An RecordOptions.id that is unique (several fields: RecordOptions.id ["a", "b"]) or RecordOptions.duplicates .occurrence (the k-th copy matches the k-th) compares them"#)
        #expect(try #require(read(#"[{"id": 1.50}, {"id": true}]"#).table).keys == ["1.5", "true"])
    }

    @Test func duplicatesOccurrenceAllowsRepeatedIDs() throws {
        var options = RecordOptions(id: [FieldPath(["id"])])
        options.duplicates = .occurrence
        #expect(try #require(read(#"[{"id": 1}, {"id": 1}]"#, options: options).table).keys == ["1", "1"])
    }

    @Test func sectionsAreRecordedInFirstAppearanceOrder() throws {
        var options = RecordOptions(id: [FieldPath(["id"])])
        options.section = FieldPath(["cat"])
        let text = #"[{"id": 1, "cat": "b"}, {"id": 2, "cat": "a"}, {"id": 3}, {"id": 4, "cat": "b"}, {"id": 5, "cat": null}]"#
        #expect(try #require(read(text, options: options).table).sections == ["b", "a", nil, "b", nil])
    }

    /// The deepest nesting accepted is read (its frames grow the reader's
    /// stack of open containers well past its first size); one more is refused.
    @Test func nestingUpToTheLimitIsReadAndOnePastItRefused() throws {
        func document(depth: Int) -> String {
            #"[{"id": 1, "a": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}]"
        }
        let limit = JSONRecordReader.maximumDepth - 2  // the records array and the record take two
        #expect(try #require(read(document(depth: limit)).table).keys == ["1"])
        #expect(read(document(depth: limit + 1)).failureMessage
            == "test:1:\(16 + limit + 1): arrays and objects nest deeper than 1000 levels here, more than changeset supports")
    }

    /// Every malformed input under Fixtures/errors gives its exact message,
    /// whatever the chunking. The cases hold the command's words (the CLI
    /// tests share them): a setting the library names is named by its flag here.
    @Test func malformedFixturesGiveExactErrors() throws {
        let cases = try ErrorCase.load()
        #expect(cases.count >= 50)
        let flags: [LibrarySetting: String] = [.id: "--id", .section: "--section", .recordsAt: "--records-at", .rename: "--rename",
                                               .duplicates: "--duplicates", .csvRows: "--csv-rows", .delimiter: "--delimiter", .inputFormat: "--input-format"]
        for errorCase in cases {
            let outcome = read(errorCase.bytes, format: errorCase.format, options: errorCase.options, source: errorCase.file,
                               naming: { flags[$0] ?? "?" })
            #expect(outcome.failureMessage == errorCase.expected, "\(errorCase.file)")
        }
    }
}

/// Plain strings are read whole between tokens (`JSONTextScanner.scanOutside`);
/// a string with an escape, a control character or a byte past ASCII goes on
/// in `scan`. `read` checks every chunking against chunks of one byte, which
/// cut every string; here the special byte sits at every place in a word.
@Suite struct JSONPlainStringTests {
    @Test func specialBytesAtEveryPlaceInAStringAgreeWithEveryChunking() throws {
        var records: [String] = []
        for run in 0..<18 {
            let plain = String(repeating: "s", count: run)
            records.append(#"{"id": "\#(plain)\#(run)", "e": "\#(plain)\"q\u00e9", "u": "\#(plain)é", "n": 12}"#)
        }
        let table = try #require(read("[" + records.joined(separator: ",\n") + "]").table)
        #expect(table.keys == (0..<18).map { String(repeating: "s", count: $0) + "\($0)" })
        #expect(table.lines == Array(1...18))
        for run in 0..<18 {
            let plain = String(repeating: "s", count: run)
            let column = 18 + run  // of the bad byte, after `[{"id": 1, "a": "` and the plain run
            #expect(read(#"[{"id": 1, "a": "\#(plain)\#u{01}"}]"#).failureMessage
                == "test:1:\(column): control character must be escaped in a string")
            #expect(read(Array(#"[{"id": 1, "a": "\#(plain)"#.utf8) + [0xC0, 0xAF] + Array(#""}]"#.utf8)).failureMessage
                == "test:1:\(column): invalid UTF-8 (a bad byte sequence starting with byte 0xC0)")
        }
    }
}

/// Records yajl has read without complaint are crossed eight bytes at a time
/// when they hold no escape, no byte past ASCII and no form feed or vertical
/// tab (`JSONTextScanner.skipAccepted`), counting only line breaks; other
/// records are scanned token by token. Chunks of one byte never take the quick
/// path, and `read` checks every chunking against them; here the places are
/// also counted independently, with breaks of every kind at every place in a word.
@Suite struct JSONAcceptedBytesTests {
    /// Line and column of byte `offset`, counted the plain way: CR LF, CR and LF each end a line.
    func place(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var index = 0
        while index < offset {
            let byte = bytes[index]
            if byte == 0x0D || byte == 0x0A {
                if byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A && index + 1 < offset { index += 1 }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return (line, column)
    }

    /// Records with line breaks inside and between them, padded so each break falls at every place in a word.
    func document(breaks: [String], special: String?) -> (text: String, starts: [Int]) {
        var text = "["
        var starts: [Int] = []
        for record in 0..<40 {
            let lineBreak = breaks[record % breaks.count]
            let padding = String(repeating: " ", count: record % 9)
            if record > 0 { text += "," + padding + lineBreak }
            starts.append(text.utf8.count)
            let value = record % 5 == 3 ? (special ?? "plain") : "plain"
            text += #"{"id": \#(record),\#(padding)\#(lineBreak)"v": "\#(value)",\#(lineBreak)"n": [1,\#(lineBreak)2]}"#
        }
        return (text + "]", starts)
    }

    @Test func linesAgreeWithAPlainCountForEveryKindOfBreak() throws {
        let kinds: [[String]] = [["\n"], ["\r\n"], ["\r"], ["\n", "\r\n", "\r", "\r\r\n", "\n\r", " \t\n"]]
        for breaks in kinds {
            // Without a special byte every record takes the quick path; with one, every fifth goes token by token.
            for special in [nil, "caf\u{e9}", #"a\"b"#, #"\u00e9"#] {
                let (text, starts) = document(breaks: breaks, special: special)
                let bytes = Array(text.utf8)
                let table = try #require(read(text).table, "\(breaks) \(special ?? "")")
                #expect(table.lines == starts.map { place(of: $0, in: bytes).line }, "\(breaks) \(special ?? "")")
                #expect(table.ranges.map(\.lowerBound) == starts)
            }
        }
    }

    @Test func errorsAfterQuicklyCrossedRecordsArePlacedExactly() throws {
        for breaks in [["\n"], ["\r\n"], ["\r"], ["\n", "\r\n", "\r"]] {
            let (text, _) = document(breaks: breaks, special: nil)
            let body = String(text.dropLast())
            // A duplicate member, a form feed, a bad byte and an id that is null, each after the 40 records.
            let cases: [(tail: [UInt8], at: String, message: String)] = [
                (Array(#", {"id": 99, "id": 100}]"#.utf8), #""id": 100"#, #"duplicate member name "id" in an object"#),
                (Array(#", {"id": 99,"#.utf8) + [0x0C] + Array(#""v": 1}]"#.utf8), "\u{0C}",
                 "a form feed (U+000C) between tokens; JSON white space is only space, tab, line feed and carriage return"),
                (Array(#", {"id": 99, "v": ""#.utf8) + [0xC0, 0xAF] + Array(#""}]"#.utf8), "\u{C0}",
                 "invalid UTF-8 (a bad byte sequence starting with byte 0xC0)"),
                (Array(#", {"id": null}]"#.utf8), "null", #"the id field "id" is null"#),
            ]
            for (tail, at, message) in cases {
                let bytes = Array(body.utf8) + tail
                let marker = at == "\u{C0}" ? [UInt8(0xC0)] : Array(at.utf8)
                let offset = Array(body.utf8).count + (0...tail.count - marker.count).first { Array(tail[$0..<$0 + marker.count]) == marker }!
                let (line, column) = place(of: offset, in: bytes)
                #expect(read(bytes).failureMessage == "test:\(line):\(column): \(message)", "\(breaks) \(message)")
            }
        }
    }

    @Test func ndjsonRecordsStayOnTheirLines() throws {
        for lineBreak in ["\n", "\r\n", "\r"] {
            let records = (0..<30).map { #"{"id": \#($0),\#(String(repeating: " ", count: $0 % 9))"v": [1, {"w": 2}]}"# }
            let table = try #require(read(records.joined(separator: lineBreak) + lineBreak, format: .ndjson).table)
            #expect(table.lines == Array(1...30))
            // A record that runs over two lines is refused, also after quickly crossed ones.
            let broken = records.joined(separator: lineBreak) + lineBreak + #"{"id": 30,"# + lineBreak + #""v": 1}"#
            #expect(read(broken, format: .ndjson).failureMessage
                == "test:31:1: a record must end on the line it starts on (NDJSON holds one record per line)")
        }
    }
}

/// One line of Fixtures/errors/cases.tsv.
struct ErrorCase {
    var file: String
    var arguments: [String]
    var expected: String

    var bytes: [UInt8] { Array((try? Data(contentsOf: fixturesURL.appendingPathComponent("errors/\(file)"))) ?? Data()) }
    var format: InputFormat { InputFormat(pathExtension: (file as NSString).pathExtension)! }

    /// The few options the cases use, read the way the command reads them.
    var options: RecordOptions {
        var options = RecordOptions(mode: format.isJSON ? .typed : .text)
        var index = 0
        while index + 1 < arguments.count {
            let value = arguments[index + 1]
            switch arguments[index] {
            case "--id": options.id = (try? FieldPath.parseList(value)) ?? []
            case "--records-at": options.recordsAt = try? FieldPath(parsing: value)
            case "--section": options.section = try? FieldPath(parsing: value)
            default: Issue.record("unknown option \(arguments[index]) in cases.tsv")
            }
            index += 2
        }
        return options
    }

    static func load() throws -> [ErrorCase] {
        let text = try String(contentsOf: fixturesURL.appendingPathComponent("errors/cases.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return ErrorCase(file: fields[0], arguments: fields[1].split(separator: " ").map(String.init), expected: fields[2])
        }
    }
}

/// A record's top-level member that the records before had at the same place
/// is recognised by its bytes (`RecordMemberNames`), skipping the hash, the
/// duplicate check and the field rules. Whatever the order of shapes, each
/// record must read as it reads alone, and duplicates must still be caught.
@Suite struct RecordMemberNamesTests {
    let records = [
        #"{"id": 1, "a": 1, "b": 2, "c": 3}"#,
        #"{"id": 2, "a": 1, "b": 2, "c": 3}"#,
        #"{"id": 3, "a": 1, "c": 3, "b": 2}"#,  // two swapped
        #"{"id": 4, "a": 1}"#,  // fewer
        #"{"id": 5, "a": 1, "b": 2, "c": 3, "d": {"a": 1, "b": 2}}"#,  // more, and nested names
        #"{"id": 6, "ab": 1, "b": 2}"#,  // a longer name where a shorter one was
        #"{"id": 7, "": 1, "b": 2}"#,  // an empty name
        #"{"b": 2, "id": 8, "a": 1}"#,
        #"{"id": 9, "a": 1, "b": 2, "c": 3}"#,
    ]

    @Test func eachRecordReadsAsItReadsAlone() throws {
        var options = RecordOptions(id: [FieldPath(["id"])])
        options.ignore = [FieldPath(["c"])]
        for order in [records, records.reversed(), records + records.map { $0.replacingOccurrences(of: #""id": "#, with: #""id": 1"#) }] {
            let table = try #require(read("[" + order.joined(separator: ",\n") + "]", options: options).table)
            let alone = try order.map { try #require(read("[\($0)]", options: options).table?.fingerprints.first) }
            #expect(table.fingerprints == alone)
        }
        // The ignored field is still noted as found, and the schema counts every member.
        let table = try #require(read("[" + records.joined(separator: ",") + "]", options: options).table)
        #expect(table.schema == ["id", "a", "b", "c", "d", "ab", ""])
        #expect(table.schemaValueCounts == [9, 7, 8, 5, 1, 1, 1])
    }

    /// Names are compared a word at a time: a name that differs from the one
    /// before in any single byte, at any length, is another member.
    @Test func namesDifferingInOneByteAreTold() throws {
        for length in 1...20 {
            let name = String(repeating: "n", count: length)
            for position in 0..<length {
                var other = Array(name.utf8)
                other[position] = UInt8(ascii: "m")
                let changed = String(decoding: other, as: UTF8.self)
                let text = #"[{"id": 1, "\#(name)": 1}, {"id": 2, "\#(changed)": 1}, {"id": 3, "\#(name)": 1}]"#
                let table = try #require(read(text).table)
                #expect(table.schema == ["id", name, changed], "\(changed)")
                #expect(table.fingerprints[1] == read(#"[{"id": 2, "\#(changed)": 1}]"#).table?.fingerprints.first, "\(changed)")
            }
        }
    }

    @Test func duplicatesAreCaughtAfterRecordsOfTheSameShape() {
        let prefix = #"[{"id": 1, "a": 1, "b": 2}, {"id": 2, "a": 1, "b": 2},"# + "\n"
        #expect(read(prefix + #"{"id": 3, "a": 1, "a": 2}]"#).failureMessage == #"test:2:19: duplicate member name "a" in an object"#)
        #expect(read(prefix + #"{"id": 3, "id": 1}]"#).failureMessage == #"test:2:11: duplicate member name "id" in an object"#)
        #expect(read(prefix + #"{"id": 3, "a": 1, "b": 2, "b": 3}]"#).failureMessage == #"test:2:27: duplicate member name "b" in an object"#)
    }

    @Test func renamedMembersAreRecognisedUnderTheirOldName() throws {
        var options = RecordOptions(id: [FieldPath(["id"])])
        options.renames = [Rename(old: FieldPath(["a"]), new: FieldPath(["z"]))]
        let renamed = try #require(read(#"[{"id": 1, "z": 5}, {"id": 2, "z": 5}, {"id": 3, "a": 5}]"#, options: options).table)
        let plain = try #require(read(#"[{"id": 1, "a": 5}, {"id": 2, "a": 5}, {"id": 3, "a": 5}]"#).table)
        #expect(renamed.fingerprints == plain.fingerprints)
        #expect(read(#"[{"id": 1, "z": 5}, {"id": 2, "a": 1, "z": 5}]"#, options: options).failureMessage
            == #"test:1:39: duplicate member name "a" in an object, after RecordOptions.renames read one member as the other"#)
    }
}
