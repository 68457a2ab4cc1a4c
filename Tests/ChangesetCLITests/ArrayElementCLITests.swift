import Foundation
import Testing

/// Arrays compared element by element, through the real command: what each
/// format says, and that `jsonpatch` (by Python's jsonpatch) and `patch`
/// (by `changeset apply`) rebuild NEW from random arrays that change.
@Suite struct ArrayElementCLITests {
    @Test func anElementInsertedIsOneLineAndOneAdd() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try #"[{"id":1,"tags":["a","b"]}]"#.write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try #"[{"id":1,"tags":["a","x","b"]}]"#.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let text = try changeset(["old.json", "new.json", "--id", "id"], in: scratch)
        #expect(text.status == 1 && text.stdout.hasSuffix("updated  id 1  at 0, line 1\n  tags[1]: inserted \"x\"\n"), "\(text)")
        let patch = try changeset(["old.json", "new.json", "--id", "id", "--format", "jsonpatch"], in: scratch)
        #expect(patch.stdout == "[\n{\"op\":\"add\",\"path\":\"/0/tags/1\",\"value\":\"x\"}\n]\n", "\(patch)")
        let json = try changeset(["old.json", "new.json", "--id", "id", "--format", "json"], in: scratch)
        let fields = try run("jq", ["-c", ".changes[0].fields"], input: json.stdout)
        #expect(fields == #"[{"path":"tags","pointer":"/tags/1","new":"x"}]"# + "\n")
        // --arrays whole: today's behaviour, the array replaced.
        let whole = try changeset(["old.json", "new.json", "--id", "id", "--format", "jsonpatch", "--arrays", "whole"], in: scratch)
        #expect(whole.stdout == "[\n{\"op\":\"replace\",\"path\":\"/0/tags\",\"value\":[\"a\",\"x\",\"b\"]}\n]\n", "\(whole)")
        let wholeText = try changeset(["old.json", "new.json", "--id", "id", "--arrays", "whole"], in: scratch)
        #expect(wholeText.stdout.hasSuffix("  tags: [\"a\",\"b\"] -> [\"a\",\"x\",\"b\"]\n"), "\(wholeText)")
        let bad = try changeset(["old.json", "new.json", "--id", "id", "--arrays", "each"], in: scratch)
        #expect(bad.status == 2 && bad.stderr.contains("--arrays") && bad.stdout.isEmpty, "\(bad)")
    }

    /// The fixture's shapes: 63 suffixes appended are one line with the
    /// count, subdivisions are matched by the `--id` field they hold.
    @Test func aGrownArrayIsOneRunAndKeyedElementsMatch() throws {
        let result = try changeset(FormatTests.arrays)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("  idd.suffixes[2…64]: inserted 63 elements \"200\", \"201\", \"202\", …, \"262\"\n"), "\(result)")
        #expect(result.stdout.contains("  subdivisions[2].name: \"Denmark province 2\" -> \"Denmark province two\"\n"), "\(result)")
        // Found by review: the report names subdivisions.name, which --ignore cannot take: say why.
        let inside = try changeset(FormatTests.arrays + ["--ignore", "subdivisions.name"])
        #expect(inside.status == 2 && inside.stdout.isEmpty && inside.stderr == "changeset: --ignore \"subdivisions.name\": subdivisions holds arrays, "
            + "and --ignore and --only name fields outside arrays (inside an element every member counts); --ignore subdivisions takes in the whole array\n", "\(inside)")
        let json = try changeset(FormatTests.arrays + ["--format", "json"])
        let count = try run("jq", ["[.changes[] | select(.id == \"CH\") | .fields[] | select(.pointer | startswith(\"/idd/suffixes/\"))] | length"], input: json.stdout)
        #expect(count == "63\n")
    }

    /// apply keeps an array's layout: elements that stay are copied, one
    /// inserted into a pretty-printed array takes its own line, one-line
    /// arrays stay on one line, an element changed in place keeps its own.
    @Test func applyKeepsTheLayoutOfAnArray() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let old = """
            [
                {
                    "id": 1,
                    "tags": [
                        "a",
                        "b",
                        "d"
                    ],
                    "pts": [[1, 2], [3, 4]],
                    "items": [{"id": "x", "q": 1}, {"id": "y",   "q": 2}]
                }
            ]

            """
        let new = """
            [
                {
                    "id": 1,
                    "tags": [
                        "a",
                        "c",
                        "b"
                    ],
                    "pts": [[1, 2], [3, 5], [6]],
                    "items": [{"id": "x", "q": 1}, {"id": "y",   "q": 3}, {"id": "z", "q": 2}]
                }
            ]

            """
        try old.write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try new.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let patch = try changeset(["old.json", "new.json", "--id", "id", "--format", "patch", "-o", "p.patch"], in: scratch)
        #expect(patch.status == 1, "\(patch)")
        let applied = try changeset(["apply", "old.json", "p.patch"], in: scratch)
        #expect(applied.status == 0 && applied.stdout == new, "\(applied)")
        // Found by review: what changes inside an element of a one-line array stays on that line.
        try #"[{"id": 1, "e": [{"k": 1, "v": "x"}, {"k": 2}], "f": [{"k": 1}, [1, 2]]}]"#.appending("\n")
            .write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        let inline = #"[{"id": 1, "e": [{"k": 1, "v": [1, 2]}, {"k": 2}], "f": [{"k": 1, "n": {"z": 1}}, [1, 3]]}]"#.appending("\n")
        try inline.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        try """
            [
                {
                    "id": 0,
                    "e": [{"k": 1, "v": "x"}, {"k": 2}],
                    "f": [{"k": 1}, [1, 2]]
                }
            ]

            """.write(to: scratch.appendingPathComponent("pretty-old.json"), atomically: true, encoding: .utf8)
        let prettyNew = """
            [
                {
                    "id": 0,
                    "e": [{"k": 1, "v": [1, 2]}, {"k": 2}],
                    "f": [{"k": 1, "n": {"z": 1}}, [1, 3]]
                }
            ]

            """
        try prettyNew.write(to: scratch.appendingPathComponent("pretty-new.json"), atomically: true, encoding: .utf8)
        for (oldName, newName, expected) in [("old.json", "new.json", inline), ("pretty-old.json", "pretty-new.json", prettyNew)] {
            let patch = try changeset([oldName, newName, "--id", "id", "--format", "patch", "-o", "q.patch"], in: scratch)
            #expect(patch.status == 1 && patch.stderr.isEmpty, "\(patch)")
            let result = try changeset(["apply", oldName, "q.patch"], in: scratch)
            #expect(result.status == 0 && result.stdout == expected, "\(result)")
        }
    }

    /// Found by review: a field added inside elements is "added", not an
    /// element "inserted", and a record counts once for a transition its
    /// elements make several times.
    @Test func elementTransitionsCountRecordsAndSayWhatChanged() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let old = (0..<5).map { #"{"id":\#($0),"items":[{"sku":"a"},{"sku":"b"}],"p":[5,5,5],"t":["x"]}"# }
        let new = (0..<5).map { #"{"id":\#($0),"items":[{"sku":"a","disc":5},{"sku":"b","disc":5}],"p":\#($0 == 0 ? "[6,6,6]" : "[5,5,5]"),"t":["x","y","y"]}"# }
        try old.joined(separator: "\n").write(to: scratch.appendingPathComponent("old.ndjson"), atomically: true, encoding: .utf8)
        try new.joined(separator: "\n").write(to: scratch.appendingPathComponent("new.ndjson"), atomically: true, encoding: .utf8)
        let stat = try changeset(["old.ndjson", "new.ndjson", "--id", "id", "--stat"], in: scratch)
        #expect(stat.stdout == """
            0 inserted, 0 deleted, 5 updated, 0 moved, 0 unchanged
            fields: items.disc 5, t 5, p 1
              items[].disc: (absent) -> 5 (5)
              t[]: inserted "y" (5)
              p[]: numbers changed by 1 at most, 1 on average (1 record)

            """, "\(stat)")
    }

    @Test func randomArraysRoundTrip() throws {
        let seed = RoundTripTests.seed
        var random = SplitMix64(seed: seed &+ 0xA77A)
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for iteration in 0..<10 {
            let old = (0..<Int.random(in: 1...12, using: &random)).map { _ in RandomArrays.arrays(using: &random) }
            let new = old.map { RandomArrays.mutate($0, using: &random) }
            func file(_ records: [[[String]]]) -> String {
                "[\n" + records.enumerated().map { RandomArrays.text(id: $0.offset, $0.element) }.joined(separator: ",\n") + "\n]\n"
            }
            let oldURL = scratch.appendingPathComponent("old.json")
            let newURL = scratch.appendingPathComponent("new.json")
            try file(old).write(to: oldURL, atomically: true, encoding: .utf8)
            try file(new).write(to: newURL, atomically: true, encoding: .utf8)
            let context = "seed \(seed), iteration \(iteration)"
            for key in [["--id", "id"], ["--id", "id", "--arrays", "whole"]] {
                let jsonPatch = try changeset(["old.json", "new.json", "--format", "jsonpatch"] + key, in: scratch)
                #expect(jsonPatch.status <= 1 && jsonPatch.stderr.isEmpty, "\(context): \(jsonPatch)")
                try expectJSONPatch(jsonPatch.stdout, turns: oldURL, into: newURL, recordsAt: [])
            }
            let patch = try changeset(["old.json", "new.json", "--id", "id", "--format", "patch", "-o", "p.patch"], in: scratch)
            #expect(patch.status <= 1, "\(context): \(patch)")
            let applied = try changeset(["apply", "old.json", "p.patch", "-o", "rebuilt.json"], in: scratch)
            #expect(applied.status == 0, "\(context): \(applied)")
            // Both files are written alike, so what apply keeps and what it writes anew give NEW's very bytes.
            let rebuilt = try String(contentsOf: scratch.appendingPathComponent("rebuilt.json"), encoding: .utf8)
            #expect(rebuilt == (try String(contentsOf: newURL, encoding: .utf8)), "\(context): apply did not rebuild new:\n\(rebuilt)")
        }
    }
}

/// Records whose arrays change: scalars, objects holding `id` (matched by
/// it), objects without one, and arrays of arrays.
enum RandomArrays {
    static func scalar(using random: inout SplitMix64) -> String {
        ["1", "2", "3.5", "\"a\"", "\"b\"", "\"c\"", "true", "null", "\"é/~\""].randomElement(using: &random)!
    }

    static func element(_ kind: Int, using random: inout SplitMix64) -> String {
        switch kind {
        case 0: return scalar(using: &random)
        case 1: return "{\"id\": \(Int.random(in: 0...30, using: &random)), \"v\": \(scalar(using: &random))}"
        case 2: return "{\"v\": \(scalar(using: &random)), \"w\": [\(scalar(using: &random))]}"
        default: return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in scalar(using: &random) }.joined(separator: ", ") + "]"
        }
    }

    /// Four arrays, one of each kind (`ids` elements keep their ids unique, as a key wants).
    static func arrays(using random: inout SplitMix64) -> [[String]] {
        (0..<4).map { kind in
            var elements = (0..<Int.random(in: 0...6, using: &random)).map { _ in element(kind, using: &random) }
            if kind == 1 { elements = Array(Dictionary(elements.map { ($0.split(separator: ",")[0], $0) }, uniquingKeysWith: { a, _ in a }).values).sorted() }
            return elements
        }
    }

    static func text(id: Int, _ arrays: [[String]]) -> String {
        "{\"id\": \(id), " + ["s", "k", "o", "m"].enumerated().map { "\"\($1)\": [" + arrays[$0].joined(separator: ", ") + "]" }.joined(separator: ", ") + "}"
    }

    /// Inserts, deletes and replaces elements of each array, sometimes none.
    static func mutate(_ record: [[String]], using random: inout SplitMix64) -> [[String]] {
        var arrays = record
        for kind in arrays.indices where Bool.random(using: &random) {
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: arrays[kind].insert(element(kind, using: &random), at: Int.random(in: 0...arrays[kind].count, using: &random))
                case 1 where !arrays[kind].isEmpty: arrays[kind].remove(at: Int.random(in: 0..<arrays[kind].count, using: &random))
                case 2 where !arrays[kind].isEmpty: arrays[kind][Int.random(in: 0..<arrays[kind].count, using: &random)] = element(kind, using: &random)
                default: break
                }
            }
        }
        return arrays
    }
}
