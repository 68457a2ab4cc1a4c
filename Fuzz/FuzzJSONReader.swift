// libFuzzer target json-reader: JSONRecordReader on arbitrary bytes.
// Errors are expected; crashes, hangs, sanitizer reports and results that
// depend on the chunking are bugs.

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
        checkChunking(input, label: configuration.label) {
            let reader = JSONRecordReader(source: "fuzz", layout: configuration.layout, options: configuration.options)
            return FuzzReader(feed: reader.feed, finish: reader.finish)
        }
    }
    return 0
}
