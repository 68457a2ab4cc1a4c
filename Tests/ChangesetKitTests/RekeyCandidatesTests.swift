@testable import ChangesetKit
import Testing

/// The re-key note pairs a deleted record with an inserted one when each is
/// the only record of its side with that content (its value less its key)
/// within its section. The pairs found by sorting each side's contents are
/// the pairs a dictionary of contents a side finds.
@Suite struct RekeyCandidatesTests {
    /// The pairs as dictionaries of contents find them.
    static func byDictionaries(
        oldHashes: [UInt64?], oldSections: [SectionName], newHashes: [UInt64?], newSections: [SectionName]
    ) -> [(deleted: Int, inserted: Int)] {
        struct Content: Hashable { var section: SectionName; var hash: UInt64 }
        func only(_ hashes: [UInt64?], _ sections: [SectionName]) -> [Content: Int] {
            var found: [Content: Int] = [:]
            for (index, hash) in hashes.enumerated() {
                guard let hash else { continue }
                let content = Content(section: sections[index], hash: hash)
                found[content] = found[content] == nil ? index : -1
            }
            return found
        }
        let deleted = only(oldHashes, oldSections), inserted = only(newHashes, newSections)
        return deleted.compactMap { content, index in
            guard index >= 0, let other = inserted[content], other >= 0 else { return nil }
            return (index, other)
        }.sorted { $0.deleted < $1.deleted }
    }

    @Test func pairsAreThoseOfADictionaryOfContents() {
        var random = SplitMix(seed: 36_36)
        for round in 0..<300 {
            let sections: [SectionName] = round % 3 == 0 ? [nil] : ["a", "b", nil, "é"]
            func side(_ count: Int) -> ([UInt64?], [SectionName]) {
                let hashes: [UInt64?] = (0..<count).map { _ in
                    Int.random(in: 0..<6, using: &random) == 0 ? nil : UInt64.random(in: 0..<UInt64(max(1, count / 2)), using: &random)
                }
                return (hashes, hashes.map { _ in sections.randomElement(using: &random)! })
            }
            let (oldHashes, oldSections) = side(Int.random(in: 0..<60, using: &random))
            let (newHashes, newSections) = side(Int.random(in: 0..<60, using: &random))
            let sorted = Comparison.rekeyCandidates(oldHashes: oldHashes, oldSections: oldSections, newHashes: newHashes, newSections: newSections)
            let expected = Self.byDictionaries(oldHashes: oldHashes, oldSections: oldSections, newHashes: newHashes, newSections: newSections)
            #expect(sorted.map(\.deleted) == expected.map(\.deleted) && sorted.map(\.inserted) == expected.map(\.inserted), "round \(round)")
        }
    }

    /// Hand-made: a content twice on one side pairs nothing; the same hash in
    /// another section is another content; records without a content pair nothing.
    @Test func repeatsAndSectionsKeepRecordsApart() {
        let pairs = Comparison.rekeyCandidates(
            oldHashes: [1, 2, 2, 3, nil, 5], oldSections: ["a", "a", "a", "a", "a", "a"],
            newHashes: [3, 1, 2, nil, 5], newSections: ["a", "a", "a", "a", "b"])
        #expect(pairs.map(\.deleted) == [0, 3])
        #expect(pairs.map(\.inserted) == [1, 0])
    }
}
