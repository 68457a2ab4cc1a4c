import Foundation
import Testing

/// `changeset report STREAM...`: a change stream rendered again is the run
/// that wrote it, byte for byte and exit status alike; parts of one
/// comparison (split by a hash of the id, as the Spark job splits them)
/// are the whole `--ignore-order` run; and what cannot be combined exactly
/// is refused at the file and line, with nothing written.
@Suite(.tags(.slow)) struct ReportCommandTests {
    /// Inputs of each kind: JSON, NDJSON and CSV, with and without --id, with --section.
    static let inputs: [[String]] = [
        ["catalog/old.json", "catalog/new.json", "--id", "id"],
        ["catalog/old.json", "catalog/new.json"],
        ["catalog/old.json", "catalog/new.json", "--id", "id", "--section", "category"],
        ["catalog/old.ndjson", "catalog/new.ndjson", "--id", "id"],
        ["catalog/old.csv", "catalog/new.csv", "--id", "id"],
        ["catalog/old.csv", "catalog/new.csv"],
        ["arrays/old.json", "arrays/new.json", "--id", "code"],
        ["array-keys/old.json", "array-keys/new.json", "--id", "iso3"],
        ["states/old.csv", "states/new.csv", "--id", "id"],
        ["countries/old.csv", "countries/new.csv", "--id", "cca3", "--rename", "cca3=ISO3166-1-Alpha-3"],
    ]

    /// Report options, each with the formats that take it.
    static let reportOptions: [(options: [String], formats: [String])] = [
        ([], ["text", "json", "ndjson", "markdown", "html"]),
        (["--stat"], ["text", "json", "ndjson"]),
        (["--assert", "updated < 2", "--assert", "deleted == 1"], ["text", "json", "ndjson", "markdown", "html"]),
        (["--group"], ["text", "markdown"]),
        (["--limit", "1"], ["text", "markdown", "html"]),
        (["--kinds", "deleted,updated"], ["text", "json", "ndjson", "markdown", "html"]),
        (["--width", "12", "--kinds", "updated"], ["text", "markdown", "html"]),
    ]

    /// Runs `run` and `report` of its stream, and checks they agree in every byte and the exit status.
    static func expectSame(_ run: CommandResult, _ report: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.stdout == report.stdout && run.status == report.status, "\(run)\n\(report)", sourceLocation: sourceLocation)
    }

    @Test func oneStreamRendersAsTheRunThatWroteIt() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stream = scratch.appendingPathComponent("stream.ndjson").path
        for input in Self.inputs {
            let written = try changeset(input + ["--format", "ndjson", "-o", stream])
            #expect(written.status == 1, "\(written)")
            for (options, formats) in Self.reportOptions {
                for format in formats {
                    Self.expectSame(try changeset(input + options + ["--format", format]), try changeset(["report", stream] + options + ["--format", format]))
                }
            }
        }
    }

    @Test func aStreamOnStandardInputAndCompressedIsRead() throws {
        let stream = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--format", "ndjson"])
        Self.expectSame(try changeset(["catalog/old.json", "catalog/new.json", "--id", "id"]),
                        try changeset(["report", "-"], input: Data(stream.stdout.utf8)))
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let compressed = scratch.appendingPathComponent("stream.ndjson.gz").path
        _ = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--format", "ndjson", "-o", compressed])
        Self.expectSame(try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--format", "json"]),
                        try changeset(["report", compressed, "--format", "json"]))
    }

    // MARK: Parts

    /// A record's part: FNV-1a of its id, modulo the parts.
    static func part(of id: String, parts: Int) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return Int(hash % UInt64(parts))
    }

    /// A stream's change lines with part-local positions made whole-file ones,
    /// in place, as the Spark job does: the first `"old":{"index":` and
    /// `"new":{"index":` of each change line, `index` through `wholeIndex`,
    /// `line` the whole file's (`firstLine` is the line of record 0).
    static func rewritingPositions(_ stream: String, old: [Int], new: [Int], firstLine: Int) -> String {
        stream.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard !["stream", "schema", "layout", "end"].contains(where: { line.hasPrefix("{\"kind\":\"\($0)\"") }) else { return String(line) }
            var text = String(line)
            for (side, whole) in [("old", old), ("new", new)] {
                guard let start = text.range(of: "\"\(side)\":{\"index\":") else { continue }
                let digits = text[start.upperBound...].prefix { $0.isNumber }
                let index = whole[Int(digits)!]
                var end = text.index(start.upperBound, offsetBy: digits.count)
                if text[end...].hasPrefix(",\"line\":") {
                    end = text.index(end, offsetBy: 8)
                    end = text[end...].firstIndex { !$0.isNumber }!
                }
                text.replaceSubrange(start.lowerBound..<end, with: "\"\(side)\":{\"index\":\(index),\"line\":\(index + firstLine)")
            }
            return text
        }.joined(separator: "\n")
    }

    /// Splits OLD and NEW (one record a line after `header` lines) into
    /// `parts` by the id `id(record)` gives, records kept in order, runs
    /// each part pair with `--ignore-order --format ndjson` named as the
    /// whole files, rewrites the positions, and returns the streams' paths.
    static func partStreams(
        old: String, new: String, header: Int, parts: Int, id: (Substring) -> String, options: [String], in scratch: URL
    ) throws -> [String] {
        func split(_ name: String) throws -> (head: [Substring], parts: [[(whole: Int, line: Substring)]]) {
            let lines = try String(contentsOf: scratch.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
            var split = [[(whole: Int, line: Substring)]](repeating: [], count: parts)
            for (index, line) in lines.dropFirst(header).enumerated() { split[part(of: id(line), parts: parts)].append((index, line)) }
            return (Array(lines.prefix(header)), split)
        }
        let (oldHead, oldParts) = try split(old), (newHead, newParts) = try split(new)
        let suffix = (old as NSString).pathExtension
        var streams: [String] = []
        for number in 0..<parts {
            try writeFile((oldHead + oldParts[number].map(\.line)).joined(separator: "\n") + "\n", "old-\(number).\(suffix)", in: scratch)
            try writeFile((newHead + newParts[number].map(\.line)).joined(separator: "\n") + "\n", "new-\(number).\(suffix)", in: scratch)
            let run = try changeset(["old-\(number).\(suffix)", "new-\(number).\(suffix)", "--ignore-order", "--format", "ndjson", "-L", old, "-L", new] + options,
                                    in: scratch)
            #expect(run.status != 2, "\(run)")
            let rewritten = rewritingPositions(run.stdout, old: oldParts[number].map(\.whole), new: newParts[number].map(\.whole), firstLine: header + 1)
            try writeFile(rewritten, "part-\(number).ndjson", in: scratch)
            streams.append("part-\(number).ndjson")
        }
        return streams
    }

    /// CSV pairs: updates, deletions, insertions, numbers respelled
    /// (`6199` -> `6.199e3`), records re-keyed across parts, order shuffled.
    static func csvPair() -> (old: String, new: String) {
        var old = ["id,name,price,qty"], new = ["id,name,price,qty"]
        for number in 0..<60 { old.append("r\(number),name \(number),\(1000 + number * 7),\(number % 5)") }
        var kept: [String] = []
        for number in 0..<60 {
            switch number % 10 {
            case 0: continue
            case 1: kept.append("r\(number),renamed \(number),\(1000 + number * 7),\(number % 5)")
            case 2: kept.append("r\(number),name \(number),\(Double(1000 + number * 7) / 1000)e3,\(number % 5)")
            case 3: kept.append("k\(number),name \(number),\(1000 + number * 7),\(number % 5)")
            default: kept.append("r\(number),name \(number),\(1000 + number * 7),\(number % 5)")
            }
        }
        for number in 60..<66 { kept.append("r\(number),new \(number),\(number),1") }
        new += kept.enumerated().sorted { ($0.offset * 7) % 66 < ($1.offset * 7) % 66 }.map(\.element)
        return (old.joined(separator: "\n") + "\n", new.joined(separator: "\n") + "\n")
    }

    /// NDJSON pairs: type-only changes (`"3"` -> `3`), keyed arrays, re-keyed records, deletions and insertions.
    static func ndjsonPair() -> (old: String, new: String) {
        var old: [String] = [], new: [String] = []
        for number in 0..<60 {
            old.append(#"{"id":"r\#(number)","n":"\#(number)","tags":[{"id":1,"v":"a"},{"id":2,"v":"b\#(number)"}],"note":"x\#(number)"}"#)
            switch number % 10 {
            case 0: continue
            case 1, 4, 7: new.append(#"{"id":"r\#(number)","n":\#(number),"tags":[{"id":1,"v":"a"},{"id":2,"v":"b\#(number)"}],"note":"x\#(number)"}"#)
            case 2: new.append(#"{"id":"r\#(number)","n":"\#(number)","tags":[{"id":2,"v":"c\#(number)"},{"id":1,"v":"a"}],"note":"x\#(number)"}"#)
            case 3: new.append(#"{"id":"k\#(number)","n":"\#(number)","tags":[{"id":1,"v":"a"},{"id":2,"v":"b\#(number)"}],"note":"x\#(number)"}"#)
            default: new.append(#"{"id":"r\#(number)","n":"\#(number)","tags":[{"id":1,"v":"a"},{"id":2,"v":"b\#(number)"}],"note":"x\#(number)"}"#)
            }
        }
        for number in 60..<64 { new.insert(#"{"id":"r\#(number)","n":"\#(number)","tags":[],"note":"new"}"#, at: number - 55) }
        return (old.joined(separator: "\n") + "\n", new.joined(separator: "\n") + "\n")
    }

    @Test(arguments: ["csv", "ndjson"])
    func partsRenderAsTheWholeIgnoreOrderRun(suffix: String) throws {
        let (old, new) = suffix == "csv" ? Self.csvPair() : Self.ndjsonPair()
        let scratch = try scratchDirectory(holding: ["old.\(suffix)": old, "new.\(suffix)": new])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let id: (Substring) -> String = suffix == "csv"
            ? { String($0.prefix { $0 != "," }) }
            : { line in String(line.split(separator: "\"")[3]) }
        let streams = try Self.partStreams(old: "old.\(suffix)", new: "new.\(suffix)", header: suffix == "csv" ? 1 : 0, parts: 3, id: id,
                                           options: ["--id", "id"], in: scratch)
        let whole = ["old.\(suffix)", "new.\(suffix)", "--id", "id", "--ignore-order"]
        let text = try changeset(whole, in: scratch)
        // The data holds what the notes need, across parts.
        #expect(text.stdout.contains("looks re-keyed: 6 of the 12 deleted records"), "\(text)")
        #expect(text.stdout.contains(suffix == "csv" ? "only respell a number" : "change only a value's type"), "\(text)")
        for (options, formats) in Self.reportOptions {
            for format in formats {
                Self.expectSame(try changeset(whole + options + ["--format", format], in: scratch),
                                try changeset(["report"] + streams + options + ["--format", format], in: scratch))
            }
        }
    }

    // MARK: Refusals

    /// `changeset report ARGUMENTS` in `scratch`: exit 2, nothing on standard output, and `message` on standard error.
    static func expectRefused(_ arguments: [String], in scratch: URL, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try changeset(["report"] + arguments, in: scratch)
        #expect(result.status == 2 && result.stdout.isEmpty && result.stderr.hasPrefix("changeset: " + message), "\(result)", sourceLocation: sourceLocation)
    }

    static let catalog = ["old.json": try! String(contentsOf: fixtures.appendingPathComponent("catalog/old.json"), encoding: .utf8),
                          "new.json": try! String(contentsOf: fixtures.appendingPathComponent("catalog/new.json"), encoding: .utf8)]

    @Test func aCutStreamIsRefused() throws {
        let scratch = try scratchDirectory(holding: Self.catalog)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stream = try changeset(["old.json", "new.json", "--id", "id", "--format", "ndjson"], in: scratch).stdout
        try writeFile(stream.split(separator: "\n").dropLast().joined(separator: "\n") + "\n", "cut.ndjson", in: scratch)
        try Self.expectRefused(["cut.ndjson"], in: scratch, "cut.ndjson:7:1: the stream is cut: it has no end line")
    }

    @Test func anEditedStreamIsRefused() throws {
        let scratch = try scratchDirectory(holding: Self.catalog)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stream = try changeset(["old.json", "new.json", "--id", "id", "--format", "ndjson"], in: scratch).stdout
        try writeFile(stream.replacingOccurrences(of: "Snow Crash", with: "Snow Crush"), "edited.ndjson", in: scratch)
        try Self.expectRefused(["edited.ndjson"], in: scratch, "edited.ndjson:8:1: the stream was edited: its digest does not match its lines")
        try writeFile(stream.replacingOccurrences(of: "changeset 0.1.0", with: "changeset 0.0.9"), "older.ndjson", in: scratch)
        try Self.expectRefused(["older.ndjson"], in: scratch, "older.ndjson:1:1: a stream from \"changeset 0.0.9\"; this is changeset 0.1.0")
        try writeFile(stream.replacingOccurrences(of: "{\"kind\":\"moved\"", with: "{\"kind\":moved"), "broken.ndjson", in: scratch)
        try Self.expectRefused(["broken.ndjson"], in: scratch, "broken.ndjson:4:9: not a change stream line:")
        // The end line's counts are digested.
        try writeFile(stream.replacingOccurrences(of: "\"deleted\":1,", with: "\"deleted\":0,"), "recounted.ndjson", in: scratch)
        try Self.expectRefused(["recounted.ndjson"], in: scratch, "recounted.ndjson:8:1: the stream was edited: its digest does not match its lines")
        // Positions' numbers are checked where the digest leaves them out.
        try writeFile(stream.replacingOccurrences(of: "\"old\":{\"index\":3,\"line\":5}", with: "\"old\":{\"index\":-3,\"line\":5}"), "negative.ndjson", in: scratch)
        try Self.expectRefused(["negative.ndjson"], in: scratch, "negative.ndjson:2:1: \"old\" has index -3, below 0: the stream was edited")
        try writeFile(stream.replacingOccurrences(of: "\"old\":{\"index\":3,\"line\":5}", with: "\"old\":{\"index\":3,\"line\":\"5\"}"), "textline.ndjson", in: scratch)
        try Self.expectRefused(["textline.ndjson"], in: scratch, "textline.ndjson:2:1: expected a whole number, found \"5\": the stream was edited")
        // Positions are left out of the digest: a part's positions rewritten to the whole file's are accepted.
        try writeFile(stream.replacingOccurrences(of: "\"old\":{\"index\":3,\"line\":5}", with: "\"old\":{\"index\":30,\"line\":50}"), "moved.ndjson", in: scratch)
        #expect(try changeset(["report", "moved.ndjson"], in: scratch).status == 1)
        // A position with an index and no line (an input without lines) is a position.
        try writeFile(stream.replacingOccurrences(of: "\"old\":{\"index\":3,\"line\":5}", with: "\"old\":{\"index\":3}"), "lineless.ndjson", in: scratch)
        let lineless = try changeset(["report", "lineless.ndjson", "--format", "json"], in: scratch)
        #expect(lineless.status == 1 && lineless.stdout.contains(#"{"kind":"deleted","id":"4","old":{"index":3},"#), "\(lineless)")
    }

    /// A stream made with `--show` holds the values: `report` with the same `--show` shows them as the run
    /// did, a field the record lacks (absent) apart from one holding null; another `--show` is refused.
    @Test func aStreamMadeWithShowRendersItsValues() throws {
        let scratch = try scratchDirectory(holding: [
            "old.json": #"[{"id":1,"name":null,"v":1},{"id":2,"name":"b","v":1},{"id":5,"v":1}]"#,
            "new.json": #"[{"id":1,"name":null,"v":2},{"id":2,"name":"b","v":2},{"id":6,"v":1}]"#,
        ])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let made = try changeset(["old.json", "new.json", "--id", "id", "--show", "name", "--format", "ndjson", "-o", "shown.ndjson"], in: scratch)
        #expect(made.status == 1, "\(made)")
        for format in ["text", "json", "markdown", "html", "ndjson"] {
            Self.expectSame(try changeset(["old.json", "new.json", "--id", "id", "--show", "name", "--format", format], in: scratch),
                            try changeset(["report", "shown.ndjson", "--show", "name", "--format", format], in: scratch))
        }
        let text = try changeset(["report", "shown.ndjson", "--show", "name"], in: scratch).stdout
        #expect(text.contains("name: (absent)") && text.contains("name: null"), "\(text)")
        // Without --show, as the run without it.
        Self.expectSame(try changeset(["old.json", "new.json", "--id", "id"], in: scratch), try changeset(["report", "shown.ndjson"], in: scratch))
        try Self.expectRefused(["shown.ndjson", "--show", "v"], in: scratch,
                               "--show reads values from the snapshots' records, and the streams hold the values of --show name only")
    }

    @Test func partsThatCannotBeCombinedAreRefused() throws {
        let scratch = try scratchDirectory(holding: Self.catalog)
        defer { try? FileManager.default.removeItem(at: scratch) }
        func stream(_ name: String, _ arguments: [String]) throws {
            let run = try changeset(arguments + ["--format", "ndjson", "-o", name], in: scratch)
            #expect(run.status == 1, "\(run)")
        }
        try stream("ordered.ndjson", ["old.json", "new.json", "--id", "id"])
        try stream("unordered.ndjson", ["old.json", "new.json", "--id", "id", "--ignore-order"])
        try stream("caseless.ndjson", ["old.json", "new.json", "--id", "id", "--ignore-order", "--ignore-case"])
        try Self.expectRefused(["unordered.ndjson", "ordered.ndjson"], in: scratch, "ordered.ndjson:1:1: made without --ignore-order")
        try Self.expectRefused(["unordered.ndjson", "unordered.ndjson"], in: scratch, "unordered.ndjson:1:1: the same stream as unordered.ndjson")
        try Self.expectRefused(["unordered.ndjson", "caseless.ndjson"], in: scratch, "caseless.ndjson:1:1: made under other rules than unordered.ndjson")
        // Two parts that both hold record 8 (inserted in each).
        try writeFile("[{\"id\":8,\"title\":\"x\"}]", "other.json", in: scratch)
        try writeFile("[]", "empty.json", in: scratch)
        try stream("other.ndjson", ["empty.json", "other.json", "--id", "id", "--ignore-order", "-L", "old.json", "-L", "new.json"])
        try Self.expectRefused(["unordered.ndjson", "other.ndjson"], in: scratch, "other.ndjson:2:1: record id \"8\" is in unordered.ndjson:3 too: the parts overlap")
        // Parts of other files: refused unless the report names the files.
        try stream("renamed.ndjson", ["empty.json", "other.json", "--id", "id", "--ignore-order"])
        try Self.expectRefused(["unordered.ndjson", "renamed.ndjson"], in: scratch,
                               "renamed.ndjson:1:1: compares empty.json with other.json, and unordered.ndjson compares old.json with new.json")
        let named = try changeset(["report", "-L", "a.json", "-L", "b.json", "unordered.ndjson", "renamed.ndjson", "--format", "json"], in: scratch)
        #expect(named.status == 2 && named.stderr.contains("record id \"8\""), "\(named)")
        // Empty parts (a partition with no records) all sum to zero: they are no repeats.
        for name in ["empty-1.ndjson", "empty-2.ndjson"] {
            let run = try changeset(["empty.json", "empty.json", "--id", "id", "--ignore-order", "--format", "ndjson", "-o", name, "-L", "old.json", "-L", "new.json"],
                                    in: scratch)
            #expect(run.status == 0, "\(run)")
        }
        Self.expectSame(try changeset(["old.json", "new.json", "--id", "id", "--ignore-order"], in: scratch),
                        try changeset(["report", "empty-1.ndjson", "unordered.ndjson", "empty-2.ndjson"], in: scratch))
        // Parts split by hand and never rewritten: each holds its own file's positions, which the order needs whole.
        try writeFile("id,v\n1,a\n3,b\n5,c\n", "odd-old.csv", in: scratch)
        try writeFile("id,v\n1,a\n3,B\n5,c\n", "odd-new.csv", in: scratch)
        try writeFile("id,v\n2,a\n4,b\n6,c\n", "even-old.csv", in: scratch)
        try writeFile("id,v\n2,a\n4,B\n6,c\n", "even-new.csv", in: scratch)
        for part in ["odd", "even"] {
            try stream("\(part).ndjson", ["\(part)-old.csv", "\(part)-new.csv", "--id", "id", "--ignore-order", "-L", "old.csv", "-L", "new.csv"])
        }
        try Self.expectRefused(["odd.ndjson", "even.ndjson"], in: scratch,
                               "even.ndjson:2:1: OLD's record at index 1 is in odd.ndjson:2 too: the parts' positions are their own files', not the whole data's")
        try stream("kinds.ndjson", ["old.json", "new.json", "--id", "id", "--kinds", "deleted"])
        try Self.expectRefused(["kinds.ndjson"], in: scratch, "kinds.ndjson:1:1: made with --kinds, it leaves changes out")
        try Self.expectRefused(["unordered.ndjson", "--format", "patch"], in: scratch, "--format patch replays NEW from OLD and needs the snapshots: make it from them (changeset OLD NEW --format patch)")
        try Self.expectRefused(["unordered.ndjson", "--show", "title"], in: scratch,
                               "--show reads values from the snapshots' records, and the streams hold no shown values: make the report from the snapshots")
    }
}
