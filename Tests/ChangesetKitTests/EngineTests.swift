import PropertyBased
import Testing
@testable import ChangesetEngine
@testable import ChangesetKit

/// A test element: `id` says which it is, `value` whether it changed.
struct Item: Identifiable, Equatable, Sendable, CustomStringConvertible {
    let id: String
    var value = 0
    var description: String { value == 0 ? id : "\(id)=\(value)" }
}

func items(_ ids: String) -> [Item] { ids.split(separator: " ").map { Item(id: String($0)) } }

/// diff, then check the round trip (apply rebuilds new) before handing the changeset on.
func checkedDiff(
    _ old: [ListSection<String, Item>], _ new: [ListSection<String, Item>],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> SectionedChangeset<String, Item> {
    let changeset = try Differ.diff(from: old, to: new)
    #expect(try changeset.apply(to: old) == new, "apply(old, diff(old, new)) != new", sourceLocation: sourceLocation)
    return changeset
}

func checkedDiff(items old: [Item], _ new: [Item], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> SectionedChangeset<String, Item> {
    try checkedDiff([ListSection(id: "", elements: old)], [ListSection(id: "", elements: new)], sourceLocation: sourceLocation)
}

@Suite struct EngineTests {
    @Test func rotationIsOneMove() throws {
        let changeset = try checkedDiff(items: items("a b c"), items("b c a"))
        #expect(changeset.moves.map(\.element.id) == ["a"])
        #expect(changeset.moves.map { "\($0.from)->\($0.to)" } == ["0/0->0/2"])
    }

    @Test func firstOfTenToTheEndIsOneMove() throws {
        let changeset = try checkedDiff(items: items("0 1 2 3 4 5 6 7 8 9"), items("1 2 3 4 5 6 7 8 9 0"))
        #expect(changeset.moves.count == 1)
        #expect(changeset.unchangedCount == 10)
    }

    @Test func swappingTwoIsOneMove() throws {
        #expect(try checkedDiff(items: items("a b c d"), items("a c b d")).moves.count == 1)
    }

    @Test func insertDeleteUpdate() throws {
        var new = items("a c d")
        new[1].value = 7
        let changeset = try checkedDiff(items: items("a b c"), new)
        #expect(changeset.deletions.map(\.at) == [ItemPath(section: 0, item: 1)])
        #expect(changeset.insertions.map(\.at) == [ItemPath(section: 0, item: 2)])
        #expect(changeset.updates.map { "\($0.old)->\($0.new)" } == ["0/2->0/1"])
        #expect(changeset.moves.isEmpty)
        #expect(changeset.unchangedCount == 1)
    }

    @Test func movedAndChangedCountsInBoth() throws {
        var new = items("b c a")
        new[2].value = 1
        let changeset = try checkedDiff(items: items("a b c"), new)
        #expect(changeset.moves.count == 1 && changeset.updates.count == 1)
        #expect(changeset.moves[0].element.value == 1)
    }

    @Test func emptySides() throws {
        #expect(try checkedDiff(items: [], items("a b")).insertions.count == 2)
        #expect(try checkedDiff(items: items("a b"), []).deletions.count == 2)
        #expect(try checkedDiff(items: [], []).isEmpty)
    }

    @Test func sectionsInsertedDeletedAndMoved() throws {
        let old = [ListSection(id: "x", elements: items("a")), ListSection(id: "y", elements: items("b")), ListSection(id: "z", elements: items("c"))]
        let new = [ListSection(id: "z", elements: items("c")), ListSection(id: "x", elements: items("a")), ListSection(id: "w", elements: items("d"))]
        let changeset = try checkedDiff(old, new)
        #expect(changeset.deletedSections == [1])
        #expect(changeset.insertedSections.map(\.index) == [2])
        #expect(changeset.movedSections == [.init(from: 2, to: 0)])
        #expect(changeset.moves.isEmpty)
    }

    @Test func recordChangingSectionIsACrossSectionMove() throws {
        let old = [ListSection(id: "x", elements: items("a b")), ListSection(id: "y", elements: items("c"))]
        let new = [ListSection(id: "x", elements: items("a")), ListSection(id: "y", elements: items("b c"))]
        let changeset = try checkedDiff(old, new)
        #expect(changeset.moves.count == 1)
        #expect(changeset.moves[0].isAcrossSections)
        #expect(changeset.updates.isEmpty)
    }

    @Test func ignoreOrderReportsNoMovesWithinSections() throws {
        let old = [ListSection(id: "x", elements: items("a b c")), ListSection(id: "y", elements: items("d"))]
        let new = [ListSection(id: "y", elements: items("d c")), ListSection(id: "x", elements: items("b a"))]
        let changeset = try checkedDiff(old, new)
        #expect(changeset.reportedSectionMoves(ignoringOrder: true).isEmpty)
        #expect(changeset.reportedSectionMoves(ignoringOrder: false).count == 1)
        // c changed section: that is a change of data, not of order, and is still reported.
        #expect(changeset.reportedMoves(ignoringOrder: true).map(\.element.id) == ["c"])
        #expect(changeset.reportedMoves(ignoringOrder: false).count == 2)
    }

    @Test func repeatedIDsPairUpInOrder() throws {
        // The k-th a in new is the k-th a in old, so the third old a is the one deleted.
        let changeset = try checkedDiff(items: items("a a b a"), items("a b a"))
        #expect(changeset.deletions.map(\.at.item) == [3])
        #expect(changeset.moves.map { "\($0.from)->\($0.to)" } == ["0/2->0/1"])
    }

    @Test func verifyCatchesAnInconsistentChangeset() throws {
        let old = [ListSection(id: "", elements: items("a b"))]
        let new = [ListSection(id: "", elements: items("a"))]
        var changeset = try Differ.diff(from: old, to: new)
        changeset.deletions.removeAll()
        #expect(throws: InvariantViolation.self) { try Differ.verify(changeset, old: old, new: new) }
    }

    @Test func applyRefusesDataItWasNotMadeFor() throws {
        let changeset = try Differ.diff(from: items("a b c"), to: items("a"))
        #expect(throws: ApplyError.self) { try changeset.apply(to: items("a")) }
    }

    @Test func longestIncreasingSubsequence() {
        #expect(Differ.longestIncreasingSubsequence([Int]()) == [])
        #expect(Differ.longestIncreasingSubsequence([3, 1, 2]) == [false, true, true])
        #expect(Differ.longestIncreasingSubsequence([0, 1, 2]) == [true, true, true])
        #expect(Differ.longestIncreasingSubsequence([2, 1, 0]).filter { $0 }.count == 1)
    }

    /// On random sequences (repeats, runs, holes): the marked positions are
    /// strictly increasing and as many as the textbook quadratic table says,
    /// and reading through a closure with holes marks what the array of the
    /// values present marks (the engine reads its stayers so).
    @Test func longestIncreasingSubsequenceIsLongestOnRandomSequences() {
        var random = SplitMix(seed: 0x4C49_5321)
        for round in 0..<500 {
            let count = random.next(upTo: 60)
            let values: [Int32?] = (0..<count).map { index in
                random.next(upTo: 5) == 0 ? nil : Int32(round % 3 == 0 ? index + random.next(upTo: 4) - 2 : random.next(upTo: 30))
            }
            let present = values.compactMap { $0 }
            let marked = Differ.longestIncreasingSubsequence(present)
            let chosen = present.indices.filter { marked[$0] }.map { present[$0] }
            #expect(zip(chosen, chosen.dropFirst()).allSatisfy { $0 < $1 }, "round \(round)")
            var longest = [Int](repeating: 1, count: present.count)
            for i in present.indices { for j in 0..<i where present[j] < present[i] { longest[i] = max(longest[i], longest[j] + 1) } }
            #expect(chosen.count == (longest.max() ?? 0), "round \(round): \(present)")
            let throughHoles = Differ.longestIncreasingSubsequence(count: count) { values[$0] }
            #expect(values.indices.filter { values[$0] != nil }.map { throughHoles[$0] } == marked, "round \(round)")
            #expect(values.indices.allSatisfy { values[$0] != nil || !throughHoles[$0] })
        }
    }

    /// The flat diff from a matching alone (a comparison past memory's) is the
    /// section diff's change for change: random partial matchings (orders
    /// kept, shuffled, reversed; none matched, all matched), random updates,
    /// links in a store that counts how it is read.
    @Test func flatDiffFromAMatchingIsTheSectionDiff() throws {
        /// Links as the file store keeps them: each read must come at a lower position than the one before.
        struct CheckedLinks: PredecessorLinks {
            var links: [Int32] = []
            var lastRead = Int.max
            mutating func append(_ predecessor: Int32) { links.append(predecessor) }
            mutating func predecessor(of position: Int) throws -> Int32 {
                #expect(position < lastRead, "links read out of order")
                lastRead = position
                return links[position]
            }
        }
        var random = SplitMix(seed: 0x464C_4154)
        for round in 0..<600 {
            let oldCount = random.next(upTo: 40)
            let newCount = random.next(upTo: 40)
            var oldIndices = Array(0..<oldCount)
            switch round % 4 {
            case 0: oldIndices.shuffle(using: &random)
            case 1: oldIndices.reverse()
            default: for _ in 0..<random.next(upTo: 4) where oldCount > 1 { oldIndices.swapAt(random.next(upTo: oldCount), random.next(upTo: oldCount)) }
            }
            let share = round % 7 == 0 ? 0 : round % 7 == 1 ? 100 : random.next(upTo: 101)
            var matching = [Int32](repeating: -1, count: newCount)
            var next = 0
            for item in 0..<newCount where next < oldIndices.count && random.next(upTo: 100) < share {
                matching[item] = Int32(oldIndices[next])
                next += 1
            }
            let updated = (0..<newCount).map { _ in random.next(upTo: 3) == 0 }
            let old = (0..<oldCount).map { Item(id: "o\($0)") }
            let new = (0..<newCount).map { item in
                matching[item] < 0 ? Item(id: "n\(item)") : Item(id: "o\(matching[item])", value: updated[item] ? 1 : 0)
            }
            let expected = try Differ.diff(from: [ListSection(id: "", elements: old)], to: [ListSection(id: "", elements: new)], matching: matching)
            var links = CheckedLinks()
            let flat: SectionedChangeset<String, Item> = try Differ.flatDiff(
                oldCount: oldCount, matching: matching, links: &links, isUpdated: { updated[$0] }, element: { new[$0] })
            #expect(flat.insertions.map(\.at) == expected.insertions.map(\.at) && flat.insertions.map(\.element) == expected.insertions.map(\.element), "round \(round)")
            #expect(flat.deletions == expected.deletions, "round \(round)")
            #expect(flat.updates.map { [$0.old, $0.new] } == expected.updates.map { [$0.old, $0.new] }, "round \(round)")
            #expect(flat.updates.map(\.element) == expected.updates.map(\.element), "round \(round)")
            #expect(flat.moves.map { [$0.from, $0.to] } == expected.moves.map { [$0.from, $0.to] }, "round \(round)")
            #expect(flat.moves.map(\.element) == expected.moves.map(\.element), "round \(round)")
            #expect(flat.unchangedCount == expected.unchangedCount && flat.oldCount == expected.oldCount && flat.newCount == expected.newCount)
            #expect(flat.oldSectionCount == 1 && flat.newSectionCount == 1 && flat.movedSections.isEmpty)
        }
        var links = PredecessorArray(capacity: 0)
        #expect(throws: InvariantViolation.self) {
            let _: SectionedChangeset<String, Int> = try Differ.flatDiff(oldCount: 2, matching: [1, 1], links: &links, isUpdated: { _ in false }, element: { $0 })
        }
    }
}

/// Random data sets: every round trip holds, and on small inputs the move
/// count equals a brute-force minimum that does not use the LIS.
@Suite struct EngineProperties {
    /// (id, section, value) triples; repeated ids keep their first occurrence.
    static let records = zip(Gen.int(in: 0...11), Gen.int(in: 0...3), Gen.int(in: 0...2)).array(of: 0...10)

    static func sections(_ triples: [(Int, Int, Int)]) -> [ListSection<String, Item>] {
        var seen = Set<Int>()
        var sections: [ListSection<String, Item>] = []
        for (id, section, value) in triples where seen.insert(id).inserted {
            let name = "s\(section)"
            if let index = sections.firstIndex(where: { $0.id == name }) {
                sections[index].elements.append(Item(id: "\(id)", value: value))
            } else {
                sections.append(ListSection(id: name, elements: [Item(id: "\(id)", value: value)]))
            }
        }
        return sections
    }

    /// The largest set of elements whose relative order is the same in both
    /// sequences, by trying every subset (the sequences are short).
    static func largestOrderKeepingSubset(_ sequence: [Int]) -> Int {
        guard sequence.count <= 12 else { return -1 }
        var best = 0
        for mask in 0..<(1 << sequence.count) {
            let chosen = sequence.indices.filter { mask & (1 << $0) != 0 }.map { sequence[$0] }
            if chosen == chosen.sorted() { best = max(best, chosen.count) }
        }
        return best
    }

    @Test func roundTripAndMinimalMoves() async {
        await propertyCheck(count: 400, input: Self.records, Self.records) { oldTriples, newTriples in
            let old = Self.sections(oldTriples)
            let new = Self.sections(newTriples)
            let changeset = try checkedDiff(old, new)
            // Section moves: matched sections minus the largest order-keeping set.
            let oldSectionIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1.id, $0) })
            let matchedSections = new.compactMap { oldSectionIndex[$0.id] }
            #expect(changeset.movedSections.count == matchedSections.count - Self.largestOrderKeepingSubset(matchedSections))
            // Record moves: every change of section, plus the minimum within each section.
            var oldPlace: [String: (section: String, item: Int)] = [:]
            for section in old { for (item, element) in section.elements.enumerated() { oldPlace[element.id] = (section.id, item) } }
            var expectedMoves = 0
            for section in new {
                var stayed: [Int] = []
                for element in section.elements {
                    guard let place = oldPlace[element.id] else { continue }
                    if place.section == section.id { stayed.append(place.item) } else { expectedMoves += 1 }
                }
                expectedMoves += stayed.count - Self.largestOrderKeepingSubset(stayed)
            }
            #expect(changeset.moves.count == expectedMoves)
        }
    }

    @Test func roundTripWithRepeatedIDs() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...4).array(of: 0...12), Gen.int(in: 0...4).array(of: 0...12)) { old, new in
            let oldItems = old.map { Item(id: "\($0)") }
            let newItems = new.map { Item(id: "\($0)") }
            let changeset = try checkedDiff(items: oldItems, newItems)
            #expect(changeset.updates.isEmpty)
            #expect(changeset.unchangedCount + changeset.deletions.count == old.count)
        }
    }
}

@Suite struct SectionOrderTests {
    @Test func numbersByValueThenTextThenTheNullSectionFirst() {
        let names: [SectionName] = ["b", "10", nil, "9", "a", "1e1", "-2"]
        let sorted = names.sorted { SectionOrder.precedes($0, $1) }
        #expect(sorted == [nil, "-2", "9", "10", "1e1", "a", "b"])
    }
}

/// `IDMatching` partitions ids by hash once there are more than a few thousand;
/// its k-th-occurrence pairing must equal a plain dictionary's, repeats included.
@Suite struct IDMatchingTests {
    /// The k-th occurrence of an id in new matches the k-th in old, by a dictionary of queues.
    static func plainMatch(old: [Int], new: [Int]) -> [Int32] {
        var positions: [Int: [Int]] = [:]
        for (index, id) in old.enumerated() { positions[id, default: []].append(index) }
        var taken: [Int: Int] = [:]
        return new.map { id in
            let k = taken[id, default: 0]
            taken[id] = k + 1
            guard let list = positions[id], k < list.count else { return -1 }
            return Int32(list[k])
        }
    }

    @Test(arguments: [0, 1, 100, 5_000, 40_000])
    func matchesLikeADictionary(count: Int) {
        var random = SplitMix(seed: UInt64(count) &+ 11)
        // Ids from a range a little wider than the count: many repeat, some appear on one side only.
        let old = (0..<count).map { _ in random.next(upTo: count + count / 3 + 1) }
        let new = (0..<(count + count / 7)).map { _ in random.next(upTo: count + count / 3 + 1) }
        #expect(IDMatching.match(old: old, new: new) == Self.plainMatch(old: old, new: new))
    }

    @Test func stringIDsAcrossPartitions() {
        let old = (0..<20_000).map { "id-\($0 % 9_000)" }
        let new = (0..<20_000).reversed().map { "id-\($0 % 9_500)" }
        let expected = Self.plainMatch(old: old.map { Int($0.dropFirst(3))! }, new: new.map { Int($0.dropFirst(3))! })
        #expect(IDMatching.match(old: old, new: new) == expected)
    }
}

/// The hash's fingerprints are stored in patch files and must not change:
/// the word-at-a-time tail must give what a byte-at-a-time loop gives.
@Suite struct StableHashTests {
    static func byteByByte(_ bytes: [UInt8], seed: UInt64) -> UInt64 {
        var h = seed &+ StableHash.prime3 &+ UInt64(bytes.count) &* StableHash.prime1
        guard !bytes.isEmpty else { return StableHash.avalanche(h) }
        var offset = 0
        func mix(_ value: UInt64) {
            h ^= (value &* StableHash.prime2).rotated(31) &* StableHash.prime1
            h = h.rotated(27) &* StableHash.prime1 &+ StableHash.prime3
        }
        while offset < bytes.count {
            var word: UInt64 = 0
            for index in 0..<min(8, bytes.count - offset) { word |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
            mix(word)
            offset += 8
        }
        return StableHash.avalanche(h)
    }

    @Test func everyLengthHashesAsByteByByte() {
        var random = SplitMix(seed: 5)
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8(random.next(upTo: 256)) }
            let hash = bytes.withSpan { StableHash.bytes($0, seed: 77) }
            #expect(hash == Self.byteByByte(bytes, seed: 77), "length \(length)")
        }
    }
}
