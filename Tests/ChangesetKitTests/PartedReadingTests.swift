import Foundation
import Testing
@testable import ChangesetKit

/// Reading one file in parts on several cores (`InputFile.readRecordsInParts`)
/// must give the table a single reader gives, on every input: random files
/// with quoted line breaks, CRLF, blank lines, byte order marks, records
/// over several lines and errors, cut into random parts.
@Suite struct PartedReadingTests {
    /// A random file of `format`: ids that may repeat, a section field, and
    /// the shapes that make a cut at a line break fall inside a record; with
    /// `invalid`, a bad record; without `valid`, now and then an NDJSON
    /// record over two lines (an error too).
    static func randomFile(_ format: InputFormat, _ random: inout SplitMix, invalid: Bool = false, valid: Bool = false) -> String {
        let separator = format == .tsv ? "\t" : ","
        let lineBreak = random.next(upTo: 4) == 0 ? "\r\n" : "\n"
        let records = random.next(upTo: 40)
        var text = random.next(upTo: 6) == 0 ? "\u{FEFF}" : ""
        func cell(_ index: Int) -> String {
            switch random.next(upTo: 30) {
            case 0: return format == .tsv ? "tab" : "\"a\(lineBreak)b, \"\"quoted\"\"\""  // a line break inside quotes
            case 1: return ""
            case 2: return "é\(index)"
            case 3, 4, 5: return "\(random.next(upTo: 1000)).5"
            default: return "v\(random.next(upTo: 50))"
            }
        }
        if format == .json {
            // Pretty-printed (records indented two spaces, what they hold deeper), a record a line,
            // or one line; now and then an array of objects laid out as records are (a false cut).
            let layout = random.next(upTo: 3)
            var items: [String] = []
            for index in 0..<records {
                let id = random.next(upTo: 3) == 0 ? random.next(upTo: 5) : index
                let kind = ["x", "y", "z"][random.next(upTo: 3)]
                let value = cell(index).replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "\r", with: "\\r")
                    .replacingOccurrences(of: "\n", with: "\\n")
                let nested = random.next(upTo: 6) == 0 ? (random.next(upTo: 2) == 0 ? ",\(lineBreak)  {\"b\": 2}" : ", {\"b\": 2}") : ""
                switch layout {
                case 0:
                    items.append("  {\(lineBreak)    \"id\": \(id),\(lineBreak)    \"kind\": \"\(kind)\",\(lineBreak)    \"v\": \"\(value)\",\(lineBreak)"
                                 + "    \"sub\": [\(lineBreak)      {\"a\": \(index)}\(nested)\(lineBreak)    ]\(lineBreak)  }")
                default:
                    items.append("{\"id\": \(id), \"kind\": \"\(kind)\", \"v\": \"\(value)\", \"sub\": [{\"a\": \(index)}\(nested)]}")
                }
            }
            if invalid && !items.isEmpty { items[items.count / 2] = "{\"id\": tru}" }
            switch layout {
            case 0: text += "[\(lineBreak)" + items.joined(separator: ",\(lineBreak)\(random.next(upTo: 6) == 0 ? lineBreak : "")") + "\(lineBreak)]"
            case 1: text += "[\(lineBreak)" + items.joined(separator: ",\(lineBreak)") + "\(lineBreak)]"
            default: text += "[" + items.joined(separator: ",") + "]"
            }
            if random.next(upTo: 5) != 0 { text += lineBreak }
            return text
        }
        if format == .ndjson {
            for index in 0..<records {
                let id = random.next(upTo: 3) == 0 ? random.next(upTo: 5) : index
                let section = ["x", "y", "z"][random.next(upTo: 3)]
                // Rarely a record over two lines (an error in NDJSON); now and then a blank line.
                let inner = !valid && random.next(upTo: 400) == 0 ? lineBreak : ""
                text += "{\"id\": \(id),\(inner) \"kind\": \"\(section)\", \"v\": \"\(cell(index).replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n"))\"}"
                text += lineBreak
                if random.next(upTo: 8) == 0 { text += lineBreak }
            }
            if invalid { text += "{\"id\": 1, \"kind\": tru}" + lineBreak }
            if random.next(upTo: 5) == 0, text.hasSuffix(lineBreak) { text.removeLast(lineBreak.count) }
            return text
        }
        text += ["id", "kind", "v", "w"].joined(separator: separator) + lineBreak
        for index in 0..<records {
            let id = random.next(upTo: 3) == 0 ? random.next(upTo: 5) : index
            var cells = ["\(id)", ["x", "y", "z"][random.next(upTo: 3)], cell(index), cell(index + 1)]
            if invalid && index == records / 2 { cells.removeLast() }
            text += cells.joined(separator: separator) + lineBreak
            if random.next(upTo: 10) == 0 { text += lineBreak }
        }
        if random.next(upTo: 5) == 0, text.hasSuffix(lineBreak) { text.removeLast(lineBreak.count) }
        return text
    }

    /// Everything a table holds, for comparing two tables (the key index by
    /// what it answers: each key's first row and the chain after it).
    static func contents(_ table: RecordTable) -> String {
        var lines = ["\(ReadOutcome(table))", "\(table.fieldNames ?? [])", "\(table.fieldsFound.map(\.description).sorted())",
                     "\(table.sectionNames)", "distinct \(table.keyIndex.distinctCount)", "\(table.refs.map(\.row))",
                     "container \(String(describing: table.containerRange))", "layout \(String(describing: table.layout))"]
        if !table.keys.isEmpty {
            for row in 0..<table.count {
                var chain = [table.firstRow(withKey: table.keys[row]) ?? -1]
                while let next = table.keyIndex.nextRow(after: chain.last!) { chain.append(next) }
                lines.append("\(row): \(chain)")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func read(_ text: String, _ format: InputFormat, _ options: RecordOptions, parts: Int, minimumPartSize: Int) -> String {
        do {
            let input = InputFile(name: "in", bytes: InputBytes(copying: Array(text.utf8)), format: format)
            return contents(try input.readRecords(options, parts: parts, minimumPartSize: minimumPartSize))
        } catch {
            return "error: \(error)"
        }
    }

    @Test(arguments: [InputFormat.ndjson, .json, .csv, .tsv])
    func aFileReadInPartsIsTheFileReadWhole(format: InputFormat) {
        var random = SplitMix(seed: 0x5041_5254 &+ UInt64(format.rawValue.count))
        var readInParts = 0
        for round in 0..<400 {
            let text = Self.randomFile(format, &random, invalid: round % 10 == 9)
            var options = RecordOptions(mode: format.isJSON ? .typed : .text)
            if random.next(upTo: 4) != 0 { options.id = [FieldPath(["id"])] }
            if random.next(upTo: 2) == 0 { options.section = FieldPath(["kind"]) }
            if random.next(upTo: 2) == 0 { options.duplicates = .occurrence }
            if random.next(upTo: 5) == 0 { options.ignore = [FieldPath(["w"])] }
            let whole = Self.read(text, format, options, parts: 1, minimumPartSize: 1)
            let parts = 2 + random.next(upTo: 5), minimum = 1 + random.next(upTo: 48)
            let parted = Self.read(text, format, options, parts: parts, minimumPartSize: minimum)
            #expect(parted == whole, "round \(round), \(parts) parts of at least \(minimum) bytes:\n\(text)")
            let input = InputFile(name: "in", bytes: InputBytes(copying: Array(text.utf8)), format: format)
            if input.readRecordsInParts(options, delimiter: format.defaultDelimiter, parts: parts, minimumPartSize: minimum) != nil {
                readInParts += 1
            }
        }
        // Most files were read in parts, not all by the single reader they fall back to
        // (a JSON array on one line never is: a third of them).
        #expect(readInParts > (format == .json ? 100 : 150), "only \(readInParts) of 400 read in parts")
    }

    /// The key index built in one pass after reading (what `readRecords`
    /// does) answers as the one a reader builds as it reads: the same first
    /// row for every key, the same chains of repeated ids, the same count.
    @Test(arguments: [InputFormat.ndjson, .csv])
    func theIndexBuiltAfterReadingIsTheOneBuiltWhileReading(format: InputFormat) throws {
        var random = SplitMix(seed: 0x494E_4458)
        for _ in 0..<200 {
            let text = Self.randomFile(format, &random, valid: true)
            var options = RecordOptions(id: [FieldPath(["id"])], mode: format == .ndjson ? .typed : .text)
            options.duplicates = .occurrence
            let whileReading: RecordTable
            if format == .ndjson {
                let reader = JSONRecordReader(source: "in", layout: .lines, options: options)
                try Array(text.utf8).withSpan { try reader.feed($0) }
                whileReading = try reader.finish()
            } else {
                let reader = CSVRecordReader(source: "in", delimiter: 0x2C, options: options)
                try Array(text.utf8).withSpan { try reader.feed($0) }
                whileReading = try reader.finish()
            }
            let afterReading = try InputFile(name: "in", bytes: InputBytes(copying: Array(text.utf8)), format: format).readRecords(options)
            #expect(Self.contents(afterReading) == Self.contents(whileReading), "\(text)")
        }
    }

    /// A cut inside a quoted field (a line break in quotes) or inside an
    /// NDJSON record over two lines makes a part fail; the file is read whole.
    @Test func aCutInsideARecordFallsBackToOneReader() throws {
        let csv = "id,note\n1,\"first\nsecond\"\n2,plain\n"
        let cut = Array(csv.utf8).firstIndex(of: 0x0A)! + 1 + 7  // the LF inside the quotes
        let input = InputFile(name: "in", bytes: InputBytes(copying: Array(csv.utf8)), format: .csv)
        let options = RecordOptions(id: [FieldPath(["id"])], mode: .text)
        #expect(input.readRecordsInParts(options, delimiter: 0x2C, parts: 2, minimumPartSize: cut / 2) == nil)
        let table = try input.readRecords(options, parts: 2, minimumPartSize: cut / 2)
        #expect(Array(table.keys) == ["1", "2"] && table.lines == [2, 4])
    }

    /// Errors are the single reader's, line and column, whatever the parts.
    @Test func errorsAreTheOnesOneReaderGives() {
        let csv = "id,v\n" + (1...50).map { "\($0),x\n" }.joined() + "51\n" + (52...99).map { "\($0),x\n" }.joined()
        let ndjson = (1...50).map { "{\"id\": \($0)}\n" }.joined() + "{\"id\": 1}\n"
        let options = RecordOptions(id: [FieldPath(["id"])], mode: .text)
        for (text, format) in [(csv, InputFormat.csv), (ndjson, .ndjson)] {
            let whole = Self.read(text, format, options, parts: 1, minimumPartSize: 1)
            #expect(whole.hasPrefix("error: "))
            for parts in [2, 3, 4] {
                #expect(Self.read(text, format, options, parts: parts, minimumPartSize: 16) == whole)
            }
        }
    }

    /// Regression (review of the parts): names that differ only in Unicode
    /// normalization are two fields to a reader; joining parts kept them two
    /// (it crashed, or took them for one, when it went by `String` equality).
    @Test func namesDifferentOnlyInNormalizationStayTwoFieldsAcrossParts() throws {
        let composed = "\u{E9}", decomposed = "e\u{301}"
        let csv = "id,\(composed),\(decomposed)\n" + (1...200).map { "\($0),a,b\n" }.joined()
        var ndjson = (1...100).map { "{\"id\": \($0), \"\(composed)\": 1}\n" }.joined()
        ndjson += (101...200).map { "{\"id\": \($0), \"\(decomposed)\": 2}\n" }.joined()
        for (text, format) in [(csv, InputFormat.csv), (ndjson, .ndjson)] {
            let options = RecordOptions(id: [FieldPath(["id"])], mode: format == .csv ? .text : .typed)
            let whole = Self.read(text, format, options, parts: 1, minimumPartSize: 1)
            #expect(Self.read(text, format, options, parts: 3, minimumPartSize: 64) == whole)
            let input = InputFile(name: "in", bytes: InputBytes(copying: Array(text.utf8)), format: format)
            #expect(try input.readRecords(options, parts: 3, minimumPartSize: 64).schema.count == 3)
        }
    }

    /// Regression: `recordsAt` names a path in a JSON document; an NDJSON
    /// input is an error however it is read, in parts too.
    @Test func recordsAtOnNDJSONIsAnErrorInPartsToo() {
        let ndjson = (1...200).map { "{\"id\": \($0)}\n" }.joined()
        var options = RecordOptions(id: [FieldPath(["id"])])
        options.recordsAt = FieldPath(["data"])
        let whole = Self.read(ndjson, .ndjson, options, parts: 1, minimumPartSize: 1)
        #expect(whole.contains("RecordOptions.recordsAt needs a JSON document"))
        #expect(Self.read(ndjson, .ndjson, options, parts: 4, minimumPartSize: 64) == whole)
    }

    /// How the cores are shared: two inputs of one size on two cores take
    /// one each; on eight, four each; a small file is never cut.
    @Test func coresAreSharedByBytes() {
        let big = 100 << 20
        #expect(InputFile.parts(sizes: [big, big], workers: 2) == [1, 1])
        #expect(InputFile.parts(sizes: [big, big], workers: 8) == [4, 4])
        #expect(InputFile.parts(sizes: [big, big / 10], workers: 2) == [2, 1])
        #expect(InputFile.parts(sizes: [1 << 20, 1 << 20], workers: 8) == [1, 1])
        #expect(InputFile.parts(sizes: [nil, big], workers: 4) == [1, 4])
    }

    /// A whole comparison read with 1, 2 and 4 cores a file gives one report.
    @Test(arguments: [InputFormat.ndjson, .json, .csv])
    func aComparisonIsTheSameOnAnyNumberOfCores(format: InputFormat) throws {
        var random = SplitMix(seed: 0x434F_5245)
        for _ in 0..<40 {
            let old = Self.randomFile(format, &random, valid: true), new = Self.randomFile(format, &random, valid: true)
            var options = ComparisonOptions()
            options.records.id = [FieldPath(["id"])]
            options.records.duplicates = .occurrence
            options.minimumPartSize = 16
            var reports: [String] = []
            for workers in [1, 2, 4] {
                options.readingWorkers = workers
                let comparison = try Comparison.run(
                    InputFile(name: "old", bytes: InputBytes(copying: Array(old.utf8)), format: format),
                    InputFile(name: "new", bytes: InputBytes(copying: Array(new.utf8)), format: format), options: options)
                var output = ""
                try JSONFormatter().write(try comparison.report(), to: &output)
                reports.append(output)
            }
            #expect(reports[1] == reports[0] && reports[2] == reports[0])
        }
    }
}
