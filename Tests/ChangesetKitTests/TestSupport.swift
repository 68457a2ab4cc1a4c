import Foundation
import Testing
@testable import ChangesetKit

/// The repository's Fixtures/ folder.
let fixturesURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// The chunk sizes every reader test feeds: results must not depend on them.
let chunkSizes = [1, 7, 65536]

/// What a reader made of an input: its records or its error text.
enum ReadOutcome: Equatable, CustomStringConvertible {
    case records(keys: [String], fingerprints: [UInt64], ranges: [Range<Int>], lines: [Int], sections: [String?],
                 schema: [String], schemaValueCounts: [Int])
    case failure(String)

    init(_ table: RecordTable) {
        self = .records(
            keys: Array(table.keys), fingerprints: table.fingerprints,
            ranges: (0..<table.count).map(table.byteRange), lines: table.lines,
            sections: table.sections.map { table.sectionNames[Int($0)] },
            schema: table.schema, schemaValueCounts: table.schemaValueCounts)
    }

    var description: String {
        switch self {
        case .records(let keys, _, let ranges, let lines, _, _, _): "records \(keys) at \(ranges) lines \(lines)"
        case .failure(let message): message
        }
    }

    var table: (keys: [String], fingerprints: [UInt64], ranges: [Range<Int>], lines: [Int], sections: [String?],
                schema: [String], schemaValueCounts: [Int])? {
        if case let .records(keys, fingerprints, ranges, lines, sections, schema, counts) = self {
            return (keys, fingerprints, ranges, lines, sections, schema, counts)
        }
        return nil
    }

    /// What `read` gives when the JSON reader's own lexer gave up.
    static let ownLexerGaveUp = ReadOutcome.failure("\(JSONRecordReader.Lexer.GaveUp())")

    var failureMessage: String? {
        if case .failure(let message) = self { return message }
        return nil
    }
}

/// Feeds `bytes` to a fresh reader in chunks of `chunkSize`. An error's
/// settings are named by `naming` when given (the command's flags, for
/// cases the command shares), else as the library spells them.
func read(
    _ bytes: [UInt8], format: InputFormat, options: RecordOptions, chunkSize: Int, source: String = "test",
    naming: ((LibrarySetting) -> String)? = nil, lexer: JSONRecordReader.Lexer = .yajl
) -> ReadOutcome {
    do {
        let feed: (Span<UInt8>) throws -> Void
        let finish: () throws -> RecordTable
        switch format {
        case .json, .ndjson:
            let layout: JSONLayout = format == .ndjson ? .lines : options.recordsAt.map { .nested($0) } ?? .array
            let reader = JSONRecordReader(source: source, layout: layout, options: options, lexer: lexer)
            feed = reader.feed
            finish = reader.finish
        case .csv, .tsv:
            let reader = CSVRecordReader(source: source, delimiter: format == .tsv ? 0x09 : 0x2C, options: options)
            feed = reader.feed
            finish = reader.finish
        }
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            try bytes[start..<end].withSpan { try feed($0) }
            start = end
        }
        return ReadOutcome(try finish())
    } catch let error as InputError where naming != nil {
        return .failure(error.description(naming: naming!, asArguments: true))
    } catch {
        return .failure("\(error)")
    }
}

/// Reads with every chunk size, checks they agree, and returns the outcome.
func read(
    _ text: String, format: InputFormat = .json, options: RecordOptions = RecordOptions(id: [FieldPath(["id"])]),
    source: String = "test", sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> ReadOutcome {
    read(Array(text.utf8), format: format, options: options, source: source, sourceLocation: sourceLocation)
}

func read(
    _ bytes: [UInt8], format: InputFormat = .json, options: RecordOptions = RecordOptions(id: [FieldPath(["id"])]),
    source: String = "test", naming: ((LibrarySetting) -> String)? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> ReadOutcome {
    let outcomes = chunkSizes.map { read(bytes, format: format, options: options, chunkSize: $0, source: source, naming: naming) }
    for (size, outcome) in zip(chunkSizes, outcomes).dropFirst() {
        #expect(outcome == outcomes[0], "chunks of \(size) bytes disagree with chunks of 1", sourceLocation: sourceLocation)
    }
    if format.isJSON {
        // The reader's own lexer reads the same records, or gives up (and yajl reads them).
        for size in chunkSizes {
            let own = read(bytes, format: format, options: options, chunkSize: size, source: source, naming: naming, lexer: .own)
            #expect(own == outcomes[0] || own == ReadOutcome.ownLexerGaveUp,
                    "the own lexer, in chunks of \(size) bytes, read \(own), not \(outcomes[0])", sourceLocation: sourceLocation)
            // Of the inputs yajl reads, the own lexer leaves only those with `\u0000` to it (the tests' values are short).
            if outcomes[0].table != nil && own == ReadOutcome.ownLexerGaveUp {
                #expect(String(decoding: bytes, as: UTF8.self).contains(#"\u0000"#), "the own lexer gave up on an input yajl reads", sourceLocation: sourceLocation)
            }
        }
    }
    return outcomes[0]
}

/// Fingerprints of single-record inputs, for equality-rule tests.
func fingerprint(_ json: String, mode: ComparisonMode = .typed, options: RecordOptions = RecordOptions()) -> UInt64? {
    var options = options
    options.mode = mode
    return read("[\(json)]", options: options).table?.fingerprints.first
}

func csvFingerprint(_ csv: String, options: RecordOptions = RecordOptions(mode: .text)) -> UInt64? {
    read(csv, format: .csv, options: options).table?.fingerprints.first
}

/// A small seeded generator (SplitMix64), so a failing seed replays.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(upTo bound: Int) -> Int {
        let value = next()
        return bound <= 0 ? 0 : Int(value % UInt64(bound))
    }
}

extension Array where Element == UInt8 {
    /// `body` with the bytes as a span (what the readers and parsers take).
    func withSpan<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        try body(span)
    }
}

extension ArraySlice where Element == UInt8 {
    /// `body` with the bytes as a span (what the readers and parsers take).
    func withSpan<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        try body(span)
    }
}
