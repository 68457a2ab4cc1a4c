import Foundation
import Testing

/// The text report for people: long values cut around the change at `--width`
/// (whole with 0, refused under 8), records matched by content shown by their
/// content, and records nested deep shown without overflow.
@Suite struct TextReportTests {
    @Test func aHugeValueIsCutAroundTheChangeAndWidthZeroShowsItWhole() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let head = String(repeating: "a", count: 1 << 20)
        let tail = String(repeating: "b", count: 1 << 20)
        try #"[{"id":1,"blob":"\#(head)X\#(tail)"}]"#.write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try #"[{"id":1,"blob":"\#(head)Y\#(tail)"}]"#.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let cut = try changeset(["old.json", "new.json", "--id", "id"], in: scratch)
        let field = cut.stdout.split(separator: "\n")[3]
        #expect(field.count < 300, "\(field.prefix(400))")
        #expect(field.hasPrefix("  blob: …") && field.contains("aX") && field.contains("aY") && field.hasSuffix("…"), "\(field)")
        let narrow = try changeset(["old.json", "new.json", "--id", "id", "--width", "20"], in: scratch)
        #expect(narrow.stdout.split(separator: "\n")[3] == "  blob: …aaaaaXbbbbbbbbbbbb… -> …aaaaaYbbbbbbbbbbbb…", "\(narrow.stdout.suffix(200))")
        let whole = try changeset(["old.json", "new.json", "--id", "id", "--width", "0"], in: scratch)
        #expect(whole.stdout.split(separator: "\n")[3].count > 4 << 20)
    }

    @Test func withoutAnIDARecordIsShownByItsContent() throws {
        let result = try changeset(["catalog/old.json", "catalog/new.json", "--width", "60"])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains("deleted  at 1, line 3"), "\(result)")
        #expect(lines.contains(#"  {"id":2,"title":"Cosmos","author":"Carl Sagan","category":"…"#), "\(result)")
        #expect(lines.contains("moved    4 -> 0, lines 6 -> 2"), "\(result)")
        #expect(lines.contains(#"  {"id":5,"title":"Foundation","author":"Isaac Asimov","categ…"#), "\(result)")
        // Never a 16-digit hash where an id would be.
        #expect(result.stdout.range(of: "[0-9a-f]{16}", options: .regularExpression) == nil, "\(result)")
    }

    @Test func narrowWidthsAreRefusedNotACrash() throws {
        let result = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--width", "1"])
        #expect(result.status == 2 && result.stderr.hasPrefix("changeset: --width must be 0 (no limit) or at least 8, not 1\n"), "\(result)")
        let eight = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--width", "8", "--format", "markdown"])
        #expect(eight.status == 1, "\(eight)")
    }

    /// A width past what any text holds shows values whole: it overflowed
    /// the arithmetic on widths (a trap, killed by a signal) where values are cut.
    @Test func aHugeWidthShowsValuesWholeInEveryReportFormat() throws {
        for format in ["text", "markdown", "html"] {
            let huge = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--format", format, "--width", "1000000000000000000"])
            let whole = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--format", format, "--width", "0"])
            #expect(huge.status == 1 && huge.stderr.isEmpty, "\(huge)")
            #expect(huge.stdout == whole.stdout, "\(format)")
        }
        let max = try changeset(["edge/deep-old.json", "edge/deep-new.json", "--id", "id", "--width", String(Int.max)])
        #expect(max.status == 1 && max.stderr.isEmpty, "\(max)")
    }

    @Test func changedRecordNested1000DeepIsShownWithoutOverflow() throws {
        for format in ["text", "json", "jsonpatch", "patch"] {
            let result = try changeset(["edge/deep-old.json", "edge/deep-new.json", "--id", "id", "--format", format])
            #expect(result.status == 1 && result.stderr.isEmpty, "\(format): \(result.stderr)")
        }
        let text = try changeset(["edge/deep-old.json", "edge/deep-new.json", "--id", "id"])
        #expect(text.stdout.hasSuffix(".x.x: 1 -> 2\n"))
    }
}
