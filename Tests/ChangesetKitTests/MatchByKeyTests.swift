import Testing
@testable import ChangesetKit

/// `Comparison.matchByKey` against a plain reference: records that share an
/// id match an equal record (the same fingerprint) first, then the k-th
/// left with an id in NEW's file order matches the k-th left with that id in
/// OLD's, and the result is given in section order. Its short paths (one section; no id
/// repeated) must agree with the general one.
@Suite(.tags(.slow, .largeData)) struct MatchByKeyTests {
    func table(_ records: [(id: Int, section: Int)], sectioned: Bool, repeats: Bool) throws -> RecordTable {
        var options = RecordOptions(id: [FieldPath(["id"])])
        if sectioned { options.section = FieldPath(["cat"]) }
        if repeats { options.duplicates = .occurrence }
        let text = "[" + records.map { #"{"id": \#($0.id), "cat": "c\#($0.section)"}"# }.joined(separator: ",\n") + "]"
        let reader = JSONRecordReader(source: "test", layout: .array, options: options)
        try Array(text.utf8).withSpan { try reader.feed($0) }
        return try reader.finish()
    }

    func reference(_ old: RecordTable, _ new: RecordTable,
                   _ oldSections: [ListSection<SectionName, RecordRef>], _ newSections: [ListSection<SectionName, RecordRef>]) -> [Int32] {
        var oldRowsByKey: [String: [Int]] = [:]
        for row in 0..<old.count { oldRowsByKey[old.keys[row], default: []].append(row) }
        var oldRowOfNewRow = [Int](repeating: -1, count: new.count)
        var unpaired: [Int] = []
        for row in 0..<new.count {
            if let index = oldRowsByKey[new.keys[row]]?.firstIndex(where: { old.fingerprints[$0] == new.fingerprints[row] }) {
                oldRowOfNewRow[row] = oldRowsByKey[new.keys[row]]!.remove(at: index)
            } else {
                unpaired.append(row)
            }
        }
        for row in unpaired where !(oldRowsByKey[new.keys[row]]?.isEmpty ?? true) {
            oldRowOfNewRow[row] = oldRowsByKey[new.keys[row]]!.removeFirst()
        }
        let oldFlat = oldSections.flatMap(\.elements).map(\.row)
        let flatOfOldRow = Dictionary(uniqueKeysWithValues: oldFlat.enumerated().map { ($1, $0) })
        return newSections.flatMap(\.elements).map { ref in
            oldRowOfNewRow[ref.row] < 0 ? -1 : Int32(flatOfOldRow[oldRowOfNewRow[ref.row]]!)
        }
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func matchesEqualRecordsFirstThenByOccurrenceInSectionOrder(sectioned: Bool, repeats: Bool) throws {
        var random = SplitMix(seed: sectioned ? 11 : 7)
        for round in 0..<20 {
            let idRange = repeats ? 40 : 10_000
            func records(_ count: Int) -> [(id: Int, section: Int)] {
                var ids = Set<Int>()
                return (0..<count).compactMap { _ in
                    let id = random.next(upTo: idRange)
                    guard repeats || ids.insert(id).inserted else { return nil }
                    return (id, random.next(upTo: sectioned ? 4 : 1))
                }
            }
            let old = try table(records(round * 10), sectioned: sectioned, repeats: repeats)
            let new = try table(records(round * 10 + 5), sectioned: sectioned, repeats: repeats)
            let oldSections = Comparison.sections(of: old, sorted: round % 2 == 0)
            let newSections = Comparison.sections(of: new, sorted: round % 3 == 0)
            #expect(Comparison.matchByKey(old, new, oldSections: oldSections, newSections: newSections)
                    == reference(old, new, oldSections, newSections), "round \(round)")
        }
    }
}

extension MatchByKeyTests {
    /// Past `matchingRowsPerCore` new records, unique ids are looked up on
    /// every core, a prefetched group at a time; the groups' edges and the
    /// parts' edges must lose no row.
    @Test(arguments: [false, true])
    func aLargeTableIsMatchedOnEveryCoreAsTheReferenceMatchesIt(sectioned: Bool) throws {
        var random = SplitMix(seed: sectioned ? 5 : 3)
        let count = Comparison.matchingRowsPerCore * 2 + 17
        func records(_ count: Int) -> [(id: Int, section: Int)] {
            var ids = Set<Int>()
            return (0..<count).compactMap { _ in
                let id = random.next(upTo: count * 3 / 2)
                guard ids.insert(id).inserted else { return nil }
                return (id, random.next(upTo: sectioned ? 3 : 1))
            }
        }
        let old = try table(records(count), sectioned: sectioned, repeats: false)
        let new = try table(records(count), sectioned: sectioned, repeats: false)
        #expect(new.count > Comparison.matchingRowsPerCore)
        let oldSections = Comparison.sections(of: old, sorted: false)
        let newSections = Comparison.sections(of: new, sorted: false)
        let matching = try #require(Comparison.matchByKey(old, new, oldSections: oldSections, newSections: newSections))
        #expect(matching == reference(old, new, oldSections, newSections))
        #expect(matching.contains(-1) && matching.contains { $0 >= 0 })
    }

    /// NEW is read without a key index (`--duplicates error`): its ids are
    /// checked as they are matched, and an id twice in NEW, whether OLD has
    /// it or not, is found; without a repeat the matching is the reference's.
    @Test func aRepeatedIDInAnUnindexedNewSideIsFoundByTheJoin() throws {
        var random = SplitMix(seed: 0x4A4F_494E)
        for round in 0..<300 {
            let oldIDs = Array(Set((0..<(5 + round % 50)).map { _ in random.next(upTo: 120) })).shuffled(using: &random)
            var newIDs = Array(Set((0..<(5 + round % 40)).map { _ in random.next(upTo: 120) })).shuffled(using: &random)
            if round % 3 != 0, let repeated = newIDs.randomElement(using: &random) {
                newIDs.insert(repeated, at: random.next(upTo: newIDs.count + 1))
            }
            let old = try table(oldIDs.map { ($0, 0) }, sectioned: false, repeats: false)
            let text = "[" + newIDs.map { #"{"id": \#($0), "cat": "c0"}"# }.joined(separator: ",\n") + "]"
            let new = try InputFile(name: "new", bytes: InputBytes(copying: Array(text.utf8)), format: .json)
                .readRecords(RecordOptions(id: [FieldPath(["id"])]), indexesKeys: false)
            #expect(new.keyIndex.indexedRows == 0)
            let oldSections = Comparison.sections(of: old, sorted: false), newSections = Comparison.sections(of: new, sorted: false)
            let matching = Comparison.matchByKey(old, new, oldSections: oldSections, newSections: newSections)
            if Set(newIDs).count < newIDs.count {
                #expect(matching == nil, "round \(round): \(newIDs)")
            } else {
                #expect(matching == reference(old, new, oldSections, newSections), "round \(round)")
            }
        }
    }
}

@Suite struct RecordRefTests {
    /// Every record of both snapshots has a ref in the sections: 12 bytes each.
    @Test func aRefTakesTwelveBytesAndKeepsItsFingerprintAndRow() {
        #expect(MemoryLayout<RecordRef>.stride == 12)
        for (fingerprint, row) in [(UInt64.max, Int(UInt32.max)), (0x0123_4567_89AB_CDEF, 0), (1 << 32, 1 << 31)] {
            let ref = RecordRef(fingerprint: fingerprint, row: row)
            #expect(ref.fingerprint == fingerprint && ref.row == row && ref.id == fingerprint)
        }
        // Equal when the whole 64-bit fingerprints are, whatever the rows.
        #expect(RecordRef(fingerprint: 5, row: 1) == RecordRef(fingerprint: 5, row: 2))
        #expect(RecordRef(fingerprint: 5, row: 1) != RecordRef(fingerprint: 5 | 1 << 40, row: 1))
    }
}
