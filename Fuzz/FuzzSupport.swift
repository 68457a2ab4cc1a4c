// Shared by every fuzz target (see Fuzz/README.md). Compiled into the same
// module as the ChangesetKit sources, so internal API is visible here.

/// What a reader made of an input: the parts of its table that must not
/// depend on how the input was cut into chunks, or the error's text.
enum ReadOutcome: Equatable, CustomStringConvertible {
    case records(
        keys: [String], fingerprints: [UInt64], ranges: [Range<Int>], lines: [Int],
        sections: [String?], fieldNames: [String]?, container: Range<Int>?)
    case failure(String)

    init(_ table: RecordTable) {
        self = .records(
            keys: Array(table.keys), fingerprints: table.fingerprints,
            ranges: (0..<table.count).map(table.byteRange), lines: table.lines,
            sections: table.sections.map { table.sectionNames[Int($0)] },
            fieldNames: table.fieldNames, container: table.containerRange)
    }

    var description: String {
        switch self {
        case let .records(keys, fingerprints, ranges, lines, sections, fieldNames, container):
            "records keys=\(keys) fingerprints=\(fingerprints.map { String($0, radix: 16) }) ranges=\(ranges) "
                + "lines=\(lines) sections=\(sections) fieldNames=\(String(describing: fieldNames)) "
                + "container=\(String(describing: container))"
        case .failure(let message): "error: \(message)"
        }
    }
}

/// A reader's two entry points, bound to one fresh reader.
struct FuzzReader {
    let feed: (Span<UInt8>) throws -> Void
    let finish: () throws -> RecordTable
}

/// Runs `body` on a copy of `data[range]` in an allocation of exactly that
/// size, freed right after: AddressSanitizer then catches a reader that reads
/// past its chunk or keeps a pointer into it after `feed` returns.
func withChunk<R>(
    _ data: UnsafeRawBufferPointer, _ range: Range<Int>, _ body: (Span<UInt8>) throws -> R
) rethrows -> R {
    let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: range.count, alignment: 1)
    defer { storage.deallocate() }
    if !range.isEmpty { storage.copyMemory(from: UnsafeRawBufferPointer(rebasing: data[range])) }
    return try UnsafeRawBufferPointer(storage).withSpan(body)
}

/// Feeds `data` to a fresh reader, cut before each offset in `cuts` (ascending).
func readOutcome(_ data: UnsafeRawBufferPointer, cuts: [Int], _ makeReader: () -> FuzzReader) -> ReadOutcome {
    let reader = makeReader()
    do {
        var start = 0
        for end in cuts + [data.count] {
            try withChunk(data, start..<end) { try reader.feed($0) }
            start = end
        }
        return ReadOutcome(try reader.finish())
    } catch {
        return .failure("\(error)")
    }
}

/// A cut point in 0...data.count that depends on every byte of the input
/// (FNV-1a), so the fuzzer explores cuts as it explores inputs, and a saved
/// crash input reproduces the same cut.
func derivedCut(_ data: UnsafeRawBufferPointer) -> Int {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return Int(hash % UInt64(data.count + 1))
}

/// Reads `data` whole, in two chunks cut at `derivedCut`, and (for short
/// inputs) one byte at a time; any disagreement is a bug: the readers promise
/// the same records and the same error for every chunking.
@discardableResult
func checkChunking(_ data: UnsafeRawBufferPointer, label: String, _ makeReader: () -> FuzzReader) -> ReadOutcome {
    let whole = readOutcome(data, cuts: [], makeReader)
    let cut = derivedCut(data)
    let split = readOutcome(data, cuts: [cut], makeReader)
    if split != whole {
        fatalError("chunking changes the result (\(label), cut at byte \(cut)):\n  one chunk:  \(whole)\n  two chunks: \(split)")
    }
    if data.count <= 64 {
        let bytewise = readOutcome(data, cuts: Array(0..<data.count), makeReader)
        if bytewise != whole {
            fatalError("chunking changes the result (\(label), one byte at a time):\n  one chunk: \(whole)\n  bytewise:  \(bytewise)")
        }
    }
    return whole
}

/// Reads `data` as a file of `format` in 2 to 4 parts at once (the cuts
/// placed by the input's hash, parts as small as one byte), and whole; any
/// disagreement is a bug: a file read in parts gives a single reader's
/// records, key index and error (see `InputFile.readRecordsInParts`).
func checkParts(_ data: UnsafeRawBufferPointer, format: InputFormat, delimiter: UInt8? = nil, options: RecordOptions, label: String) {
    func outcome(parts: Int, minimumPartSize: Int) -> String {
        let input = InputFile(name: "fuzz", bytes: InputBytes(copying: Array(data)), format: format)
        do {
            let table = try input.readRecords(options, delimiter: delimiter, parts: parts, minimumPartSize: minimumPartSize)
            var chains: [[Int]] = []
            if !table.keys.isEmpty {
                for row in 0..<table.count {
                    var chain = [table.firstRow(withKey: table.keys[row]) ?? -1]
                    while let next = table.keyIndex.nextRow(after: chain.last!) { chain.append(next) }
                    chains.append(chain)
                }
            }
            return "\(ReadOutcome(table)) schema=\(table.schema) counts=\(table.schemaValueCounts) chains=\(chains) "
                + "sections=\(table.sectionNames) found=\(table.fieldsFound.map(\.description).sorted())"
        } catch {
            return "error: \(error)"
        }
    }
    let cut = derivedCut(data)
    let parts = 2 + cut % 3, minimumPartSize = max(1, data.count / (2 + cut % 7))
    let whole = outcome(parts: 1, minimumPartSize: minimumPartSize)
    let parted = outcome(parts: parts, minimumPartSize: minimumPartSize)
    if parted != whole {
        fatalError("reading in parts changes the result (\(label), \(parts) parts of at least \(minimumPartSize) bytes):\n  whole: \(whole)\n  parts: \(parted)")
    }
}

/// Lowercase hex of some bytes, for failure messages.
func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    bytes.map { byte in
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }.joined()
}
