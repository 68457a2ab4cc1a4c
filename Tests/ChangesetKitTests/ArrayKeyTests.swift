import Testing
@testable import ChangesetKit

/// Which member identifies an array's elements (`ElementKeys`): the record's
/// `--id` fields, then a member named `id`, when every element of every
/// version holds it once; an `--array-key` rule instead; and `--arrays set`.
@Suite struct ArrayKeyTests {
    static func value(_ json: String) throws -> Value {
        try Array(json.utf8).withSpan { try JSONValueReader.read($0) }
    }

    static func elements(_ json: String) throws -> [Value] {
        guard case .array(let elements) = try value(json) else { throw OptionError("not an array") }
        return elements
    }

    static func key(_ versions: [String], recordKey: [String] = [], rules: [String] = [], at path: [String] = ["states"]) throws -> String {
        let keys = ElementKeys(recordKey: recordKey.map { FieldPath([$0]) }, rules: try rules.map(ArrayKeyRule.init(parsing:)))
        return FieldPath.listArgument(keys.key(at: path, versions: try versions.map(elements), mode: .typed))
    }

    static func changes(_ old: String, _ new: String, arrays: ArrayComparison = .elements, options: RecordOptions = RecordOptions()) throws
        -> (changes: [String], keyed: [String]) {
        let result = FieldChange.keyed(try value(old), try value(new), rules: FieldRules(RecordOptions()), mode: .typed, arrays: arrays,
                                       elementKeys: ElementKeys(options))
        return (result.changes.map { "\($0.location): \($0.old.map(ReportValueText.value) ?? "-") -> \($0.new.map(ReportValueText.value) ?? "-")" },
                result.keyedArrays.map { "\($0.array) by \(FieldPath.listArgument($0.key))" })
    }

    @Test func aMemberNamedIDIsTheKeyWhenEveryElementHoldsItOnce() throws {
        #expect(try Self.key([#"[{"id":1},{"id":2}]"#, #"[{"id":2},{"id":3}]"#]) == "id")
        // The record's key comes first, when the elements hold it.
        #expect(try Self.key([#"[{"id":1,"iso3":"A"}]"#, #"[{"id":2,"iso3":"B"}]"#], recordKey: ["iso3"]) == "iso3")
        #expect(try Self.key([#"[{"id":1}]"#, #"[{"id":2}]"#], recordKey: ["iso3"]) == "id")
        // Repeated on a side, null, an object, missing, or an element that is no object: no key.
        #expect(try Self.key([#"[{"id":1},{"id":1}]"#, #"[{"id":1}]"#]) == "")
        #expect(try Self.key([#"[{"id":null}]"#, #"[{"id":1}]"#]) == "")
        #expect(try Self.key([#"[{"id":{"a":1}}]"#, #"[{"id":1}]"#]) == "")
        #expect(try Self.key([#"[{"id":1},{"name":"x"}]"#, #"[{"id":1}]"#]) == "")
        #expect(try Self.key([#"[{"id":1},2]"#, #"[{"id":1}]"#]) == "")
        // Every version counts (a merge's three).
        #expect(try Self.key([#"[{"id":1}]"#, #"[{"id":1}]"#, #"[{"id":1},{"id":1}]"#]) == "")
    }

    @Test func aRuleSetsOrRefusesTheKeyForTheArraysItNames() throws {
        let versions = [#"[{"id":1,"code":"a"}]"#, #"[{"id":2,"code":"b"}]"#]
        #expect(try Self.key(versions, rules: ["states=code"]) == "code")
        #expect(try Self.key(versions, rules: ["states="]) == "")
        #expect(try Self.key(versions, rules: ["st*=code"]) == "code")
        #expect(try Self.key(versions, rules: ["states=code,id"]) == "code,id")
        // The first rule naming the array applies; a rule for another array leaves the automatic choice.
        #expect(try Self.key(versions, rules: ["states=", "states=code"]) == "")
        #expect(try Self.key(versions, rules: ["regions=code"]) == "id")
        // Nested: states.cities names the cities inside each state, written either way.
        #expect(try Self.key(versions, rules: ["states.cities=code"], at: ["states", "cities"]) == "code")
        #expect(try Self.key(versions, rules: ["states[].cities=code"], at: ["states", "cities"]) == "code")
        #expect(try Self.key(versions, rules: ["states.cities=code"]) == "id")
        #expect(throws: OptionError.self) { try ArrayKeyRule(parsing: "states") }
        #expect(try ArrayKeyRule(parsing: "a\\=b=c").path == ["a=b"])
    }

    @Test func keyedElementsPairByKeyNotPosition() throws {
        // dr5hn: 603 and 629 both renamed "Berat", 603 moved last.
        let result = try Self.changes(
            #"{"states":[{"id":603,"name":"Berat County"},{"id":629,"name":"Berat District"},{"id":607,"name":"Dibër"}]}"#,
            #"{"states":[{"id":629,"name":"Berat"},{"id":607,"name":"Dibër"},{"id":603,"name":"Berat"}]}"#)
        #expect(result.changes == [
            #"states[0]: {"id":603,"name":"Berat County"} -> -"#,
            #"states[2]: - -> {"id":603,"name":"Berat"}"#,
            #"states[0].name: "Berat District" -> "Berat""#,
        ], "\(result)")
        #expect(result.keyed == ["states[] by id"])
        // Refused, the same arrays pair by position: 603 turns into 629.
        var options = RecordOptions()
        options.arrayKeys = [try ArrayKeyRule(parsing: "states=")]
        let refused = try Self.changes(
            #"{"states":[{"id":603,"name":"Berat County"},{"id":629,"name":"Berat District"}]}"#,
            #"{"states":[{"id":629,"name":"Berat"},{"id":603,"name":"Berat"}]}"#, options: options)
        #expect(refused.changes.contains(#"states[0].id: 603 -> 629"#) && refused.keyed.isEmpty, "\(refused)")
    }

    @Test func nestedKeyedArraysAreNotedOnceARecord() throws {
        let result = try Self.changes(
            #"{"states":[{"id":1,"cities":[{"id":10,"n":"a"},{"id":11,"n":"b"}]},{"id":2,"cities":[{"id":20,"n":"c"}]}]}"#,
            #"{"states":[{"id":1,"cities":[{"id":11,"n":"b"},{"id":10,"n":"A"}]},{"id":2,"cities":[{"id":20,"n":"C"}]}]}"#)
        #expect(result.keyed == ["states[] by id", "states[].cities[] by id"], "\(result)")
    }

    @Test func anArraySetMatchesWhereverElementsStand() throws {
        let set = try Self.changes(#"{"t":["a","b","c"]}"#, #"{"t":["c","x","a"]}"#, arrays: .set)
        #expect(set.changes == [#"t[1]: "b" -> -"#, #"t[1]: - -> "x""#], "\(set)")
        // Keyed: a changed element is a change inside it, wherever it went.
        let keyed = try Self.changes(#"{"t":[{"id":1,"v":1},{"id":2,"v":1}]}"#, #"{"t":[{"id":2,"v":1},{"id":1,"v":2}]}"#, arrays: .set)
        #expect(keyed.changes == [#"t[1].v: 1 -> 2"#] && keyed.keyed == ["t[] by id"], "\(keyed)")
        // Without a key, a changed element is deleted and inserted.
        let unkeyed = try Self.changes(#"{"t":[{"v":1},{"v":2}]}"#, #"{"t":[{"v":3},{"v":1}]}"#, arrays: .set)
        #expect(unkeyed.changes == [#"t[1]: {"v":2} -> -"#, #"t[0]: - -> {"v":3}"#], "\(unkeyed)")
        // Repeated content is matched as a multiset.
        let repeated = try Self.changes(#"{"t":[1,1,2]}"#, #"{"t":[2,1]}"#, arrays: .set)
        #expect(repeated.changes == [#"t[1]: 1 -> -"#], "\(repeated)")
        let same = try Self.changes(#"{"t":[3,2,1]}"#, #"{"t":[1,2,3]}"#, arrays: .set)
        #expect(same.changes.isEmpty)
    }

    @Test func anExplicitKeyThatARecordDoesNotHoldIsNamed() throws {
        var options = RecordOptions()
        options.arrayKeys = [try ArrayKeyRule(parsing: "regions.states=id")]
        let keys = ElementKeys(options)
        let record = try Self.value(#"{"regions":[{"states":[{"id":1}]},{"states":[{"id":1},{"id":2},{"id":1}]}]}"#)
        #expect(keys.violation(in: record, mode: .typed)?.problem == #"regions[1].states[0] and regions[1].states[2] share the key "id" 1"#)
        #expect(keys.violation(in: try Self.value(#"{"regions":[{"states":[{"id":1},{"name":"x"}]}]}"#), mode: .typed)?.problem
            == #"regions[0].states[1] has no "id""#)
        #expect(keys.violation(in: try Self.value(#"{"regions":[{"states":[{"id":null}]}]}"#), mode: .typed)?.problem
            == #"regions[0].states[0].id is null, not a key"#)
        #expect(keys.violation(in: try Self.value(#"{"regions":[{"states":[{"id":1},{"id":2}]}]}"#), mode: .typed) == nil)
        // A refusal asks nothing of the records.
        #expect(ElementKeys(recordKey: [], rules: [try ArrayKeyRule(parsing: "regions.states=")]).violation(in: record, mode: .typed) == nil)
    }

    @Test func aMergeMatchesKeyedElementsByTheIDMember() throws {
        // The record is keyed by iso3; its states by id, found by themselves.
        let outcome = FieldMerge(mode: .typed, options: RecordOptions(id: [FieldPath(["iso3"])])).merge(
            try Self.value(#"{"iso3":"ALB","states":[{"id":603,"n":"Berat County"},{"id":629,"n":"Berat District"}]}"#),
            try Self.value(#"{"iso3":"ALB","states":[{"id":629,"n":"Berat District"},{"id":603,"n":"Berat"}]}"#),
            try Self.value(#"{"iso3":"ALB","states":[{"id":611,"n":"Elbasan"},{"id":603,"n":"Berat County"},{"id":629,"n":"Berat"}]}"#),
            key: "ALB")
        #expect(outcome.conflicts.isEmpty, "\(outcome.conflicts)")
        #expect(outcome.ours.jsonText == #"{"iso3":"ALB","states":[{"id":611,"n":"Elbasan"},{"id":629,"n":"Berat"},{"id":603,"n":"Berat"}]}"#)
    }

    /// `JSONPatchFormatter.arrayOperations` replayed on an array of labels
    /// rebuilds NEW, for random deletions, insertions and moves.
    @Test func arrayOperationsReplayRandomMoves() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let old = Array(0..<Int.random(in: 0...8, using: &random))
            var new = old.filter { _ in Int.random(in: 0..<4, using: &random) > 0 } + (0..<Int.random(in: 0...2, using: &random)).map { 100 + $0 }
            new.shuffle(using: &random)
            // Staying: a longest run of old elements kept in order (as the alignment would keep them).
            let pairs = ElementPairing(old.map { .number(String($0)) }, new.map { .number(String($0)) }, mode: .typed, elementKey: [])
            let staying = Set(pairs.pairs.filter(\.matched).map(\.old))
            let moves = new.enumerated().compactMap { index, label in label < 100 && !staying.contains(label) ? (old: label, new: index) : nil }
            let movedOut = Set(moves.map(\.old))
            let deleted = old.filter { !new.contains($0) }
            let inserted = new.indices.filter { new[$0] >= 100 }
            var array = old
            for operation in JSONPatchFormatter.arrayOperations(deleted: deleted, inserted: inserted, moves: moves) {
                switch operation {
                case .remove(let oldIndex, let index):
                    #expect(array[index] == oldIndex)
                    array.remove(at: index)
                case .add(let newIndex, let index): array.insert(new[newIndex], at: index)
                case .move(let oldIndex, _, let from, let to):
                    #expect(array[from] == oldIndex)
                    array.insert(array.remove(at: from), at: to)
                }
            }
            #expect(array == new, "\(old) -> \(new), moved \(movedOut)")
        }
    }
}
