import PropertyBased
import Testing
@testable import ChangesetKit

/// The three-way merge on records in memory (`ThreeWayMerge`, `FieldMerge`).
@Suite struct MergeTests {
    static func records(_ json: String) -> [Value] {
        guard case .array(let elements) = try! Array(json.utf8).withSpan({ try JSONValueReader.read($0) }) else { return [] }
        return elements
    }

    static let id = [FieldPath(["id"])]

    func merged(_ base: String, _ ours: String, _ theirs: String, prefer: MergePreference? = nil, mode: ComparisonMode = .typed)
        -> (records: String, result: MergeResult)
    {
        let (records, result) = ThreeWayMerge.merge(
            base: Self.records(base), ours: Self.records(ours), theirs: Self.records(theirs), id: Self.id, mode: mode, prefer: prefer)
        return (Value.array(records).jsonText, result)
    }

    @Test func aChangeOnOneSideIsTaken() {
        let base = #"[{"id":1,"p":1},{"id":2,"p":2}]"#
        let (records, result) = merged(base, #"[{"id":1,"p":10},{"id":2,"p":2}]"#, base)
        #expect(records == #"[{"id":1,"p":10},{"id":2,"p":2}]"#)
        #expect(result.conflicts.isEmpty && result.fromOurs == 1 && result.fromTheirs == 0)
        let (other, otherResult) = merged(base, base, #"[{"id":1,"p":1},{"id":2,"p":20}]"#)
        #expect(other == #"[{"id":1,"p":1},{"id":2,"p":20}]"#)
        #expect(otherResult.fromTheirs == 1)
    }

    /// A side that only respelled a value (`2.50` -> `2.5`) changed the
    /// record's text: taken as git takes it, never a conflict with a value.
    @Test func aRespellingIsCarriedFromTheSideThatMadeIt() {
        let base = #"[{"id":1,"a":2.50,"b":1},{"id":2,"a":1}]"#
        let (records, result) = merged(base, #"[{"id":1,"a":2.50,"b":1},{"id":2,"a":3}]"#, #"[{"id":1,"a":2.5,"b":1},{"id":2,"a":1}]"#)
        #expect(records == #"[{"id":1,"a":2.5,"b":1},{"id":2,"a":3}]"#)
        #expect(result.conflicts.isEmpty && result.fromOurs == 1 && result.fromTheirs == 0)
        // OURS respelled `a`, THEIRS changed `b`: both.
        let (both, bothResult) = merged(base, #"[{"id":1,"a":2.5,"b":1},{"id":2,"a":1}]"#, #"[{"id":1,"a":2.50,"b":9},{"id":2,"a":1}]"#)
        #expect(both == #"[{"id":1,"a":2.5,"b":9},{"id":2,"a":1}]"#)
        #expect(bothResult.conflicts.isEmpty && bothResult.fromTheirs == 1)
        // OURS respelled `a`, THEIRS changed its value: the value.
        let (value, valueResult) = merged(base, #"[{"id":1,"a":2.5,"b":1},{"id":2,"a":1}]"#, #"[{"id":1,"a":3,"b":1},{"id":2,"a":1}]"#)
        #expect(value == #"[{"id":1,"a":3,"b":1},{"id":2,"a":1}]"#)
        #expect(valueResult.conflicts.isEmpty)
        // Both respelled it, differently: OURS's.
        let (spelled, spelledResult) = merged(base, #"[{"id":1,"a":2.5,"b":1},{"id":2,"a":1}]"#, #"[{"id":1,"a":25e-1,"b":1},{"id":2,"a":1}]"#)
        #expect(spelled == #"[{"id":1,"a":2.5,"b":1},{"id":2,"a":1}]"#)
        #expect(spelledResult.conflicts.isEmpty)
    }

    @Test func theSameChangeOnBothSidesIsTakenOnce() {
        let base = #"[{"id":1,"p":1}]"#
        let both = #"[{"id":1,"p":5},{"id":2,"p":7}]"#
        let (records, result) = merged(base, both, both)
        #expect(records == both)
        #expect(result.conflicts.isEmpty)
    }

    @Test func changesToDifferentFieldsMergeFieldByFieldNestedToo() {
        let (records, result) = merged(
            #"[{"id":1,"name":"a","dims":{"w":1,"h":2},"tags":[1]}]"#,
            #"[{"id":1,"name":"A","dims":{"w":10,"h":2},"tags":[1]}]"#,
            #"[{"id":1,"name":"a","dims":{"w":1,"h":20},"tags":[1,2],"new":true}]"#)
        #expect(records == #"[{"id":1,"name":"A","dims":{"w":10,"h":20},"tags":[1,2],"new":true}]"#)
        #expect(result.conflicts.isEmpty && result.fromBoth == 1)
    }

    @Test func aFieldChangedToDifferentValuesIsAConflictWithItsThreeVersions() {
        let (_, result) = merged(
            #"[{"id":1,"p":1,"q":{"r":1}}]"#, #"[{"id":1,"p":2,"q":{"r":2}}]"#, #"[{"id":1,"p":3,"q":{"r":2}}]"#)
        #expect(result.conflicts == [
            MergeConflict(kind: .field, key: "1", path: FieldPath(["p"]), base: .number("1"), ours: .number("2"), theirs: .number("3"))
        ])
        #expect(result.hasUnresolvedConflicts)
        guard case .conflict(let ours?, let theirs?) = result.records.first else {
            Issue.record("expected a conflict record, got \(result.records)")
            return
        }
        // Each version holds the other side's non-conflicting change (q.r is the same on both).
        #expect(ours.jsonText == #"{"id":1,"p":2,"q":{"r":2}}"#)
        #expect(theirs.jsonText == #"{"id":1,"p":3,"q":{"r":2}}"#)
    }

    @Test func aFieldRemovedOnOneSideAndChangedOnTheOtherConflicts() {
        let (_, result) = merged(#"[{"id":1,"p":1}]"#, #"[{"id":1}]"#, #"[{"id":1,"p":3}]"#)
        #expect(result.conflicts.map(\.kind) == [.field])
        #expect(result.conflicts.first?.ours == nil && result.conflicts.first?.theirs == .number("3"))
    }

    @Test func deletedOnOneSideAndUnchangedOnTheOtherIsDeleted() {
        let base = #"[{"id":1,"p":1},{"id":2,"p":2}]"#
        #expect(merged(base, #"[{"id":2,"p":2}]"#, base).records == #"[{"id":2,"p":2}]"#)
        #expect(merged(base, base, #"[{"id":1,"p":1}]"#).records == #"[{"id":1,"p":1}]"#)
    }

    @Test func deletedOnOneSideAndChangedOnTheOtherConflicts() {
        let base = #"[{"id":1,"p":1}]"#
        let (_, byOurs) = merged(base, "[]", #"[{"id":1,"p":2}]"#)
        #expect(byOurs.conflicts.map(\.kind) == [.deletedByOurs])
        #expect(byOurs.records == [.conflict(ours: nil, theirs: Self.records(#"[{"id":1,"p":2}]"#)[0])])
        let (_, byTheirs) = merged(base, #"[{"id":1,"p":2}]"#, "[]")
        #expect(byTheirs.conflicts.map(\.kind) == [.deletedByTheirs])
    }

    @Test func insertedOnBothSidesWithDifferentContentConflicts() {
        let (_, result) = merged("[]", #"[{"id":9,"p":1}]"#, #"[{"id":9,"p":2}]"#)
        #expect(result.conflicts.map(\.kind) == [.insertedByBoth])
        #expect(result.conflicts.first?.base == nil)
    }

    @Test func preferResolvesEveryKindOfConflictOnPurpose() {
        let base = #"[{"id":1,"p":1},{"id":2,"p":1},{"id":3,"p":1}]"#
        let ours = #"[{"id":1,"p":2},{"id":2,"p":2},{"id":9,"p":1}]"#
        let theirs = #"[{"id":1,"p":3},{"id":3,"p":3},{"id":9,"p":2}]"#
        let (byOurs, oursResult) = merged(base, ours, theirs, prefer: .ours)
        #expect(byOurs == ours)
        #expect(oursResult.conflicts.count == 4 && !oursResult.hasUnresolvedConflicts)
        let (byTheirs, _) = merged(base, ours, theirs, prefer: .theirs)
        #expect(byTheirs == #"[{"id":1,"p":3},{"id":9,"p":2},{"id":3,"p":3}]"#)
    }

    @Test func bothAppendingGivesOursThenTheirs() {
        let base = #"[{"id":1},{"id":2}]"#
        let (records, _) = merged(base, #"[{"id":1},{"id":2},{"id":3}]"#, #"[{"id":1},{"id":2},{"id":4}]"#)
        #expect(records == #"[{"id":1},{"id":2},{"id":3},{"id":4}]"#)
    }

    @Test func theirInsertionGoesAfterItsNeighbourInTheirs() {
        let base = #"[{"id":1},{"id":2},{"id":3}]"#
        let (records, _) = merged(base, #"[{"id":3},{"id":1},{"id":2}]"#, #"[{"id":1},{"id":5},{"id":2},{"id":3}]"#)
        #expect(records == #"[{"id":3},{"id":1},{"id":5},{"id":2}]"#)
        // No neighbour before it in theirs: the start.
        let (first, _) = merged(base, base, #"[{"id":0},{"id":1},{"id":2},{"id":3}]"#)
        #expect(first == #"[{"id":0},{"id":1},{"id":2},{"id":3}]"#)
    }

    @Test func theirMoveIsPlacedAndOursWinsWhenBothMoved() {
        let base = #"[{"id":1},{"id":2},{"id":3},{"id":4}]"#
        let (moved, _) = merged(base, #"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5}]"#, #"[{"id":2},{"id":3},{"id":1},{"id":4}]"#)
        #expect(moved == #"[{"id":2},{"id":3},{"id":1},{"id":4},{"id":5}]"#)
        let (both, _) = merged(base, #"[{"id":4},{"id":1},{"id":2},{"id":3}]"#, #"[{"id":2},{"id":3},{"id":4},{"id":1}]"#)
        // OURS moved 4 to the front; THEIRS moved 1 to right after 4: both hold.
        #expect(both == #"[{"id":4},{"id":1},{"id":2},{"id":3}]"#)
        let (same, _) = merged(base, #"[{"id":4},{"id":1},{"id":2},{"id":3}]"#, #"[{"id":1},{"id":2},{"id":4},{"id":3}]"#)
        #expect(same == #"[{"id":4},{"id":1},{"id":2},{"id":3}]"#)
    }

    @Test func aMemberOnlyTheirsAddedGoesAfterItsNeighbourInTheirs() {
        let (records, _) = merged(#"[{"id":1,"a":1,"c":1}]"#, #"[{"id":1,"a":2,"c":1}]"#, #"[{"id":1,"a":1,"b":5,"c":1}]"#)
        #expect(records == #"[{"id":1,"a":2,"b":5,"c":1}]"#)
    }

    @Test func ignoredFieldsNeverConflictAndKeepOursValue() {
        var options = RecordOptions()
        options.ignore = [FieldPath(["seen"])]
        let fields = FieldMerge(mode: .typed, options: options)
        let outcome = fields.merge(
            Self.records(#"[{"id":1,"p":1,"seen":1}]"#)[0], Self.records(#"[{"id":1,"p":2,"seen":2}]"#)[0],
            Self.records(#"[{"id":1,"p":1,"q":1,"seen":3}]"#)[0], key: "1")
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.ours.jsonText == #"{"id":1,"p":2,"q":1,"seen":2}"#)
    }

    @Test func inTextModeAMissingFieldIsAnEmptyOne() {
        let (records, result) = merged(
            #"[{"id":"1","p":"","q":"1"}]"#, #"[{"id":"1","q":"2"}]"#, #"[{"id":"1","p":"","q":"1","r":"x"}]"#, mode: .text)
        #expect(result.conflicts.isEmpty)
        #expect(records == #"[{"id":"1","q":"2","r":"x"}]"#)
    }

    @Test func withoutIDRecordsAreMatchedByContentAndDuplicatesByOccurrence() {
        let base = Self.records(#"[{"p":1},{"p":1},{"p":2}]"#)
        let ours = Self.records(#"[{"p":1},{"p":2},{"p":3}]"#)
        let theirs = Self.records(#"[{"p":1},{"p":1},{"p":2},{"p":4}]"#)
        let (records, result) = ThreeWayMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(Value.array(records).jsonText == #"[{"p":1},{"p":2},{"p":3},{"p":4}]"#)
        #expect(result.conflicts.isEmpty)
    }

    // MARK: Arrays inside records

    static func value(_ json: String) -> Value { try! Array(json.utf8).withSpan { try JSONValueReader.read($0) } }

    /// `FieldMerge` on three versions of one record, elements keyed by `id` when they all hold one.
    func fieldMerge(_ base: String, _ ours: String, _ theirs: String, id: [FieldPath] = MergeTests.id) -> FieldMerge.Outcome {
        var options = RecordOptions()
        options.id = id
        return FieldMerge(mode: .typed, options: options).merge(Self.value(base), Self.value(ours), Self.value(theirs), key: "1")
    }

    /// vega-datasets' datapackage.json: OURS named each license, THEIRS
    /// changed each one's path; git merges it, the merge conflicted twice
    /// because it merged the array whole.
    @Test func anArrayOfObjectsMergesElementByElement() {
        let outcome = fieldMerge(
            #"{"id":1,"licenses":[{"title":"PDDL","path":"http://a/"},{"title":"CC-BY","path":"http://b/"}]}"#,
            #"{"id":1,"licenses":[{"name":"PDDL-1.0","title":"PDDL","path":"http://a/"},{"name":"CC-BY-4.0","title":"CC-BY","path":"http://b/"}]}"#,
            #"{"id":1,"licenses":[{"title":"PDDL","path":"https://a/"},{"title":"CC-BY","path":"https://b/"}]}"#)
        #expect(outcome.conflicts.isEmpty, "\(outcome.conflicts)")
        #expect(outcome.ours.jsonText
            == #"{"id":1,"licenses":[{"name":"PDDL-1.0","title":"PDDL","path":"https://a/"},{"name":"CC-BY-4.0","title":"CC-BY","path":"https://b/"}]}"#)
        #expect(outcome.theirs == outcome.ours)
    }

    @Test func aConflictInsideAnElementNamesTheElementAndItsThreeValues() {
        let outcome = fieldMerge(
            #"{"id":1,"licenses":[{"path":"a"},{"path":"b","title":"B"}]}"#,
            #"{"id":1,"licenses":[{"path":"a"},{"path":"b2","title":"B"}]}"#,
            #"{"id":1,"licenses":[{"path":"a"},{"path":"b3","title":"Bee"}]}"#)
        #expect(outcome.conflicts == [
            MergeConflict(kind: .field, key: "1", path: FieldPath(["licenses", "path"]), base: .string("b"), ours: .string("b2"),
                          theirs: .string("b3"), elements: [FieldChange.ElementIndex(depth: 1, index: 1)])
        ])
        #expect(outcome.conflicts.first?.location == "licenses[1].path")
        #expect(outcome.conflicts.first?.pointer == "/licenses/1/path")
        // Each resolution holds the other side's change that does not conflict.
        #expect(outcome.ours.jsonText == #"{"id":1,"licenses":[{"path":"a"},{"path":"b2","title":"Bee"}]}"#)
        #expect(outcome.theirs.jsonText == #"{"id":1,"licenses":[{"path":"a"},{"path":"b3","title":"Bee"}]}"#)
    }

    @Test func elementsInsertedOrDeletedByOneSideAreThatSidesEdit() {
        let outcome = fieldMerge(
            #"{"id":1,"parts":[{"n":1,"q":1},{"n":2,"q":2},{"n":3,"q":3}]}"#,
            #"{"id":1,"parts":[{"n":0,"q":0},{"n":1,"q":1},{"n":2,"q":20},{"n":3,"q":3}]}"#,
            #"{"id":1,"parts":[{"n":2,"q":2},{"n":3,"q":3,"r":1},{"n":4,"q":4}]}"#)
        #expect(outcome.conflicts.isEmpty, "\(outcome.conflicts)")
        #expect(outcome.ours.jsonText == #"{"id":1,"parts":[{"n":0,"q":0},{"n":2,"q":20},{"n":3,"q":3,"r":1},{"n":4,"q":4}]}"#)
    }

    @Test func anElementDeletedOnOneSideAndChangedOnTheOtherConflicts() {
        let outcome = fieldMerge(
            #"{"id":1,"parts":[{"n":1,"q":1},{"n":2,"q":2}]}"#,
            #"{"id":1,"parts":[{"n":1,"q":1},{"n":2,"q":20}]}"#,
            #"{"id":1,"parts":[{"n":1,"q":1}]}"#)
        #expect(outcome.conflicts == [
            MergeConflict(kind: .field, key: "1", path: FieldPath(["parts"]), base: Self.value(#"{"n":2,"q":2}"#),
                          ours: Self.value(#"{"n":2,"q":20}"#), theirs: nil, elements: [FieldChange.ElementIndex(depth: 1, index: 1)])
        ])
        #expect(outcome.ours.jsonText == #"{"id":1,"parts":[{"n":1,"q":1},{"n":2,"q":20}]}"#)
        #expect(outcome.theirs.jsonText == #"{"id":1,"parts":[{"n":1,"q":1}]}"#)
    }

    @Test func elementsInsertedByBothAtOnePlaceAreTakenOnceWhenEqualElseOursThenTheirs() {
        let equal = fieldMerge(
            #"{"id":1,"parts":[{"n":1},{"n":9}]}"#, #"{"id":1,"parts":[{"n":1,"q":1},{"n":2},{"n":9}]}"#,
            #"{"id":1,"parts":[{"n":1},{"n":2},{"n":9}]}"#)
        #expect(equal.conflicts.isEmpty && equal.ours.jsonText == #"{"id":1,"parts":[{"n":1,"q":1},{"n":2},{"n":9}]}"#)
        let different = fieldMerge(
            #"{"id":1,"parts":[{"n":1}]}"#, #"{"id":1,"parts":[{"n":1},{"n":2}]}"#, #"{"id":1,"parts":[{"n":1},{"n":3}]}"#)
        #expect(different.conflicts.isEmpty && different.ours.jsonText == #"{"id":1,"parts":[{"n":1},{"n":2},{"n":3}]}"#)
    }

    /// Elements that all hold the record's id field are matched by it, as the comparison matches them.
    @Test func elementsWithTheIDFieldAreMatchedByItMovesIncluded() {
        // OURS moved element 3 to the front; THEIRS changed it and element 1.
        let moved = fieldMerge(
            #"{"id":1,"parts":[{"id":1,"q":1},{"id":2,"q":2},{"id":3,"q":3}]}"#,
            #"{"id":1,"parts":[{"id":3,"q":3},{"id":1,"q":1},{"id":2,"q":2}]}"#,
            #"{"id":1,"parts":[{"id":1,"q":10},{"id":2,"q":2},{"id":3,"q":30}]}"#)
        #expect(moved.conflicts.isEmpty, "\(moved.conflicts)")
        #expect(moved.ours.jsonText == #"{"id":1,"parts":[{"id":3,"q":30},{"id":1,"q":10},{"id":2,"q":2}]}"#)
        // One id inserted by both with different content: a conflict on that element.
        let inserted = fieldMerge(
            #"{"id":1,"parts":[{"id":1}]}"#, #"{"id":1,"parts":[{"id":1},{"id":5,"q":1}]}"#, #"{"id":1,"parts":[{"id":5,"q":2},{"id":1}]}"#)
        #expect(inserted.conflicts.map(\.location) == ["parts[1]"])
        #expect(inserted.conflicts.first?.base == nil)
        #expect(inserted.ours.jsonText == #"{"id":1,"parts":[{"id":1},{"id":5,"q":1}]}"#)
        #expect(inserted.theirs.jsonText == #"{"id":1,"parts":[{"id":1},{"id":5,"q":2}]}"#)
    }

    @Test func anArrayOfScalarsMergesAsASequenceWhereTheEditsDoNotOverlap() {
        let apart = fieldMerge(#"{"id":1,"tags":["a","b","c","d"]}"#, #"{"id":1,"tags":["z","a","b","c","d"]}"#, #"{"id":1,"tags":["a","b","c"],"x":1}"#)
        #expect(apart.conflicts.isEmpty && apart.ours.jsonText == #"{"id":1,"tags":["z","a","b","c"],"x":1}"#)
        // Both appended, differently: their edits overlap, a conflict on the array.
        let overlapping = fieldMerge(#"{"id":1,"tags":["a","b"]}"#, #"{"id":1,"tags":["z","a","b","c"]}"#, #"{"id":1,"tags":["a","b","d"]}"#)
        #expect(overlapping.conflicts == [
            MergeConflict(kind: .field, key: "1", path: FieldPath(["tags"]), base: Self.value(#"["a","b"]"#),
                          ours: Self.value(#"["z","a","b","c"]"#), theirs: Self.value(#"["a","b","d"]"#))
        ])
        // Each resolution has the other side's edits where they do not overlap.
        #expect(overlapping.ours.jsonText == #"{"id":1,"tags":["z","a","b","c"]}"#)
        #expect(overlapping.theirs.jsonText == #"{"id":1,"tags":["z","a","b","d"]}"#)
        // A respelled element equal on all sides keeps the respelling.
        let spelled = fieldMerge(#"{"id":1,"v":[2.50,1]}"#, #"{"id":1,"v":[2.5,1]}"#, #"{"id":1,"v":[2.50,1,7]}"#)
        #expect(spelled.conflicts.isEmpty && spelled.ours.jsonText == #"{"id":1,"v":[2.5,1,7]}"#)
    }

    @Test func insideAnArrayElementTheIgnoreRulesDoNotReach() {
        var options = RecordOptions()
        options.ignore = [FieldPath(["seen"])]
        let outcome = FieldMerge(mode: .typed, options: options).merge(
            Self.value(#"{"id":1,"seen":1,"parts":[{"seen":1}]}"#), Self.value(#"{"id":1,"seen":2,"parts":[{"seen":2}]}"#),
            Self.value(#"{"id":1,"seen":3,"parts":[{"seen":3}]}"#), key: "1")
        #expect(outcome.conflicts.map(\.location) == ["parts[0].seen"])
        #expect(outcome.ours.jsonText == #"{"id":1,"seen":2,"parts":[{"seen":2}]}"#)
    }

    // MARK: Laws

    /// A small dataset: records with ids 0..<n and fields a, b, c, and
    /// random edits on it, from a seed.
    struct Edits {
        var random: SplitMix

        mutating func base() -> [Value] {
            (0..<random.next(upTo: 12)).map { Edits.record(id: $0, a: random.next(upTo: 4), b: random.next(upTo: 4), c: random.next(upTo: 4)) }
        }

        static func record(id: Int, a: Int, b: Int, c: Int) -> Value {
            .object([
                .init(name: "id", value: .number(String(id))), .init(name: "a", value: .number(String(a))),
                .init(name: "b", value: .number(String(b))), .init(name: "c", value: .object([.init(name: "d", value: .number(String(c)))])),
            ])
        }

        /// Random edits: delete, change `field` (a, or c.d), insert (ids from `newIDs`), move.
        mutating func edit(_ records: [Value], touching allowed: Set<Int>, field: String, newIDs: Range<Int>) -> [Value] {
            var result = records
            for index in result.indices.reversed() where allowed.contains(Self.id(result[index])) {
                switch random.next(upTo: 4) {
                case 0: result.remove(at: index)
                case 1: result[index] = Self.setting(field, of: result[index], to: 10 + random.next(upTo: 5))
                default: break
                }
            }
            for id in newIDs where random.next(upTo: 2) == 0 {
                result.insert(Self.record(id: id, a: 0, b: 0, c: 0), at: random.next(upTo: result.count + 1))
            }
            return result
        }

        static func id(_ record: Value) -> Int { Int(MergeTests.text(record.member(at: ["id"]))) ?? -1 }

        static func setting(_ field: String, of record: Value, to number: Int) -> Value {
            guard case .object(var members) = record else { return record }
            for index in members.indices {
                if field == "a" && members[index].name == "a" { members[index].value = .number(String(number)) }
                if field == "c.d" && members[index].name == "c" {
                    members[index].value = .object([.init(name: "d", value: .number(String(number)))])
                }
            }
            return .object(members)
        }
    }

    static func text(_ value: Value?) -> String {
        if case .number(let text)? = value { return text }
        return value?.jsonText ?? ""
    }

    @Test func mergingWithAnUnchangedSideReturnsTheOtherSide() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...1_000_000)) { seed in
            var edits = Edits(random: SplitMix(seed: UInt64(seed)))
            let base = edits.base()
            var edited = edits.edit(base, touching: Set(0..<100), field: "a", newIDs: 100..<104)
            // A move too: the last record to the front.
            if edited.count > 1 { edited.insert(edited.removeLast(), at: 0) }
            let (unchangedOurs, first) = ThreeWayMerge.merge(base: base, ours: base, theirs: edited, id: Self.id)
            #expect(unchangedOurs == edited, "seed \(seed)")
            #expect(first.conflicts.isEmpty)
            let (unchangedTheirs, second) = ThreeWayMerge.merge(base: base, ours: edited, theirs: base, id: Self.id)
            #expect(unchangedTheirs == edited, "seed \(seed)")
            #expect(second.conflicts.isEmpty)
        }
    }

    @Test func mergingASideWithItselfReturnsIt() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...1_000_000), Gen.bool) { seed, byID in
            var edits = Edits(random: SplitMix(seed: UInt64(seed)))
            let base = edits.base()
            let edited = edits.edit(base, touching: Set(0..<100), field: "c.d", newIDs: 100..<104)
            let (records, result) = ThreeWayMerge.merge(base: base, ours: edited, theirs: edited, id: byID ? Self.id : [])
            #expect(records == edited, "seed \(seed)")
            #expect(result.conflicts.isEmpty)
        }
    }

    @Test func editsThatDoNotOverlapAllLand() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...1_000_000)) { seed in
            var edits = Edits(random: SplitMix(seed: UInt64(seed)))
            let base = edits.base()
            let ids = base.map(Edits.id)
            // OURS edits `a` of even ids; THEIRS edits `c.d` of ids divisible by 3 and may delete only odd ones.
            let ours = edits.edit(base, touching: Set(ids.filter { $0 % 2 == 0 }), field: "a", newIDs: 100..<103)
            var theirs = edits.edit(base, touching: Set(ids.filter { $0 % 2 == 1 }), field: "c.d", newIDs: 200..<203)
            // THEIRS also changes c.d of records OURS kept and may have changed (a different field).
            let keptByOurs = Set(ours.map(Edits.id))
            theirs = theirs.map {
                let id = Edits.id($0)
                return id % 3 == 0 && id < 100 && keptByOurs.contains(id) ? Edits.setting("c.d", of: $0, to: 42) : $0
            }
            let (records, result) = ThreeWayMerge.merge(base: base, ours: ours, theirs: theirs, id: Self.id)
            #expect(result.conflicts.isEmpty, "seed \(seed): \(result.conflicts)")
            let byID = Dictionary(records.map { (Edits.id($0), $0) }, uniquingKeysWith: { first, _ in first })
            #expect(byID.count == records.count, "seed \(seed): an id twice in \(records)")
            let oursByID = Dictionary(ours.map { (Edits.id($0), $0) }, uniquingKeysWith: { first, _ in first })
            let theirsByID = Dictionary(theirs.map { (Edits.id($0), $0) }, uniquingKeysWith: { first, _ in first })
            let baseIDs = Set(ids)
            for id in Set(oursByID.keys).union(theirsByID.keys).union(baseIDs) {
                let inOurs = oursByID[id] != nil, inTheirs = theirsByID[id] != nil
                // Held by the result exactly when neither side deleted it (or a side inserted it).
                let expected = baseIDs.contains(id) ? inOurs && inTheirs : inOurs || inTheirs
                #expect((byID[id] != nil) == expected, "seed \(seed): id \(id)")
                guard let record = byID[id], baseIDs.contains(id) else { continue }
                #expect(record.member(at: ["a"]) == oursByID[id]?.member(at: ["a"]), "seed \(seed): id \(id) lost OURS's a")
                #expect(record.member(at: ["c", "d"]) == theirsByID[id]?.member(at: ["c", "d"]), "seed \(seed): id \(id) lost THEIRS's c.d")
            }
            // OURS's records keep their order (THEIRS made no moves).
            let oursOrder = ours.map(Edits.id).filter { byID[$0] != nil }
            #expect(records.map(Edits.id).filter { oursByID[$0] != nil } == oursOrder, "seed \(seed)")
        }
    }
}


// MARK: Laws for arrays inside records

extension MergeTests {
    /// A record holding an array of objects (`parts`, each with a unique
    /// `id`, or `n` when not keyed) and an array of scalars (`tags`, with
    /// repeats), and random edits of both, from a seed.
    struct ArrayEdits {
        var random: SplitMix
        let keyed: Bool
        var nextName = 100

        var keyName: String { keyed ? "id" : "n" }

        static func element(_ key: String, _ name: Int, q: Int, r: Int) -> Value {
            .object([.init(name: key, value: .number(String(name))), .init(name: "q", value: .number(String(q))),
                     .init(name: "r", value: .number(String(r)))])
        }

        mutating func base() -> Value {
            let parts = (0..<random.next(upTo: 8)).map { Self.element(keyName, $0, q: random.next(upTo: 3), r: random.next(upTo: 3)) }
            let tags = (0..<random.next(upTo: 6)).map { _ in Value.string(["a", "b", "c"][random.next(upTo: 3)]) }
            return Self.record(parts: parts, tags: tags)
        }

        static func record(parts: [Value], tags: [Value]) -> Value {
            .object([.init(name: "id", value: .number("1")), .init(name: "parts", value: .array(parts)), .init(name: "tags", value: .array(tags))])
        }

        static func parts(_ record: Value) -> [Value] { if case .array(let parts)? = record.member(at: ["parts"]) { parts } else { [] } }
        static func tags(_ record: Value) -> [Value] { if case .array(let tags)? = record.member(at: ["tags"]) { tags } else { [] } }

        static func setting(_ member: String, of element: Value, to number: Int) -> Value {
            guard case .object(var members) = element else { return element }
            for index in members.indices where members[index].name == member { members[index].value = .number(String(number)) }
            return .object(members)
        }

        /// Any edits: elements changed, deleted, inserted or (keyed) moved; tags inserted or deleted.
        mutating func edit(_ record: Value) -> Value {
            var parts = Self.parts(record)
            for index in parts.indices.reversed() {
                switch random.next(upTo: 5) {
                case 0: parts.remove(at: index)
                case 1: parts[index] = Self.setting(["q", "r"][random.next(upTo: 2)], of: parts[index], to: 10 + random.next(upTo: 5))
                case 2 where keyed && parts.count > 1: parts.insert(parts.remove(at: index), at: random.next(upTo: parts.count))
                default: break
                }
            }
            for _ in 0..<random.next(upTo: 3) {
                parts.insert(Self.element(keyName, nextName, q: 0, r: 0), at: random.next(upTo: parts.count + 1))
                nextName += 1
            }
            var tags = Self.tags(record)
            for index in tags.indices.reversed() where random.next(upTo: 4) == 0 { tags.remove(at: index) }
            for _ in 0..<random.next(upTo: 3) { tags.insert(.string(["a", "d", "e"][random.next(upTo: 3)]), at: random.next(upTo: tags.count + 1)) }
            return Self.record(parts: parts, tags: tags)
        }
    }

    @Test func mergingArraysWithAnUnchangedSideOrTheSameEditGivesThatEditExactly() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...1_000_000), Gen.bool) { seed, keyed in
            var edits = ArrayEdits(random: SplitMix(seed: UInt64(seed)), keyed: keyed)
            let base = edits.base()
            let edited = edits.edit(base)
            let fields = FieldMerge(mode: .typed, options: RecordOptions(id: Self.id))
            for (ours, theirs) in [(base, edited), (edited, base), (edited, edited)] {
                let outcome = fields.merge(base, ours, theirs, key: "1")
                #expect(outcome.conflicts.isEmpty, "seed \(seed) keyed \(keyed): \(outcome.conflicts)")
                #expect(outcome.ours == edited && outcome.theirs == edited, "seed \(seed) keyed \(keyed): \(outcome.ours.jsonText)")
            }
            // The other side changed the record elsewhere: the arrays are still the edit's, exactly.
            func noted(_ record: Value) -> Value {
                guard case .object(let members) = record else { return record }
                return .object(members + [.init(name: "note", value: .string("x"))])
            }
            for (ours, theirs) in [(noted(base), edited), (edited, noted(base))] {
                let outcome = fields.merge(base, ours, theirs, key: "1")
                #expect(outcome.conflicts.isEmpty, "seed \(seed) keyed \(keyed): \(outcome.conflicts)")
                #expect(outcome.ours == noted(edited), "seed \(seed) keyed \(keyed): \(outcome.ours.jsonText)")
            }
        }
    }

    /// OURS changes `q` of some elements at even places and puts a tag
    /// first; THEIRS changes `r` of elements at odd places, deletes some of
    /// them, inserts elements anywhere and appends a tag: all of it lands.
    @Test func arrayEditsThatDoNotOverlapAllLand() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...1_000_000), Gen.bool) { seed, keyed in
            var edits = ArrayEdits(random: SplitMix(seed: UInt64(seed)), keyed: keyed)
            var random = SplitMix(seed: UInt64(seed) ^ 0x5EED)
            let base = edits.base()
            let baseParts = ArrayEdits.parts(base)
            var oursParts = baseParts
            for index in oursParts.indices where index % 2 == 0 && random.next(upTo: 2) == 0 {
                oursParts[index] = ArrayEdits.setting("q", of: oursParts[index], to: 20 + index)
            }
            var theirsParts = baseParts
            for index in theirsParts.indices.reversed() where index % 2 == 1 {
                switch random.next(upTo: 3) {
                case 0: theirsParts.remove(at: index)
                case 1: theirsParts[index] = ArrayEdits.setting("r", of: theirsParts[index], to: 30 + index)
                default: break
                }
            }
            for name in 200..<(200 + random.next(upTo: 3)) {
                theirsParts.insert(ArrayEdits.element(edits.keyName, name, q: 0, r: 0), at: random.next(upTo: theirsParts.count + 1))
            }
            let tags = ArrayEdits.tags(base)
            let ours = ArrayEdits.record(parts: oursParts, tags: [.string("first")] + tags)
            // Appended to no tags, "last" would be where "first" goes: an overlap.
            let theirs = ArrayEdits.record(parts: theirsParts, tags: tags + (tags.isEmpty ? [] : [.string("last")]))
            let outcome = FieldMerge(mode: .typed, options: RecordOptions(id: Self.id)).merge(base, ours, theirs, key: "1")
            #expect(outcome.conflicts.isEmpty, "seed \(seed) keyed \(keyed): \(outcome.conflicts)")
            // THEIRS's elements in THEIRS's order, each with OURS's q.
            let oursQ = Dictionary(oursParts.map { (Self.text($0.member(at: [edits.keyName])), $0.member(at: ["q"])) }, uniquingKeysWith: { a, _ in a })
            let expected = theirsParts.map { element in
                oursQ[Self.text(element.member(at: [edits.keyName]))].map { q in ArrayEdits.setting("q", of: element, to: Int(Self.text(q))!) } ?? element
            }
            #expect(ArrayEdits.parts(outcome.ours) == expected, "seed \(seed) keyed \(keyed): \(outcome.ours.jsonText)")
            let expectedTags: [Value] = [.string("first")] + tags + (tags.isEmpty ? [] : [.string("last")])
            #expect(ArrayEdits.tags(outcome.ours) == expectedTags, "seed \(seed): \(outcome.ours.jsonText)")
        }
    }
}
