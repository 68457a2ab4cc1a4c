import Foundation
import Testing
@testable import ChangesetKit

/// A reader tells its input's `FileLayout` from the one pass it makes
/// (carriage returns found as chunks go by, line feeds from its own line
/// count): the same as counting the bytes one by one, in every format,
/// whatever the chunk size, whole or (`PartedReadingTests`) in parts.
@Suite struct FileLayoutReadingTests {
    /// The layout counted byte by byte, the slow obvious way.
    static func counted(_ text: String, columns: [String]?) -> FileLayout {
        let bytes = Array(text.utf8)
        var endings = LineEndings()
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D {
                if index + 1 < bytes.count && bytes[index + 1] == 0x0A {
                    endings.crlf += 1
                    index += 1
                } else {
                    endings.cr += 1
                }
            } else if bytes[index] == 0x0A {
                endings.lf += 1
            }
            index += 1
        }
        return FileLayout(lineEndings: endings, byteOrderMark: bytes.starts(with: [0xEF, 0xBB, 0xBF]),
                          finalNewline: bytes.last == 0x0A || bytes.last == 0x0D, columns: columns)
    }

    @Test(arguments: [InputFormat.ndjson, .json, .csv, .tsv])
    func theLayoutReadIsTheBytesCounted(format: InputFormat) {
        var random = SplitMix(seed: 0x4C41_594F &+ UInt64(format.rawValue.count))
        var checked = 0
        for _ in 0..<300 {
            var text = PartedReadingTests.randomFile(format, &random, valid: true)
            // Now and then a CR alone ends a line: the readers take it as a line break too.
            if random.next(upTo: 8) == 0, let first = text.utf8.firstIndex(of: 0x0A), text.utf8[text.utf8.index(before: first)] != 0x0D {
                text.replaceSubrange(first...first, with: "\r")
            }
            let bytes = Array(text.utf8)
            let chunk = 1 + random.next(upTo: 40)
            let table: RecordTable
            switch format {
            case .csv, .tsv:
                let reader = CSVRecordReader(source: "in", delimiter: format.defaultDelimiter, options: RecordOptions(mode: .text))
                for start in stride(from: 0, to: bytes.count, by: chunk) { try? reader.feed(Array(bytes[start..<min(bytes.count, start + chunk)])) }
                guard let read = try? reader.finish() else { continue }
                table = read
            case .json, .ndjson:
                let reader = JSONRecordReader(source: "in", layout: format == .ndjson ? .lines : .array, options: RecordOptions(mode: .typed))
                for start in stride(from: 0, to: bytes.count, by: chunk) { try? reader.feed(Array(bytes[start..<min(bytes.count, start + chunk)])) }
                guard let read = try? reader.finish() else { continue }
                table = read
            }
            #expect(table.layout == Self.counted(text, columns: table.fieldNames), "chunks of \(chunk):\n\(text.debugDescription)")
            checked += 1
        }
        #expect(checked > 200, "only \(checked) of 300 files read")
    }

    /// Through `InputFile`, as a comparison reads: a gzip stream's layout is its text's.
    @Test func aCompressedInputsLayoutIsItsText() throws {
        let text = "\u{FEFF}id,name\r\n1,a\r\n2,b"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-layout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("in.csv")
        try Data(text.utf8).write(to: path)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        gzip.arguments = [path.path]
        try gzip.run()
        gzip.waitUntilExit()
        let input = try InputFile.open(path.path + ".gz")
        let table = try input.readRecords(RecordOptions(mode: .text))
        #expect(table.layout == FileLayout(lineEndings: LineEndings(crlf: 2), byteOrderMark: true, finalNewline: false, columns: ["id", "name"]))
    }

    /// The rules of `FileLayoutChanges`: line endings only when both files
    /// have some, the column order of the shared columns only, the fewest moved.
    @Test func whatCountsAsAChangeOfLayout() {
        let lf = FileLayout(lineEndings: LineEndings(lf: 3), finalNewline: true)
        let oneLine = FileLayout(lineEndings: LineEndings(), finalNewline: false)
        let noLineEndings = FileLayoutChanges(old: oneLine, new: lf)
        #expect(noLineEndings.lineEndings == nil && noLineEndings.finalNewline == LayoutChange(old: false, new: true))
        #expect(FileLayoutChanges(old: lf, new: lf).isEmpty && FileLayoutChanges(old: nil, new: lf).isEmpty)
        #expect(LineEndings(lf: 2, crlf: 2).description == "mixed (2 CRLF, 2 LF)")
        #expect(LineEndings(lf: 5, crlf: 2, cr: 1).description == "mixed (5 LF, 2 CRLF, 1 CR)")
        #expect(ColumnOrderChange(old: ["a", "b", "c"], new: ["a", "b", "c", "d"]) == nil)
        #expect(ColumnOrderChange(old: ["a", "x", "b", "c"], new: ["b", "c", "a"])?.moved == 1)
        let reversed = ColumnOrderChange(old: ["a", "b", "c", "d"], new: ["d", "c", "b", "a"])
        #expect(reversed?.moved == 3 && reversed?.movedText == "3 of 4 columns moved")
        // Names differing only in Unicode normalization are two columns, as in the schema.
        #expect(ColumnOrderChange(old: ["e\u{301}", "b"], new: ["b", "\u{E9}"]) == nil)
    }
}
