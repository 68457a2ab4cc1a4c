import Testing
@testable import ChangesetKit

/// The per-field transitions of a summary: exact while a field's distinct
/// transitions fit the counter, lower bounds after for those that may have
/// been evicted, and a transition made by more than one in `capacity` of
/// the changes is never lost.
@Suite struct FieldTransitionsTests {
    static func change(_ old: String, _ new: String) -> FieldChange {
        FieldChange(path: FieldPath(["country"]), old: .string(old), new: .string(new))
    }

    @Test func countsAreExactWhileTheTransitionsFit() throws {
        var counter = FieldTransitionCounter()
        for _ in 0..<1094 { counter.add(Self.change("Russia", "Russian Federation")) }
        for _ in 0..<392 { counter.add(Self.change("Turkey", "Türkiye")) }
        counter.add(Self.change("Chile", "Chili"))
        let transitions = try #require(counter.transitions(of: FieldPath(["country"])))
        #expect(transitions.exact)
        #expect(transitions.top == [
            ValueTransition(old: .string("Russia"), new: .string("Russian Federation"), records: 1094),
            ValueTransition(old: .string("Turkey"), new: .string("Türkiye"), records: 392),
        ])
        #expect(transitions.numbers == nil)
    }

    /// A million-value column: bounded entries, the heavy transitions found
    /// with counts that never exceed the truth, noise never reported.
    @Test func manyDistinctTransitionsKeepTheHeavyOnesWithLowerBounds() throws {
        var counter = FieldTransitionCounter()
        var random = SplitMix(seed: 7)
        var truth: [String: Int] = [:]
        for index in 0..<50_000 {
            let change: FieldChange
            if index % 10 == 0 {
                change = Self.change("A", "B")
            } else if index % 25 == 1 {
                change = Self.change("C", "D")
            } else {
                change = Self.change("x\(random.next() % 1_000_000)", "y")
            }
            counter.add(change)
            if case .string(let old)? = change.old { truth[old, default: 0] += 1 }
        }
        let transitions = try #require(counter.transitions(of: FieldPath(["country"])))
        #expect(!transitions.exact)
        let top = Dictionary(uniqueKeysWithValues: transitions.top.map { (($0.old!.jsonText), $0.records) })
        #expect(top[#""A""#] != nil && top[#""C""#] != nil, "\(transitions.top)")
        for transition in transitions.top {
            guard case .string(let old)? = transition.old else { continue }
            #expect(transition.records <= truth[old]!, "\(old): \(transition.records) > \(truth[old]!)")
            #expect(transition.records >= 2)
            // A count said to be exact is the truth, never a lower bound passed off as one.
            if transition.exact { #expect(transition.records == truth[old]!, "\(old): \(transition.records) said exact, truth \(truth[old]!)") }
        }
        #expect(top[#""A""#]! > 4_000, "\(transitions.top)")
    }

    /// Found on real data: a field past the counter's capacity said "at
    /// least 247" of a transition counted from its first record. Only a
    /// transition that may have been evicted before it took its entry has a
    /// lower bound: one counted while there was room (`Turkey`) or first
    /// seen after the evictions began (`Russia`) keeps its exact count.
    @Test func aCountIsALowerBoundOnlyWhereTheTransitionMayHaveBeenEvicted() throws {
        var counter = FieldTransitionCounter()
        for _ in 0..<30 { counter.add(Self.change("Turkey", "Türkiye")) }
        counter.add(Self.change("Atlantis", "Atlantica"))
        // Past the capacity: the least counted entry, Atlantis' one, is the first to go.
        for index in 0..<100 { counter.add(Self.change("c\(index)", "d\(index)")) }
        for _ in 0..<247 { counter.add(Self.change("Russia", "Russian Federation")) }
        for _ in 0..<10 { counter.add(Self.change("Atlantis", "Atlantica")) }
        let transitions = try #require(counter.transitions(of: FieldPath(["country"])))
        #expect(!transitions.exact)
        #expect(transitions.top == [
            ValueTransition(old: .string("Russia"), new: .string("Russian Federation"), records: 247),
            ValueTransition(old: .string("Turkey"), new: .string("Türkiye"), records: 30),
            ValueTransition(old: .string("Atlantis"), new: .string("Atlantica"), records: 10, exact: false),
        ])
        #expect(TransitionText.line(transitions, width: 40)
            == #""Russia" -> "Russian Federation" (247), "Turkey" -> "Türkiye" (30), "Atlantis" -> "Atlantica" (at least 10)"#)
    }

    @Test func numbersSayHowFarTheyMovedWhereADoubleCanMeasureIt() throws {
        var counter = FieldTransitionCounter()
        let path = FieldPath(["price"])
        for (old, new) in [("12.50", "13.00"), ("10", "7"), ("1e400", "1e401"), ("12345678901234567890123", "12345678901234567890124")] {
            counter.add(FieldChange(path: path, old: .number(old), new: .number(new)))
        }
        counter.add(FieldChange(path: path, old: .string("n/a"), new: .number("3")))
        let numbers = try #require(counter.transitions(of: path)?.numbers)
        #expect(numbers == NumericChanges(records: 2, largest: 3, mean: 1.75))
        #expect(TransitionText.number(13.0 - 12.5) == "0.5" && TransitionText.number(0.1 + 0.2) == "0.3")
    }
}
