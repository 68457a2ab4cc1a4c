// libFuzzer target csv-reader: CSVRecordReader on arbitrary bytes.
// Errors are expected; crashes, hangs, sanitizer reports and results that
// depend on the chunking or on reading the file in parts are bugs.

/// Delimiters and options to read every input with (CSV compares as text).
private let configurations: [(label: String, delimiter: UInt8, options: RecordOptions)] = [
    ("comma, no id", UInt8(ascii: ","), RecordOptions(mode: .text)),
    ("comma, id", UInt8(ascii: ","), RecordOptions(id: [FieldPath(["id"])], mode: .text)),
    ("tab, id+name, section s, occurrence", 0x09,
     RecordOptions(id: [FieldPath(["id"]), FieldPath(["name"])], section: FieldPath(["s"]), duplicates: .occurrence, mode: .text)),
    ("semicolon, id, ignore x, only id and a", UInt8(ascii: ";"),
     RecordOptions(id: [FieldPath(["id"])], ignore: [FieldPath(["x"])], only: [FieldPath(["id"]), FieldPath(["a"])], mode: .text)),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    for configuration in configurations {
        checkChunking(input, label: configuration.label) {
            let reader = CSVRecordReader(source: "fuzz", delimiter: configuration.delimiter, options: configuration.options)
            return FuzzReader(feed: reader.feed, finish: reader.finish)
        }
        checkParts(input, format: .csv, delimiter: configuration.delimiter, options: configuration.options, label: configuration.label)
    }
    return 0
}
