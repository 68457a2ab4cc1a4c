// libFuzzer target json-reader: JSONRecordReader on arbitrary bytes.
// Errors are expected; crashes, hangs, sanitizer reports, results that
// depend on the chunking or on reading NDJSON or an array in parts, a
// table from the reader's own lexer that differs from yajl's (it may only
// give up), and a record read again through its members
// (JSONValueReader.readRecord) that differs from yajl's reading of it are bugs.

private let id = [FieldPath(["id"])]

/// Layouts and options to read every input with.
private let configurations: [(label: String, layout: JSONLayout, options: RecordOptions)] = [
    ("array, no id", .array, RecordOptions()),
    ("array, id", .array, RecordOptions(id: id)),
    ("lines, no id", .lines, RecordOptions()),
    ("lines, id", .lines, RecordOptions(id: id)),
    ("records-at data.records, id+k.n, section s, occurrence", .nested(FieldPath(["data", "records"])),
     RecordOptions(id: [FieldPath(["id"]), FieldPath(["k", "n"])], section: FieldPath(["s"]), duplicates: .occurrence,
                   recordsAt: FieldPath(["data", "records"]))),
    ("array, id, ignore x and a.b, text mode", .array,
     RecordOptions(id: id, ignore: [FieldPath(["x"]), FieldPath(["a", "b"])], mode: .text)),
    ("lines, only id and a.b, section s, text mode", .lines,
     RecordOptions(section: FieldPath(["s"]), only: [FieldPath(["id"]), FieldPath(["a", "b"])], mode: .text)),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    for configuration in configurations {
        let yajl = checkChunking(input, label: configuration.label) {
            let reader = JSONRecordReader(source: "fuzz", layout: configuration.layout, options: configuration.options)
            return FuzzReader(feed: reader.feed, finish: reader.finish)
        }
        // The reader's own lexer reads what yajl reads, or gives up (and yajl reads the input again).
        let own = checkChunking(input, label: configuration.label + ", own lexer") {
            let reader = JSONRecordReader(source: "fuzz", layout: configuration.layout, options: configuration.options, lexer: .own)
            return FuzzReader(feed: reader.feed, finish: reader.finish)
        }
        if own != yajl && own != .failure("\(JSONRecordReader.Lexer.GaveUp())") {
            fatalError("json-reader: the own lexer read \(own), yajl \(yajl) (\(configuration.label))\n\(hex(Array(input)))")
        }
        if configuration.layout == .lines || configuration.layout == .array {
            checkParts(input, format: configuration.layout == .lines ? .ndjson : .json, options: configuration.options,
                       label: configuration.label)
        }
    }
    // A record read again through its members must be what yajl reads whole
    // (the same value, or an error both ways): each record the reader found.
    // (Only those: the reader refuses nesting past JSONRecordReader.maximumDepth,
    // and a Value nested 100,000 deep, as yajl reads one, overflows the stack
    // when compared; the first run of this check, on the whole input, did.)
    let reader = JSONRecordReader(source: "fuzz", layout: .array, options: RecordOptions())
    input.withSpan { input in
        if (try? reader.feed(input)) != nil, let table = try? reader.finish() {
            for row in 0..<table.count { checkRecordReadAgain(input.extracting(table.byteRange(row))) }
        }
    }
    return 0
}

private func checkRecordReadAgain(_ bytes: Span<UInt8>) {
    let split = Result { try JSONValueReader.readRecord(bytes) }
    let whole = Result { try JSONValueReader.read(bytes) }
    switch (split, whole) {
    case let (.success(a), .success(b)) where a == b: return
    case (.failure, .failure): return
    default: fatalError("json-reader: a record read through its members is not what yajl reads: \(split) against \(whole)\n\(hex(bytes.array))")
    }
}
