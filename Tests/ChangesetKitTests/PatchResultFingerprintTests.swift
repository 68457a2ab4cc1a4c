import Foundation
import Testing
@testable import ChangesetKit

/// The `result` line of a patch states the fingerprint of the snapshot
/// `apply` writes, as the base's own reader would fingerprint it.
@Suite struct PatchResultFingerprintTests {
    /// One comparison: OLD and NEW (a fixture path, or a name and its text) and the options on top of `--id`.
    struct Case: CustomTestStringConvertible, Sendable {
        var old: String
        var new: String
        var oldText: String? = nil
        var newText: String? = nil
        var id = "id"
        var ignore: [String] = []
        var only: [String] = []
        var section: String? = nil
        var recordsAt: String? = nil

        var testDescription: String {
            "\(old) -> \(new)" + (ignore.isEmpty ? "" : " --ignore \(ignore)") + (only.isEmpty ? "" : " --only \(only)")
                + (section.map { " --section \($0)" } ?? "")
        }

        func input(_ name: String, _ text: String?) throws -> InputFile {
            guard let text else { return try InputFile.open(fixturesURL.appendingPathComponent(name).path) }
            return InputFile(name: name, bytes: InputBytes(copying: Array(text.utf8)), format: InputFormat(pathExtension: (name as NSString).pathExtension)!)
        }

        func comparison() throws -> Comparison {
            var options = ComparisonOptions()
            options.records.id = [FieldPath([id])]
            options.records.ignore = ignore.map { FieldPath([$0]) }
            options.records.only = only.map { FieldPath([$0]) }
            options.records.section = section.map { FieldPath([$0]) }
            options.records.recordsAt = try recordsAt.map { try FieldPath(parsing: $0) }
            return try Comparison.run(try input(old, oldText), try input(new, newText), options: options)
        }
    }

    /// Values that could be held differently by a reader and by a value
    /// written out again: escapes, numbers in other spellings, nesting, null.
    static let trickyOld = #"[{"id":1,"s":"caf\u00e9","n":1.0,"e":1E3,"z":-0,"big":123456789012345678901234567890,"#
        + #""nul":null,"arr":[1,"2",[],{}],"obj":{"b":1,"a":[true,false]},"emoji":"\ud83c\udf89","esc":"tab\there \"q\" \\ \/"},"#
        + #"{"id":2,"s":"","e":0.5e-3}]"#
    static let trickyNew = #"[{"id":3,"s":"\u0000\u001f","n":-1.50E+2,"nested":{"deep":{"deeper":[null,{"x":"\u2028"}]}}},"#
        + #"{"id":2,"s":"","e":0.5e-3},{"id":1,"s":"caf\u00e9!","n":1.0,"e":1E3,"z":-0,"big":123456789012345678901234567890,"#
        + #""nul":null,"arr":[1,"2",[],{}],"obj":{"b":1,"a":[true,false]},"emoji":"\ud83c\udf89","esc":"tab\there \"q\" \\ \/"}]"#
    /// CSV to CSV under another header: rows the patch leaves alone are placed under the new columns.
    static let csvOld = "id,a,b,c\n1,x,1,q\n2,y,2,\n3,z,3,r\n4,\"multi\nline\",4,\n"
    static let csvNew = "id,b,a,d\n1,1,x,\n2,5,y,k\n5,9,w,\n3,3,zz,\n4,4,\"multi\nline\",\n"

    static let cases: [Case] = {
        var cases: [Case] = []
        let pairs = [("json", "json"), ("ndjson", "ndjson"), ("csv", "csv"), ("tsv", "tsv"), ("json", "ndjson"), ("csv", "tsv"),
                     ("json", "csv"), ("ndjson", "csv"), ("csv", "json"), ("tsv", "ndjson")]
        for (old, new) in pairs {
            let base = Case(old: "catalog/old.\(old)", new: "catalog/new.\(new)")
            cases.append(base)
            var ignoring = base
            ignoring.ignore = ["price"]
            var only = base
            only.only = ["title"]
            var sectioned = base
            sectioned.section = "category"
            cases += [ignoring, only, sectioned]
        }
        cases.append(Case(old: "nested/old.json", new: "nested/new.json", id: "sku", recordsAt: "data.items"))
        cases.append(Case(old: "nested/old.json", new: "nested/new.json", id: "sku", ignore: ["price"], recordsAt: "data.items"))
        cases.append(Case(old: "old.json", new: "new.json", oldText: trickyOld, newText: trickyNew))
        cases.append(Case(old: "old.json", new: "new.json", oldText: trickyOld, newText: trickyNew, ignore: ["s"]))
        cases.append(Case(old: "old.csv", new: "new.csv", oldText: csvOld, newText: csvNew))
        cases.append(Case(old: "old.csv", new: "new.csv", oldText: csvOld, newText: csvNew, ignore: ["a"]))
        cases.append(Case(old: "old.csv", new: "new.csv", oldText: csvOld, newText: csvNew, only: ["b"]))
        cases.append(Case(old: "old.json", new: "new.csv", oldText: #"[{"id":1,"a":1,"n":{"x":1}},{"id":2,"a":"2"}]"#,
                          newText: "id,a,n.x\n1,1,1\n2,3,\n"))
        return cases
    }()

    /// The patch of `comparison`, applied to its OLD: the fingerprint the
    /// patch states, and the one the written snapshot has when read as its
    /// base is.
    static func statedAndWritten(_ comparison: Comparison) throws -> (stated: SnapshotFingerprint, written: SnapshotFingerprint) {
        var patch = ""
        try PatchFormatter().write(try comparison.replay(.records), to: &patch)
        let script = try PatchScript.parse(Array(patch.utf8), source: "p.patch")
        var output = ""
        try PatchApplier.apply(script, patchSource: "p.patch", to: comparison.old.input, output: &output)
        let format = comparison.old.input.format
        let written = InputFile(name: "result", bytes: InputBytes(copying: Array(output.utf8)), format: format)
        let table = try written.readRecords(
            SnapshotFingerprint.options(for: format, recordsAt: script.recordsAt),
            delimiter: script.delimiter ?? (format == .tsv ? 0x09 : UInt8(ascii: ",")))
        return (script.result, SnapshotFingerprint(of: table))
    }

    @Test(arguments: cases)
    func theResultLineIsTheFingerprintOfWhatApplyWrites(_ example: Case) throws {
        let (stated, written) = try Self.statedAndWritten(try example.comparison())
        #expect(stated == written)
    }

    /// Both sides held alike and compared whole: NEW's own fingerprint is
    /// taken for the result's; worked out record by record it is the same.
    @Test(arguments: cases.filter {
        $0.ignore.isEmpty && $0.only.isEmpty && $0.section == nil
            && ($0.old.hasSuffix("json") == $0.new.hasSuffix("json"))
    })
    func newsOwnFingerprintIsTheResultsWhenBothSidesAreHeldAlike(_ example: Case) throws {
        let comparison = try example.comparison()
        let flat = try comparison.fileOrderChangeset()
        let base = try SnapshotFingerprint.records(of: comparison.old, readWith: comparison.options.records)
        let csvColumns = comparison.old.input.format.isJSON ? nil : (comparison.new.records.fieldNames ?? base.fieldNames ?? [])
        let quick = try comparison.resultFingerprint(flat, base: base, csvColumns: csvColumns)
        #expect(quick == SnapshotFingerprint(of: comparison.new.records))
        #expect(quick == (try comparison.resultFingerprintRecordByRecord(flat, base: base, csvColumns: csvColumns)))
    }

    /// A record worked out from its value has the fingerprint its reader gives it.
    @Test(arguments: ["catalog/old.json", "catalog/new.ndjson", "nested/new.json", "edge/deep-old.json", "tricky.json",
                      "catalog/old.csv", "catalog/new.tsv", "tricky.csv"])
    func aRecordHeldAsAValueHasItsReadersFingerprint(_ name: String) throws {
        let input: InputFile
        switch name {
        case "tricky.json": input = InputFile(name: name, bytes: InputBytes(copying: Array((Self.trickyOld).utf8)), format: .json)
        case "tricky.csv": input = InputFile(name: name, bytes: InputBytes(copying: Array(Self.csvOld.utf8)), format: .csv)
        default: input = try InputFile.open(fixturesURL.appendingPathComponent(name).path)
        }
        let recordsAt: FieldPath? = name.hasPrefix("nested") ? FieldPath(["data", "items"]) : nil
        let delimiter: UInt8 = input.format == .tsv ? 0x09 : UInt8(ascii: ",")
        let table = try input.readRecords(SnapshotFingerprint.options(for: input.format, recordsAt: recordsAt), delimiter: delimiter)
        let dataset = Snapshot(input: input, records: table, delimiter: delimiter)
        #expect(table.count > 0)
        for row in 0..<table.count {
            let value = try dataset.value(ofRecord: row)
            let held = input.format.isJSON
                ? WrittenRecordFingerprint.json(value) : WrittenRecordFingerprint.csv(value, columns: table.fieldNames ?? [])
            #expect(held == table.fingerprints[row], "record \(row) of \(name): \(value.jsonText)")
            if input.format.isJSON {
                // As a patch carries it: the value's text, read again.
                let again = try PatchApplier.value(ofRecord: value.jsonText)
                #expect(WrittenRecordFingerprint.json(again) == table.fingerprints[row], "record \(row) of \(name) as text")
            }
        }
    }
}
