import Foundation
import Testing

/// apply(old, diff(old, new)) == new through the real command and real
/// clients, on random data: `patch` with `changeset apply`, `jsonpatch` with
/// Python's jsonpatch, `batch` with the UIKit replay. The seed is printed;
/// CHANGESET_SEED=<seed> repeats a run.
@Suite struct RoundTripTests {
    static let seed: UInt64 = {
        let seed = ProcessInfo.processInfo.environment["CHANGESET_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        print("RoundTripTests seed: \(seed) (CHANGESET_SEED=\(seed) repeats it)")
        return seed
    }()

    @Test func randomSnapshotsRoundTrip() throws {
        var random = SplitMix64(seed: Self.seed)
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for iteration in 0..<12 {
            let old = RandomRecords.make(count: Int.random(in: 0...30, using: &random), using: &random)
            let new = RandomRecords.mutate(old, using: &random)
            let oldURL = scratch.appendingPathComponent("old.json")
            let newURL = scratch.appendingPathComponent("new.json")
            try RandomRecords.json(old, using: &random).write(to: oldURL, atomically: true, encoding: .utf8)
            try RandomRecords.json(new, using: &random).write(to: newURL, atomically: true, encoding: .utf8)
            let context = "seed \(Self.seed), iteration \(iteration)"

            let patch = try changeset(["old.json", "new.json", "--id", "id", "--format", "patch", "-o", "p.patch"], in: scratch)
            #expect(patch.status <= 1 && patch.stderr.isEmpty, "\(context): \(patch)")
            let applied = try changeset(["apply", "old.json", "p.patch", "-o", "rebuilt.json"], in: scratch)
            #expect(applied.status == 0, "\(context): \(applied)")
            let same = try run("python3", ["-c", "import json,sys; print(json.load(open(sys.argv[1])) == json.load(open(sys.argv[2])))",
                                           scratch.appendingPathComponent("rebuilt.json").path, newURL.path], input: "")
            #expect(same == "True\n", "\(context): apply did not rebuild new")

            let jsonPatch = try changeset(["old.json", "new.json", "--id", "id", "--format", "jsonpatch"], in: scratch)
            try expectJSONPatch(jsonPatch.stdout, turns: oldURL, into: newURL, recordsAt: [])

            let batch = try changeset(["old.json", "new.json", "--id", "id", "--section", "cat", "--format", "batch"], in: scratch)
            let oldLayout = RandomRecords.layout(old)
            let newLayout = RandomRecords.layout(new)
            let replayed = try UIKitBatch(json: batch.stdout).replay(old: oldLayout, new: newLayout)
            #expect(replayed == newLayout.map(\.items), "\(context): \(batch)")

            // CSV: the patch rebuilds NEW byte for byte.
            try RandomRecords.csv(old).write(to: scratch.appendingPathComponent("old.csv"), atomically: true, encoding: .utf8)
            try RandomRecords.csv(new).write(to: scratch.appendingPathComponent("new.csv"), atomically: true, encoding: .utf8)
            let csvPatch = try changeset(["old.csv", "new.csv", "--id", "id", "--format", "patch", "-o", "c.patch"], in: scratch)
            #expect(csvPatch.status <= 1 && csvPatch.stderr.isEmpty, "\(context): \(csvPatch)")
            let csvApplied = try changeset(["apply", "old.csv", "c.patch"], in: scratch)
            #expect(csvApplied.stdout == (try String(contentsOf: scratch.appendingPathComponent("new.csv"), encoding: .utf8)), "\(context): \(csvApplied)")
        }
    }
}

extension RoundTripTests {
    /// Found by the diff-apply fuzz target: a JSON base patched toward a CSV
    /// NEW whose header names a column no row fills. Content compares equal
    /// (an empty cell is a missing field), so the patch has nothing to do;
    /// the column is a schema change with no record holding a value, which a
    /// JSON result, having no header, cannot carry. The result keeps the
    /// same content, and the only difference left is that schema line.
    @Test func aJSONBaseTowardACSVColumnNoRowFillsKeepsItsContent() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try #"{"id":1,"a":"x"}"#.appending("\n").write(to: scratch.appendingPathComponent("old.ndjson"), atomically: true, encoding: .utf8)
        try "id,a,b\n1,x,\n".write(to: scratch.appendingPathComponent("new.csv"), atomically: true, encoding: .utf8)
        let patch = try changeset(["old.ndjson", "new.csv", "--id", "id", "--format", "patch", "-o", "p.patch"], in: scratch)
        #expect(patch.status == 1 && patch.stderr.isEmpty, "\(patch)")
        let applied = try changeset(["apply", "old.ndjson", "p.patch", "-o", "result.ndjson"], in: scratch)
        #expect(applied.status == 0, "\(applied)")
        #expect(try String(contentsOf: scratch.appendingPathComponent("result.ndjson"), encoding: .utf8) == #"{"id":1,"a":"x"}"# + "\n")
        let check = try changeset(["result.ndjson", "new.csv", "--id", "id"], in: scratch)
        #expect(check.stdout == "0 inserted, 0 deleted, 0 updated, 0 moved, 1 unchanged\nschema: added b (0 records)\n", "\(check)")
    }
}

/// A seeded generator, so a failing run can be repeated.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random records: `id`, a section field `cat`, and fields of every JSON kind.
enum RandomRecords {
    typealias Record = [(String, String)]  // member name, JSON text, in order

    static let texts = ["plain", "with, comma", "quote \\\"q\\\"", "line\\nbreak", "ünïcødé", "emoji 🎉", "tab\\tx", ""]
    static let numbers = ["0", "-1", "3.14", "1e3", "12.50", "123456789012345678901234567890", "-0.5"]

    static func make(count: Int, using random: inout SplitMix64) -> [Record] {
        let ids = Array(0..<60).shuffled(using: &random).prefix(count)
        return ids.map { record(id: $0, using: &random) }
    }

    static func record(id: Int, using random: inout SplitMix64) -> Record {
        var record: Record = [("id", "\(id)")]
        record.append(("cat", ["\"a\"", "\"b\"", "\"c\"", "\"d\""].randomElement(using: &random)!))
        record.append(("n", numbers.randomElement(using: &random)!))
        record.append(("s", "\"" + texts.randomElement(using: &random)! + "\""))
        if Bool.random(using: &random) { record.append(("flag", Bool.random(using: &random) ? "true" : "false")) }
        if Bool.random(using: &random) { record.append(("nested", "{\"x\": \(Int.random(in: 0...3, using: &random)), \"y\": [1, 2]}")) }
        return record
    }

    static func mutate(_ old: [Record], using random: inout SplitMix64) -> [Record] {
        var records = old.filter { _ in Int.random(in: 0..<10, using: &random) > 0 }  // ~10% deleted
        for index in records.indices where Int.random(in: 0..<5, using: &random) == 0 {
            let fresh = record(id: Int(records[index][0].1)!, using: &random)
            records[index] = fresh  // updated (or, by chance, the same content)
        }
        for _ in 0..<Int.random(in: 0...3, using: &random) where !records.isEmpty {
            let from = Int.random(in: 0..<records.count, using: &random)
            let moved = records.remove(at: from)
            records.insert(moved, at: Int.random(in: 0...records.count, using: &random))
        }
        let used = Set(records.map { $0[0].1 } + old.map { $0[0].1 })
        for id in (60..<70).shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) where !used.contains("\(id)") {
            records.insert(record(id: id, using: &random), at: Int.random(in: 0...records.count, using: &random))
        }
        return records
    }

    /// JSON text, pretty or compact, members sometimes in another order (which must not matter).
    static func json(_ records: [Record], using random: inout SplitMix64) -> String {
        let pretty = Bool.random(using: &random)
        let body = records.map { record in
            let members = Bool.random(using: &random) ? record : record.shuffled(using: &random)
            return "{" + members.map { "\"\($0.0)\":" + ($0.1) }.joined(separator: pretty ? ", " : ",") + "}"
        }
        return pretty ? "[\n  " + body.joined(separator: ",\n  ") + "\n]\n" : "[" + body.joined(separator: ",") + "]"
    }

    /// CSV with the columns id, cat, n, s (quoted where needed).
    static func csv(_ records: [Record]) -> String {
        var lines = ["id,cat,n,s"]
        for record in records {
            let fields = ["id", "cat", "n", "s"].map { name -> String in
                let json = record.first { $0.0 == name }!.1
                let text = (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)) as? String
                let cell = text ?? json
                return cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
            }
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func layout(_ records: [Record]) -> [LayoutSection] {
        var sections: [LayoutSection] = []
        for record in records {
            let name = record[1].1
            if let index = sections.firstIndex(where: { $0.name == name }) {
                sections[index].items.append(record[0].1)
            } else {
                sections.append(LayoutSection(name: name, items: [record[0].1]))
            }
        }
        return sections
    }
}

extension RoundTripTests {
    /// With --section, a record whose only change is its section field is in
    /// the patch (it was left out, and apply did not rebuild NEW).
    @Test func aSectionOnlyChangeIsInThePatch() throws {
        let directory = try scratchDirectory(holding: ["s1.json": #"[{"id":1,"s":"a","v":1},{"id":2,"s":"b","v":2}]"#, "s2.json": #"[{"id":1,"s":"a","v":1},{"id":2,"s":"c","v":2}]"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let patch = try changeset(["s1.json", "s2.json", "--id", "id", "--section", "s", "--format", "patch", "-o", "p.patch"], in: directory)
        #expect(patch.status == 1 && patch.stderr.isEmpty, "\(patch)")
        let apply = try changeset(["apply", "s1.json", "p.patch", "-o", "rebuilt.json"], in: directory)
        #expect(apply.status == 0 && apply.stderr.isEmpty, "\(apply)")
        #expect(try String(contentsOf: directory.appendingPathComponent("rebuilt.json"), encoding: .utf8)
            == #"[{"id":1,"s":"a","v":1},{"id":2,"s":"c","v":2}]"#)
        let jsonPatch = try changeset(["s1.json", "s2.json", "--id", "id", "--section", "s", "--format", "jsonpatch"], in: directory)
        try expectJSONPatch(jsonPatch.stdout, turns: directory.appendingPathComponent("s1.json"), into: directory.appendingPathComponent("s2.json"), recordsAt: [])
    }
}
