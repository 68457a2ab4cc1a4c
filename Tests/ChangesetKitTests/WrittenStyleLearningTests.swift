import PropertyBased
import Testing
@testable import ChangesetKit

/// What the writers learn of a file's style (issue 34, points 5 and 6):
/// separators and indentation voted on over many records, indentation moved
/// from one unit to another level by level, CSV quoting per column.
@Suite struct WrittenStyleLearningTests {
    func snapshot(_ text: String, _ format: InputFormat) throws -> Snapshot {
        let input = InputFile(name: "in", bytes: InputBytes(copying: Array(text.utf8)), format: format)
        return Snapshot(input: input, records: try input.readRecords(RecordOptions()), delimiter: format.delimiter(nil))
    }

    @Test func inlineSeparatorsAreVotedOverEveryRecord() {
        let records = ["{\"id\":1}", "{\"id\": 2, \"a\": [1, 2]}", "{\"id\": 3, \"b\": \"x,y\"}"].map { Array($0.utf8) }
        let style = JSONStyle.learn(records: records, around: Array("\n".utf8), oneRecordPerLine: true)
        #expect(style.inlineSeparator == ", ")
        #expect(style.nameSeparator == ": ")
    }

    @Test func separatorsOfInlineArraysInRecordsThatSpanLinesAreLearnt() {
        let records = ["{\n    \"a\": [\"x\"]\n}", "{\n    \"a\": [\"x\", \"y\"],\n    \"b\": [1, 2]\n}"].map { Array($0.utf8) }
        let style = JSONStyle.learn(records: records, around: Array("[\n".utf8), oneRecordPerLine: false)
        #expect(style.inlineSeparator == ", ")
        #expect(style.indent == "    ")
    }

    @Test func indentationIsVotedOverRecords() {
        let records = ["{\n  \"a\": 1\n}", "{\n\t\"a\": 1\n}", "{\n\t\"b\": 2\n}"].map { Array($0.utf8) }
        #expect(JSONStyle.learn(records: records, around: [], oneRecordPerLine: false).indent == "\t")
    }

    @Test func indentationMovesFromUnitToUnitAtEveryDepth() {
        let text = "{\n\t\"a\": {\n\t\t\"b\": \"\\t x\"\n\t}\n}"
        #expect(JSONStyle.converted(text, fromUnit: "\t", toUnit: "    ")
            == "{\n    \"a\": {\n        \"b\": \"\\t x\"\n    }\n}")
        #expect(JSONStyle.converted("  \r\n    x", fromUnit: "  ", toUnit: "\t") == "  \r\n\t\tx")
        #expect(JSONStyle.converted("\t\t", fromUnit: "\t", toUnit: "  ", wholeLine: true) == "    ")
        #expect(JSONStyle.describe(indent: "\t") == "tabs")
        #expect(JSONStyle.describe(indent: "    ") == "4 spaces")
    }

    @Test func csvQuotingIsLearntPerColumnFromManyRows() throws {
        // The first row has no space anywhere; later rows quote cells with one in `name`,
        // every cell in `code`; `id` and `note` show no spaced cell, and take the file's habit.
        var text = "id,name,code,note\n1,a,\"x\",n\n"
        for row in 2..<40 { text += "\(row),\"b c\",\"y\",m\n" }
        text += "40,d,\"z\",\n"
        let quoting = try CSVQuoting.learn(snapshot(text, .csv))
        #expect(quoting.map(\.rule) == [.spaced, .spaced, .every, .spaced])
        #expect(quoting[2].cell("p q", delimiter: 0x2C) == "\"p q\"")
        #expect(quoting[1].cell("pq", delimiter: 0x2C) == "pq")
        #expect(quoting[1].cell("p q", delimiter: 0x2C) == "\"p q\"")
        #expect(quoting[0].cell("p,q", delimiter: 0x2C) == "\"p,q\"")
        #expect(quoting[3].cell("", delimiter: 0x2C) == "")
    }

    /// The merge law with THEIRS indented in another unit: merging OURS
    /// (pretty-printed, its records BASE's, its file not: a blank line
    /// after them, since a side that is BASE byte for byte gives THEIRS
    /// whole) with THEIRS's edits gives THEIRS's records written as OURS's
    /// printer writes them, byte for byte: every line taken from THEIRS
    /// moved into OURS's unit at every depth.
    @Test func theirsEditsComeOutInOursIndentationUnit() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var (layout, baseRecords, editedRecords) = SnapshotWriterTests.snapshots(seed: seed)
            guard !baseRecords.isEmpty else { return }
            layout.kind = .pretty
            layout.inDocument = false
            var theirsLayout = layout
            var choices = SnapshotWriterTests.Choices(state: UInt64(bitPattern: Int64(seed)) ^ 0x1D3)
            let units = ["  ", "    ", "\t"].filter { $0 != layout.indent }
            theirsLayout.indent = units[choices.next(units.count)]
            let base = layout.file(baseRecords), theirs = theirsLayout.file(editedRecords)
            let merged = try SnapshotWriterTests.merged(base, base + layout.lineBreak, theirs, format: .json)
            let expected = layout.file(editedRecords) + layout.lineBreak
            #expect(Array(merged.utf8) == Array(expected.utf8), "seed \(seed), \(layout), THEIRS \(theirsLayout.indent.debugDescription):\n\(base)\n---\n\(theirs)\n---\n\(merged)")
        }
    }

    @Test func mixedLineEndsAreFoundAndRewritten() {
        #expect(SnapshotWriter.lastLineBreak(in: Array("a\r\nb\n".utf8)) == "\n")
        #expect(SnapshotWriter.lastLineBreak(in: Array("a\nb\r\n".utf8)) == "\r\n")
        #expect(SnapshotWriter.withLineBreaks("{\r\n  \"a\": 1\n}", "\n") == "{\n  \"a\": 1\n}")
        #expect(SnapshotWriter.indentUnit(ofDocument: Array("{\n\t\"a\": {\n\t\t\"b\": [\n".utf8)) == "\t")
    }
}
