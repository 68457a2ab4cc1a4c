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

    /// Heavy transitions among a stream of evictions: each stays in its
    /// entry and keeps its exact count, found again however the entries
    /// evicted around it moved through the counter's table.
    @Test func heavyTransitionsKeepExactCountsThroughManyEvictions() throws {
        var counter = FieldTransitionCounter()
        var random = SplitMix(seed: 11)
        for _ in 0..<20_000 {
            for heavy in 0..<8 { counter.add(Self.change("h\(heavy)", "H\(heavy)")) }
            counter.add(Self.change("n\(random.next())", "m"))
        }
        let transitions = try #require(counter.transitions(of: FieldPath(["country"])))
        #expect(!transitions.exact)
        #expect(transitions.top == (0..<5).map { ValueTransition(old: .string("h\($0)"), new: .string("H\($0)"), records: 20_000) })
    }

    /// The counter reads a number's text as `Double(text)` does, its own way
    /// for short literals: the same value for every literal, seeded random
    /// ones (the seed is printed) and the edges of that way.
    @Test func numbersAreReadAsDoubleReadsThem() {
        let edges = [
            "0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.3", "1e22", "1e23", "9007199254740992", "9007199254740993",
            "-9007199254740993", "900719925474099.3", "1.7976931348623157e308", "1e400", "4.9e-324", "1e-22", "1e-23",
            "123.456e-20", "5E+3", "5e-0", "00012", "1.", ".5", "-", "", "1e", "1e+", "1.5e00022", "1e0000001", "2.5E-3",
            "12345678901234567890123", "0.000000000000000000001", "3.14159", "44.89", "-7.25e2",
        ]
        for text in edges {
            #expect(FieldTransitionCounter.double(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
        let seed: UInt64 = 2_026
        print("numbersAreReadAsDoubleReadsThem seed \(seed)")
        var random = SplitMix(seed: seed)
        for _ in 0..<20_000 {
            var text = random.next(upTo: 3) == 0 ? "-" : ""
            text += String(random.next() >> UInt64(random.next(upTo: 64)))
            if random.next(upTo: 2) == 0 {
                text += "." + String(repeating: "0", count: random.next(upTo: 4)) + String(random.next() % 100_000)
            }
            if random.next(upTo: 3) == 0 { text += "e" + String(random.next(upTo: 60) - 30) }
            #expect(FieldTransitionCounter.double(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    /// A name in two spellings that are one text (`café` composed, and with
    /// a combining accent) is one field, as `FieldPath`'s `==` has it, in its
    /// own counts and its elements' alike, whichever spelling a record used
    /// and in whatever order it changed its fields; the first spelling names it.
    @Test func aFieldNamedInTwoSpellingsIsOneField() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        func change(_ name: String) -> FieldChange { FieldChange(path: FieldPath([name]), old: .number("1"), new: .number("2")) }
        func inserted(_ name: String, at index: Int) -> FieldChange {
            FieldChange(path: FieldPath([name, "tags"]), old: nil, new: .string("x"), elements: [FieldChange.ElementIndex(depth: 2, index: index)])
        }
        var summary = Summary()
        summary.countFields(of: [
            [change(composed), inserted(composed, at: 0), inserted(composed, at: 1)],
            [change(decomposed), inserted(decomposed, at: 3)],
            [change(composed)],
            [FieldChange(path: FieldPath(["price"]), old: .number("1"), new: .number("3")), change(decomposed)],
        ], mode: .typed)
        #expect(summary.fieldCounts == [
            FieldCount(path: FieldPath([composed]), records: 4), FieldCount(path: FieldPath([composed, "tags"]), records: 2),
            FieldCount(path: FieldPath(["price"]), records: 1),
        ])
        #expect(summary.fieldCounts.map { Array($0.path.components[0].utf8) } == [Array(composed.utf8), Array(composed.utf8), Array("price".utf8)])
        let labels = summary.transitions.map { Array($0.label.utf8) }
        #expect(labels == [Array(composed.utf8), Array((composed + ".tags[]").utf8), Array("price".utf8)])
        #expect(summary.transitions[0].top == [ValueTransition(old: .number("1"), new: .number("2"), records: 4)])
        #expect(summary.transitions[0].numbers == NumericChanges(records: 4, largest: 1, mean: 1))
        #expect(summary.transitions[1].top == [ValueTransition(old: nil, new: .string("x"), records: 2)])
    }

    /// Many fields, each update changing some of them in its own order:
    /// each field counts the updates that changed it, however its place
    /// was found (guessed from the update before, or looked up).
    @Test func manyFieldsInAnyOrderAreEachCountedOnceAnUpdate() {
        let seed: UInt64 = 31
        print("manyFieldsInAnyOrderAreEachCountedOnceAnUpdate seed \(seed)")
        var random = SplitMix(seed: seed)
        var truth: [String: Int] = [:]
        var updates: [[FieldChange]] = []
        for _ in 0..<600 {
            var names = (0..<40).map { "f\($0)" }.filter { _ in random.next(upTo: 4) == 0 }
            if random.next(upTo: 2) == 0 { names.shuffle(using: &random) }
            for name in names { truth[name, default: 0] += 1 }
            // A field changed twice in one update counts once.
            let repeated = names.first.map { [FieldChange(path: FieldPath([$0]), old: .string("a"), new: .string("b"))] } ?? []
            updates.append(names.map { FieldChange(path: FieldPath([$0]), old: .string("a"), new: .string("b")) } + repeated)
        }
        var summary = Summary()
        summary.countFields(of: updates, mode: .cellText)
        #expect(Dictionary(uniqueKeysWithValues: summary.fieldCounts.map { ($0.path.description, $0.records) }) == truth)
        #expect(summary.fieldCounts.map(\.records) == summary.fieldCounts.map(\.records).sorted(by: >))
    }
}
