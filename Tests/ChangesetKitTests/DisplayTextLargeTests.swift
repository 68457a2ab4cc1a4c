@testable import ChangesetKit
import Testing

/// Long values are cut as bytes before they become Strings; what is shown
/// must be what `ReportValueText`'s rules give on the whole text.
@Suite(.tags(.slow, .largeData)) struct DisplayTextLargeTests {
    /// A long string of `alphabet` characters with one change at `at`.
    static func pair(_ random: inout SplitMix, length: Int, at: Int) -> (String, String) {
        let alphabet = TextLineTests.alphabet + ["a", "b", "c", "d", "e", "f", "g"]
        var old = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
        var new = old
        new[min(at, length - 1)] = "X"
        if Bool.random(using: &random) { new.append(contentsOf: ["tail", "é"]) } else { old.removeLast(min(old.count, 3)) }
        return (old.joined(), new.joined())
    }

    @Test func longChangedValuesAreShownAsTheRulesShowTheWholeText() {
        var random = SplitMix(seed: 21)
        for _ in 0..<200 {
            let length = Int.random(in: 1...20_000, using: &random)
            let at = [0, 1, length / 2, length - 2, Int.random(in: 0..<length, using: &random)].randomElement(using: &random)!
            let (old, new) = Self.pair(&random, length: length, at: max(0, at))
            for width in [8, 9, 40, 120, 200] {
                let expected = ReportValueText.cutAround(ReportValueText.value(.string(old)), ReportValueText.value(.string(new)), width: width)
                let shown = ReportValueText.shownPair(.string(old), .string(new), width: width)
                #expect(shown == expected, "length \(length), change at \(at), width \(width)")
                #expect(ReportValueText.shownValue(.string(old), width: width) == ReportValueText.cut(ReportValueText.value(.string(old)), width: width))
            }
        }
    }

    @Test func aClusterOfManyCodePointsAtTheCutStillShowsExactly() {
        // One character of 2,000 combining marks: the first slice is too short and is doubled.
        let cluster = "e" + String(repeating: "\u{301}", count: 2000)
        let old = String(repeating: "ab", count: 50) + cluster + "tail" + String(repeating: "z", count: 500)
        let new = String(repeating: "ab", count: 50) + cluster + "TAIL" + String(repeating: "z", count: 500)
        for width in [8, 40, 120] {
            #expect(ReportValueText.shownPair(.string(old), .string(new), width: width)
                == ReportValueText.cutAround(ReportValueText.value(.string(old)), ReportValueText.value(.string(new)), width: width))
            #expect(ReportValueText.shownValue(.string(cluster + old), width: width) == ReportValueText.cut(ReportValueText.value(.string(cluster + old)), width: width))
        }
    }

    @Test func versionsThatLookAlikeAreShownWithTheirCodePoints() {
        let shown = ReportValueText.shownPair(.string("café"), .string("cafe\u{301}"), width: 120)
        #expect(shown.0 == "\"caf\\u00E9\"" && shown.1 == "\"cafe\\u0301\"", "\(shown)")
        var line = TextLine(color: false)
        line.addValues(.string("café"), .string("cafe\u{301}"), width: 120)
        #expect(line.text == "\"caf\\u00E9\" -> \"cafe\\u0301\"", "\(line.text)")
        // Versions that differ visibly keep their characters.
        #expect(ReportValueText.shownPair(.string("café"), .string("cafè"), width: 120) == ("\"café\"", "\"cafè\""))
    }

    @Test func aChangeOfNormalisationIsShownWhereItIs() {
        let (nfc, nfd) = ("abc café def", "abc cafe\u{301} def")
        let (old, new) = ReportValueText.cutAround(String(repeating: "x", count: 200) + nfc, String(repeating: "x", count: 200) + nfd, width: 20)
        // Swift's == calls the two equal; their bytes differ, and the window is where they do.
        #expect(Array(old.utf8) != Array(new.utf8), "\(old) \(new)")
        #expect(old.hasSuffix("abc caf\u{E9} def") && new.hasSuffix("abc cafe\u{301} def"), "\(old) \(new)")
    }
}
