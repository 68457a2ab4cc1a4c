@testable import ChangesetKit
import Testing

/// The text formatter writes values as bytes and applies `ReportValueText`'s
/// rules to those bytes when they are printable ASCII; these tests hold it to
/// `ReportValueText` itself on generated values, widths and characters at the
/// edges of the fast path.
struct TextLineTests {
    /// Characters at the edges: the ends of printable ASCII, DEL, controls,
    /// JSON escapes, multi-byte and invisible characters, CR LF (one Character).
    static let alphabet: [String] = [
        "a", "Z", "0", " ", "~", "\u{7F}", "\u{1F}", "\t", "\n", "\r\n", "\"", "\\", "é", "日", "\u{200F}", "\u{FEFF}",
        "\u{00A0}", "👩\u{200D}💻", "\u{F0000}", "…",
    ]

    static func string(_ random: inout SplitMix) -> String {
        let length = Int.random(in: 0...3, using: &random) == 0 ? Int.random(in: 100...300, using: &random) : Int.random(in: 0...20, using: &random)
        // Mostly plain text (the fast path), now and then an edge character.
        return String((0..<length).map { _ -> String in
            Int.random(in: 0..<6, using: &random) == 0 ? alphabet.randomElement(using: &random)! : String(UnicodeScalar(UInt8.random(in: 0x61...0x7A, using: &random)))
        }.joined())
    }

    static func value(_ random: inout SplitMix, depth: Int = 0) -> Value {
        switch Int.random(in: 0..<(depth < 2 ? 7 : 5), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(["1", "-0.5", "1e400", String(Int.random(in: -99999...99999, using: &random))].randomElement(using: &random)!)
        case 3, 4: return .string(string(&random))
        case 5: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default:
            return .object((0..<Int.random(in: 0...5, using: &random)).map { index in
                Value.Member(name: string(&random) + "\(index)", value: value(&random, depth: depth + 1))
            })
        }
    }

    static let widths = [0, 1, 7, 8, 9, 12, 40, 120]

    @Test func valuesAreShownAsDisplayTextShowsThem() {
        var random = SplitMix(seed: 11)
        for _ in 0..<3000 {
            let (old, new) = (Self.value(&random), Self.value(&random))
            // A value and a copy changed near its end, so cuts around the change have a common prefix to skip.
            let near: Value = if case .string(let text) = old { .string(text + "x") } else { new }
            for width in Self.widths {
                var line = TextLine(color: false)
                line.addValue(old, width: width)
                #expect(line.text == ReportValueText.cut(ReportValueText.value(old), width: width), "width \(width)")

                for (first, second) in [(old, new), (old, near)] as [(Value?, Value?)] + [(nil, new), (old, nil)] {
                    var pair = TextLine(color: false)
                    pair.addValues(first, second, width: width)
                    let (shownOld, shownNew) = ReportValueText.cutAround(ReportValueText.value(first), ReportValueText.value(second), width: width)
                    #expect(pair.text == shownOld + " -> " + shownNew, "width \(width)")
                }
            }
        }
    }

    @Test func namesAreShownAsDisplayTextShowsThem() {
        var random = SplitMix(seed: 12)
        for _ in 0..<3000 {
            let text = Self.string(&random)
            var line = TextLine(color: false)
            line.addVisible(text)
            #expect(line.text == ReportValueText.visible(text))
        }
    }

    @Test func printableASCIIIsSpaceToTilde() {
        var random = SplitMix(seed: 14)
        let edges: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        for _ in 0..<20000 {
            var bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
            // One or two edge bytes anywhere (a low byte beside a high one checks the word test's borrows).
            for _ in 0..<Int.random(in: 0...2, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = edges.randomElement(using: &random)!
            }
            let expected = bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
            #expect(bytes.withSpan { TextLine.isPrintableASCII($0) } == expected, "\(bytes)")
        }
    }

    @Test func colourWrapsTheLabelOnly() {
        var line = TextLine(color: true)
        line.add("updated ", .yellow)
        line.add("x")
        #expect(line.text == "\u{1B}[33mupdated \u{1B}[0mx")
    }
}
