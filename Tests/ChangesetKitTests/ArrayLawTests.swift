import Foundation
import PropertyBased
import Testing
@testable import ChangesetKit

/// diff, apply and merge held to each other on records whose arrays hold
/// objects, keyed (each element has a unique `id`) or not (elements are
/// plain content), edited inside: elements changed, deleted, inserted and
/// moved. The files are written in many layouts by SnapshotWriterTests'
/// printer (not the writer under test), OLD and NEW alike, so the laws are
/// about bytes:
/// - a patch of OLD against NEW, applied to OLD, gives NEW byte for byte;
/// - a merge with an unchanged side gives the other side byte for byte, and
///   a merge of one edit with itself gives that edit;
/// - the report counts an update exactly for each record whose value changed.
@Suite struct ArrayLawTests {
    typealias Layout = SnapshotWriterTests.Layout
    typealias Choices = SnapshotWriterTests.Choices

    static func element(keyed: Bool, name: Int, _ choices: inout Choices) -> Value {
        let label = Value.Member(name: "label", value: .string(["north", "south", "Łódź", "a \"b\""][choices.next(4)]))
        let size = Value.Member(name: "size", value: .number("\(choices.next(4))"))
        return keyed ? .object([.init(name: "id", value: .number("\(name)")), label, size]) : .object([label, size])
    }

    static func record(id: Int, keyed: Bool, _ choices: inout Choices) -> Value {
        .object([
            .init(name: "id", value: .number("\(id)")),
            .init(name: "name", value: .string("r\(choices.next(5))")),
            .init(name: "parts", value: .array((0..<choices.next(5)).map { element(keyed: keyed, name: $0, &choices) })),
        ])
    }

    /// An edit of one record's `parts`: elements changed, deleted, inserted
    /// and moved; keyed insertions take names not yet used.
    static func edited(_ record: Value, keyed: Bool, _ choices: inout Choices) -> Value {
        guard case .object(var members) = record, case .array(var parts) = members[2].value else { return record }
        for index in parts.indices.reversed() {
            switch choices.next(5) {
            case 0: parts.remove(at: index)
            case 1:
                guard case .object(var fields) = parts[index] else { break }
                fields[fields.count - 1].value = .number("\(10 + choices.next(5))")
                parts[index] = .object(fields)
            case 2 where parts.count > 1: parts.insert(parts.remove(at: index), at: choices.next(parts.count))
            default: break
            }
        }
        for offset in 0..<choices.next(3) {
            parts.insert(element(keyed: keyed, name: 50 + offset, &choices), at: choices.next(parts.count + 1))
        }
        members[2].value = .array(parts)
        if choices.next(4) == 0 { members[1].value = .string("renamed") }
        return .object(members)
    }

    /// A JSON layout (arrays of objects have no CSV form), OLD's records
    /// and NEW's: records edited inside their arrays, deleted, inserted, moved.
    static func snapshots(seed: Int) -> (layout: Layout, keyed: Bool, old: [Value], new: [Value]) {
        var choices = Choices(state: UInt64(bitPattern: Int64(seed)))
        var layout = Layout.random(&choices)
        if layout.kind == .csv { layout.kind = .pretty }
        let keyed = choices.flip()
        let old = (0..<(1 + choices.next(6))).map { record(id: $0, keyed: keyed, &choices) }
        var new: [Value] = []
        for record in old {
            switch choices.next(8) {
            case 0: continue
            case 1, 2, 3, 4: new.append(edited(record, keyed: keyed, &choices))
            default: new.append(record)
            }
        }
        if choices.flip() { new.insert(Self.record(id: 100 + choices.next(9), keyed: keyed, &choices), at: choices.next(new.count + 1)) }
        if new.count > 1 && choices.flip() { new.insert(new.remove(at: choices.next(new.count)), at: choices.next(new.count)) }
        return (layout, keyed, old, new)
    }

    static func comparison(_ old: String, _ new: String, format: InputFormat) throws -> Comparison {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        let inputs = [("old", old), ("new", new)].map { name, text in
            InputFile(name: name, bytes: InputBytes(copying: Array(text.utf8)), format: format)
        }
        return try Comparison.run(inputs[0], inputs[1], options: options)
    }

    @Test func applyingThePatchRebuildsNewByteForByte() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            let (layout, keyed, oldRecords, newRecords) = Self.snapshots(seed: seed)
            let old = layout.file(oldRecords), new = layout.file(newRecords)
            let comparison = try Self.comparison(old, new, format: layout.format)
            var patch = ""
            try PatchFormatter().write(try comparison.replay(.records), to: &patch)
            let script = try PatchScript.parse(Array(patch.utf8), source: "p.patch")
            var applied = ""
            try PatchApplier.apply(script, patchSource: "p.patch", to: comparison.old.input, output: &applied)
            #expect(Array(applied.utf8) == Array(new.utf8), "seed \(seed), \(layout), keyed \(keyed):\n\(old)\n---\n\(new)\n---\n\(patch)\n---\n\(applied)")
        }
    }

    @Test func mergingWithAnUnchangedSideGivesTheOtherByteForByte() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            let (layout, keyed, baseRecords, editedRecords) = Self.snapshots(seed: seed)
            let base = layout.file(baseRecords), edited = layout.file(editedRecords)
            for (ours, theirs) in [(base, edited), (edited, base), (edited, edited)] {
                let merged = try SnapshotWriterTests.merged(base, ours, theirs, format: layout.format)
                #expect(Array(merged.utf8) == Array(edited.utf8), "seed \(seed), \(layout), keyed \(keyed):\n\(base)\n---\n\(ours)\n---\n\(theirs)\n---\n\(merged)")
            }
        }
    }

    /// The counts agree with the records: an update for each id in both
    /// whose value differs, an insertion or deletion for each id on one side.
    @Test func theReportCountsWhatChanged() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            let (layout, keyed, oldRecords, newRecords) = Self.snapshots(seed: seed)
            let comparison = try Self.comparison(layout.file(oldRecords), layout.file(newRecords), format: layout.format)
            func byID(_ records: [Value]) -> [String: Value] {
                Dictionary(records.map { ($0.member(at: ["id"])!.jsonText, $0) }, uniquingKeysWith: { first, _ in first })
            }
            let old = byID(oldRecords), new = byID(newRecords)
            let updated = old.keys.filter { new[$0] != nil && new[$0] != old[$0] }.count
            let counts = try comparison.counts()
            #expect(counts.updated == updated, "seed \(seed), keyed \(keyed): \(counts)")
            #expect(counts.inserted == new.keys.filter { old[$0] == nil }.count, "seed \(seed)")
            #expect(counts.deleted == old.keys.filter { new[$0] == nil }.count, "seed \(seed)")
        }
    }
}
