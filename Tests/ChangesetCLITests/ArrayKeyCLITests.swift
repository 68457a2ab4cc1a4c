import Foundation
import Testing

/// Array elements matched by their own identity, through the real command,
/// on the shape of countries+states (dr5hn): countries keyed by `iso3`, each
/// with `states: [{id, name, state_code}]`. Between the snapshots "Berat
/// County" (603) and "Berat District" (629) both became "Berat", 603 moved
/// to the end, and in Andorra 489 went and 491 came first: paired by
/// position, `states[0]` would join 603 with 629.
@Suite struct ArrayKeyCLITests {
    static let states = ["array-keys/old.json", "array-keys/new.json", "--id", "iso3"]

    @Test func statesAreMatchedByTheirIDAndTheReportSaysSo() throws {
        let text = try changeset(Self.states)
        #expect(text.status == 1, "\(text)")
        #expect(text.stdout.contains("arrays matched by key: states[] by \"id\" (2 records)\n"), "\(text)")
        // 629 renamed is an update of 629, not 603 turned into 629.
        #expect(text.stdout.contains("  states[0].name: \"Berat District\" -> \"Berat\"\n"), "\(text)")
        #expect(!text.stdout.contains(".id: "), "\(text)")
        #expect(text.stdout.contains("  states[1]: deleted {\"id\":489,\"name\":\"Canillo\",\"state_code\":\"02\"}\n"), "\(text)")
        #expect(text.stdout.contains("  states[0]: inserted {\"id\":491,\"name\":\"Escaldes-Engordany\",\"state_code\":\"08\"}\n"), "\(text)")
        let json = try changeset(Self.states + ["--format", "json"])
        let keyed = try run("jq", ["-c", ".summary.keyedArrays"], input: json.stdout)
        #expect(keyed == #"[{"array":"states[]","key":"id","records":2}]"# + "\n")
        let markdown = try changeset(Self.states + ["--format", "markdown"])
        #expect(markdown.stdout.contains("_arrays matched by key: `states[]` by `\"id\"` (2 records)._\n"), "\(markdown)")
        let html = try changeset(Self.states + ["--format", "html"])
        #expect(html.stdout.contains("<p class=\"cut\" id=\"keyed-arrays\">arrays matched by key: states[] by &quot;id&quot; (2 records)</p>"), "\(html)")
    }

    @Test func theJSONPatchOfKeyedStatesRebuildsNew() throws {
        let patch = try changeset(Self.states + ["--format", "jsonpatch"])
        #expect(patch.status == 1 && patch.stderr.isEmpty, "\(patch)")
        try expectJSONPatch(patch.stdout, turns: fixtures.appendingPathComponent("array-keys/old.json"),
                            into: fixtures.appendingPathComponent("array-keys/new.json"), recordsAt: [])
        // The changeset's own patch, applied by changeset, too.
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let own = try changeset(Self.states + ["--format", "patch", "-o", scratch.appendingPathComponent("p.patch").path])
        #expect(own.status == 1, "\(own)")
        let applied = try changeset(["apply", "array-keys/old.json", scratch.appendingPathComponent("p.patch").path])
        #expect(applied.status == 0, "\(applied)")
        let rebuilt = try JSONSerialization.jsonObject(with: Data(applied.stdout.utf8)) as? NSArray
        let new = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent("array-keys/new.json"))) as? NSArray
        #expect(rebuilt == new, "\(applied)")
    }

    /// An explicit key a record's array does not hold is exit 2 in every
    /// format: `-q`, `patch` and `batch` read no field changes, and once
    /// exited 1 with no error (a patch was even written).
    @Test func anUnheldExplicitKeyFailsInEveryFormat() throws {
        let paths = try scratchFiles([("old.json", #"[{"id":1,"s":[{"k":1},3]}]"#), ("new.json", #"[{"id":1,"s":[3,{"k":1}]}]"#)])
        for format in [["-q"], ["--format", "patch"], ["--format", "batch"], ["--stat"], [], ["--format", "json"]] {
            let result = try changeset(paths + ["--id", "id", "--array-key", "s=k"] + format)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(format): \(result)")
            #expect(result.stderr.contains(#"record "1": s[1] is not an object"#), "\(format): \(result)")
        }
    }

    @Test func arrayKeySetsRefusesAndRejects() throws {
        // PATH= refuses the key: elements pair by content, then position (603 -> 629 again).
        let refused = try changeset(Self.states + ["--array-key", "states="])
        #expect(refused.status == 1 && !refused.stdout.contains("arrays matched by key"), "\(refused)")
        #expect(refused.stdout.contains("  states[0].id: 603 -> 629\n"), "\(refused)")
        // A glob and another member: state_code is unique in each country too.
        let code = try changeset(Self.states + ["--array-key", "st*=state_code"])
        #expect(code.stdout.contains("arrays matched by key: states[] by \"state_code\" (2 records)\n"), "\(code)")
        // The summaries' spelling of an array is taken too.
        let spelled = try changeset(Self.states + ["--array-key", "states[]=state_code"])
        #expect(spelled.stdout == code.stdout, "\(spelled)")
        // name is not unique in NEW's Albania: an error naming the file, the record's line, its id and the array.
        let repeated = try changeset(Self.states + ["--array-key", "states=name"])
        #expect(repeated.status == 2 && repeated.stdout.isEmpty, "\(repeated)")
        #expect(repeated.stderr.hasPrefix(
            "changeset: array-keys/new.json:2:1: record \"ALB\": states[0] and states[3] share the key \"name\" \"Berat\", but --array-key states=name"),
            "\(repeated)")
        let missing = try changeset(Self.states + ["--array-key", "states=code"])
        #expect(missing.status == 2 && missing.stderr.contains("record \"ALB\": states[0] has no \"code\""), "\(missing)")
        // Named by a renamed array's new name, the rule is about the old one, as --ignore's are.
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try String(contentsOf: fixtures.appendingPathComponent("array-keys/new.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"states\"", with: "\"provinces\"").write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let renamed = try changeset(["array-keys/old.json", scratch.appendingPathComponent("new.json").path, "--id", "iso3",
                                     "--rename", "states=provinces", "--array-key", "provinces=state_code"])
        #expect(renamed.stdout.contains("arrays matched by key: states[] by \"state_code\" (2 records)\n"), "\(renamed)")
        let malformed = try changeset(Self.states + ["--array-key", "states"])
        #expect(malformed.status == 2 && malformed.stderr.contains("invalid --array-key \"states\": write PATH=FIELD"), "\(malformed)")
    }

    @Test func arraysSetIgnoresOrderAndTheReplayFormatsRefuseIt() throws {
        let set = try changeset(Self.states + ["--arrays", "set"])
        #expect(set.status == 1, "\(set)")
        // 603 moved and renamed: one change of its name, at its place in NEW; nothing deleted or inserted in Albania.
        #expect(set.stdout.contains("  states[0].name: \"Berat District\" -> \"Berat\"\n  states[3].name: \"Berat County\" -> \"Berat\"\n"), "\(set)")
        #expect(!set.stdout.contains("deleted {\"id\":603"), "\(set)")
        for format in ["patch", "jsonpatch", "batch"] {
            let refused = try changeset(Self.states + ["--arrays", "set", "--format", format])
            #expect(refused.status == 2 && refused.stdout.isEmpty && refused.stderr.contains("--arrays set"), "\(refused)")
        }
        // Only the order changed: no difference at all.
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try #"[{"k":1,"tags":["a","b",{"id":1,"v":2}]}]"#.write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try #"[{"k":1,"tags":[{"id":1,"v":2},"b","a"]}]"#.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let same = try changeset(["old.json", "new.json", "--id", "k", "--arrays", "set"], in: scratch)
        #expect(same.status == 0, "\(same)")
    }

    @Test func mergeMatchesStatesByKeyAndTakesArrayKey() throws {
        let merge = ["merge", "array-keys/base.json", "array-keys/ours.json", "array-keys/theirs.json", "--id", "iso3"]
        // OURS renamed 603 and moved it last; THEIRS changed its code and inserted 611 first: both land.
        let merged = try changeset(merge)
        #expect(merged.status == 0 && merged.stderr.isEmpty, "\(merged)")
        #expect(merged.stdout.hasPrefix("""
            [
              {"iso3": "ALB", "name": "Albania", "states": [
                {"id": 611, "name": "Elbasan County", "state_code": "03"},
                {"id": 629, "name": "Berat District", "state_code": "BR"},
                {"id": 607, "name": "Dibër County", "state_code": "09"},
                {"id": 610, "name": "Durrës County", "state_code": "02"},
                {"id": 603, "name": "Berat", "state_code": "01X"}
              ]},
            """), "\(merged)")
        // Without the key the positions collide: a conflict, nothing written.
        let refused = try changeset(merge + ["--array-key", "states="])
        #expect(refused.status == 1 && refused.stdout.isEmpty && refused.stderr.contains("conflict: id ALB"), "\(refused)")
        // A key THEIRS repeats is an error, not a positional merge.
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let theirs = try String(contentsOf: fixtures.appendingPathComponent("array-keys/theirs.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"01X\"", with: "\"BR\"")
        try theirs.write(to: scratch.appendingPathComponent("theirs.json"), atomically: true, encoding: .utf8)
        let bad = try changeset(["merge", "array-keys/base.json", "array-keys/ours.json", scratch.appendingPathComponent("theirs.json").path,
                                 "--id", "iso3", "--array-key", "states=state_code"])
        #expect(bad.status == 2 && bad.stdout.isEmpty, "\(bad)")
        #expect(bad.stderr.contains("theirs.json:2:1: record \"ALB\": states[1] and states[2] share the key \"state_code\" \"BR\""), "\(bad)")
    }

    /// A keyed element that moved is one move: a line in text, an RFC 6902
    /// `move` in jsonpatch, each followed by what changed inside it.
    @Test func aMovedStateIsOneMoveInTextAndJSONPatch() throws {
        let text = try changeset(Self.states)
        #expect(text.stdout.contains("""
            updated  id ALB  at 0, line 2
              states[0] -> states[3]: moved
              states[3].name: "Berat County" -> "Berat"
              states[0].name: "Berat District" -> "Berat"

            """), "\(text)")
        // json: the deletion and the insertion, each naming the other's index.
        let json = try changeset(Self.states + ["--format", "json"])
        let moved = try run("jq", ["-c", "[.changes[0].fields[] | {pointer, movedTo, movedFrom}]"], input: json.stdout)
        #expect(moved == #"[{"pointer":"/states/0","movedTo":3,"movedFrom":null},{"pointer":"/states/3","movedTo":null,"movedFrom":0},"#
            + #"{"pointer":"/states/0/name","movedTo":null,"movedFrom":null}]"# + "\n", "\(json)")
        let patch = try changeset(Self.states + ["--format", "jsonpatch"])
        #expect(patch.stdout == """
            [
            {"op":"move","from":"/0/states/0","path":"/0/states/3"},
            {"op":"replace","path":"/0/states/3/name","value":"Berat"},
            {"op":"replace","path":"/0/states/0/name","value":"Berat"},
            {"op":"remove","path":"/1/states/1"},
            {"op":"add","path":"/1/states/0","value":{"id":491,"name":"Escaldes-Engordany","state_code":"08"}}
            ]

            """, "\(patch)")
    }

    /// Keyed elements shuffled, renamed, deleted and inserted at random,
    /// nested keyed arrays too: the jsonpatch (with and without `test`
    /// operations) rebuilds NEW when Python's jsonpatch applies it.
    @Test func randomKeyedShufflesRoundTripThroughJSONPatch() throws {
        let seed = RoundTripTests.seed
        var random = SplitMix64(seed: seed &+ 0x4B45_59)
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        func states(_ ids: [Int], names: [Int: String], cities: [Int: [Int]]) -> String {
            "[" + ids.map { id in
                let name = names[id] ?? "s\(id)"
                return #"{"id":\#(id),"name":"\#(name)","cities":["# + (cities[id] ?? []).map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]}"
            }.joined(separator: ",") + "]"
        }
        for iteration in 0..<12 {
            var oldRecords: [String] = [], newRecords: [String] = []
            for record in 0..<4 {
                let oldIDs = Array(0..<Int.random(in: 0...9, using: &random))
                var newIDs = oldIDs.filter { _ in Int.random(in: 0..<5, using: &random) > 0 } + (0..<Int.random(in: 0...2, using: &random)).map { 100 + $0 }
                newIDs.shuffle(using: &random)
                let oldCities = Dictionary(uniqueKeysWithValues: oldIDs.map { ($0, Array(0..<Int.random(in: 0...4, using: &random))) })
                let newCities = oldCities.mapValues { $0.shuffled(using: &random).dropLast(Int.random(in: 0...1, using: &random)).map { $0 } }
                let renamed = Dictionary(uniqueKeysWithValues: oldIDs.filter { _ in Bool.random(using: &random) }.map { ($0, "renamed \($0)") })
                oldRecords.append(#"{"iso3":"C\#(record)","states":"# + states(oldIDs, names: [:], cities: oldCities) + "}")
                newRecords.append(#"{"iso3":"C\#(record)","states":"# + states(newIDs, names: renamed, cities: newCities) + "}")
            }
            let oldURL = scratch.appendingPathComponent("old.json"), newURL = scratch.appendingPathComponent("new.json")
            try ("[\n" + oldRecords.joined(separator: ",\n") + "\n]\n").write(to: oldURL, atomically: true, encoding: .utf8)
            try ("[\n" + newRecords.joined(separator: ",\n") + "\n]\n").write(to: newURL, atomically: true, encoding: .utf8)
            for extra in [[], ["--test-ops"]] {
                let patch = try changeset(["old.json", "new.json", "--id", "iso3", "--format", "jsonpatch"] + extra, in: scratch)
                #expect(patch.status <= 1 && patch.stderr.isEmpty, "seed \(seed), iteration \(iteration): \(patch)")
                try expectJSONPatch(patch.stdout, turns: oldURL, into: newURL, recordsAt: [])
            }
        }
    }

    /// What changed inside a moved element is found by the comparison's
    /// rules, as anywhere in the record: the keys of arrays inside it
    /// (`--array-key states.cities=code`: a moved city is a move, not a
    /// deletion and an insertion), `--ignore-case`; the jsonpatch carries
    /// the same and rebuilds NEW (the review found both recomputed by
    /// default rules in the formatters).
    @Test func changesInsideAMovedElementFollowTheComparisonsRules() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let oldURL = scratch.appendingPathComponent("old.json"), newURL = scratch.appendingPathComponent("new.json")
        try #"[{"id":1,"states":[{"id":10,"name":"a","cities":[{"code":"p","n":"x"},{"code":"q","n":"y"},{"code":"r","n":"z"}]},{"id":11}]}]"#
            .write(to: oldURL, atomically: true, encoding: .utf8)
        try #"[{"id":1,"states":[{"id":11},{"id":10,"name":"A","cities":[{"code":"q","n":"y"},{"code":"r","n":"z2"},{"code":"p","n":"x"}]}]}]"#
            .write(to: newURL, atomically: true, encoding: .utf8)
        let arguments = ["old.json", "new.json", "--id", "id", "--array-key", "states.cities=code"]
        let text = try changeset(arguments, in: scratch)
        #expect(text.status == 1, "\(text)")
        #expect(text.stdout.contains(#"arrays matched by key: states[] by "id" (1 record), states[].cities[] by "code" (1 record)"#), "\(text)")
        #expect(text.stdout.hasSuffix("""
              states[0] -> states[1]: moved
              states[1].name: "a" -> "A"
              states[1].cities[0] -> states[1].cities[2]: moved
              states[1].cities[1].n: "z" -> "z2"

            """), "\(text)")
        let ignoringCase = try changeset(arguments + ["--ignore-case"], in: scratch)
        #expect(!ignoringCase.stdout.contains("name"), "\(ignoringCase)")
        let patch = try changeset(arguments + ["--format", "jsonpatch"], in: scratch)
        #expect(patch.status == 1 && patch.stdout.contains(#"{"op":"move","from":"/0/states/1/cities/0","path":"/0/states/1/cities/2"}"#), "\(patch)")
        try expectJSONPatch(patch.stdout, turns: oldURL, into: newURL, recordsAt: [])
    }

    /// `--test-ops`: a `test` before each remove, replace and move, so the
    /// patch applies to OLD and is refused by a document that changed there.
    @Test func testOperationsGuardEveryReplacedRemovedOrMovedValue() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var old = try String(contentsOf: fixtures.appendingPathComponent("array-keys/old.json"), encoding: .utf8)
        // AGO deleted too, so a record's remove is guarded.
        let new = try String(contentsOf: fixtures.appendingPathComponent("array-keys/new.json"), encoding: .utf8)
            .replacingOccurrences(of: ",\n  {\"iso3\": \"AGO\", \"name\": \"Angola\", \"states\": []}", with: "")
        try old.write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try new.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let patch = try changeset(["old.json", "new.json", "--id", "iso3", "--format", "jsonpatch", "--test-ops"], in: scratch)
        #expect(patch.status == 1, "\(patch)")
        #expect(patch.stdout.hasPrefix("""
            [
            {"op":"test","path":"/2","value":{"iso3":"AGO","name":"Angola","states":[]}},
            {"op":"remove","path":"/2"},
            {"op":"test","path":"/0/states/0","value":{"id":603,"name":"Berat County","state_code":"01"}},
            {"op":"move","from":"/0/states/0","path":"/0/states/3"},
            {"op":"test","path":"/0/states/3/name","value":"Berat County"},
            {"op":"replace","path":"/0/states/3/name","value":"Berat"},

            """), "\(patch)")
        try expectJSONPatch(patch.stdout, turns: scratch.appendingPathComponent("old.json"), into: scratch.appendingPathComponent("new.json"), recordsAt: [])
        // Each guarded value changed in turn: the patch is refused, nothing half applied.
        for (from, to) in [("\"Canillo\"", "\"Canillo!\""), ("\"Berat District\"", "\"Berat D.\""), ("\"Angola\"", "\"Angola!\""),
                           ("\"Berat County\"", "\"Berat C.\"")] {
            old = try String(contentsOf: fixtures.appendingPathComponent("array-keys/old.json"), encoding: .utf8).replacingOccurrences(of: from, with: to)
            try old.write(to: scratch.appendingPathComponent("other.json"), atomically: true, encoding: .utf8)
            let script = """
                import json, sys, jsonpatch
                try:
                    jsonpatch.apply_patch(json.load(open(sys.argv[1])), json.load(sys.stdin))
                    print("applied")
                except jsonpatch.JsonPatchTestFailed:
                    print("refused")
                """
            let output = try run("python3", ["-c", script, scratch.appendingPathComponent("other.json").path], input: patch.stdout)
            #expect(output == "refused\n", "\(from) -> \(to)")
        }
        // A moved record is guarded too, with its old version, as a deleted one is.
        let catalog = try changeset(FormatTests.catalog + ["--format", "jsonpatch", "--test-ops"])
        let lines = catalog.stdout.split(separator: "\n")
        #expect(lines.count > 5 && lines[3].hasPrefix(#"{"op":"test","path":"/3","value":{"id":5,"title":"Foundation""#)
            && lines[4] == #"{"op":"move","from":"/3","path":"/0"},"#, "\(catalog)")
        try expectJSONPatch(catalog.stdout, turns: fixtures.appendingPathComponent("catalog/old.json"),
                            into: fixtures.appendingPathComponent("catalog/new.json"), recordsAt: [])
                let text = try changeset(Self.states + ["--test-ops"])
        #expect(text.status == 2 && text.stdout.isEmpty && text.stderr.contains("--test-ops adds test operations to --format jsonpatch"), "\(text)")
    }
}
