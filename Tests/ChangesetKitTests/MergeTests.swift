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

