import Foundation
import Testing

/// What the Spark job needs on this machine.
enum SparkTools {
    static let root = fixtures.deletingLastPathComponent()
    /// The Python of `.build/py-tools`, where `scripts/install-deps` installs pyspark.
    static let python = root.appendingPathComponent(".build/py-tools/bin/python")

    /// Why the job cannot run here, or nil when Java 17+ and pyspark are installed.
    static let missing: String? = {
        let java = try? runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["java", "-version"])
        let version = (java?.stderr ?? "").firstMatch(of: #/version "(\d+)/#).flatMap { Int($0.output.1) }
        if java?.status != 0 || (version ?? 0) < 17 {
            return "Java 17 or newer is missing: run scripts/install-deps (apt-get install openjdk-17-jre-headless)"
        }
        let pyspark = try? runProcess(python, ["-c", "import pyspark"])
        if pyspark?.status != 0 {
            return "pyspark is missing from .build/py-tools: run scripts/install-deps"
        }
        return nil
    }()
}

/// The PySpark job of `examples/spark/` in Spark's local mode, on data these
/// tests make with a seeded generator: its report equals, byte for byte, the
/// single-machine `changeset OLD NEW --id id --ignore-order` on the same
/// files, for CSV (1,000,000 records), NDJSON and Parquet that Spark writes.
/// Needs Java 17 or newer and pyspark in `.build/py-tools` (`scripts/install-deps`
/// installs both); skipped, saying which is missing, where they are not.
@Suite(.tags(.slow, .spark), .enabled(if: SparkTools.missing == nil, Comment(rawValue: SparkTools.missing ?? "")))
struct SparkJobTests {
    static let job = SparkTools.root.appendingPathComponent("examples/spark/changeset_spark.py")
    static let python = SparkTools.python

    /// Runs the job in `directory` with `arguments` after OLD and NEW, in local mode.
    func runJob(_ arguments: [String], in directory: URL) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["PYSPARK_PYTHON"] = Self.python.path
        return try runProcess(Self.python, [Self.job.path] + arguments + ["--changeset", changesetBinary.path],
                              in: directory, environment: environment)
    }

    /// The summary and the changes' kinds and ids of a `--format json` report, for a failure that says what differs.
    func countsAndChanges(_ json: String) throws -> (summary: NSDictionary, changes: [String]) {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json.prefix(500))")
        let summary = try #require(document["summary"] as? NSDictionary)
        let changes = try #require(document["changes"] as? [[String: Any]])
        return (summary, changes.map { "\($0["kind"] ?? "") \($0["id"] ?? "")" })
    }

    /// Expects two json reports to agree on the counts and on every change's kind and id, then to be the same bytes.
    func expectSameJSON(_ job: String, _ single: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (jobSummary, jobChanges) = try countsAndChanges(job)
        let (singleSummary, singleChanges) = try countsAndChanges(single)
        #expect(jobSummary == singleSummary, sourceLocation: sourceLocation)
        #expect(jobChanges.count == singleChanges.count, sourceLocation: sourceLocation)
        #expect(jobChanges == singleChanges, "first difference at \(jobChanges.indices.first { $0 >= singleChanges.count || jobChanges[$0] != singleChanges[$0] } ?? -1)",
                sourceLocation: sourceLocation)
        #expect(job == single, "the json reports differ", sourceLocation: sourceLocation)
    }

    /// Runs two commands at the same time and returns both results.
    func bothAtOnce(_ first: @escaping @Sendable () throws -> CommandResult,
                    _ second: @escaping @Sendable () throws -> CommandResult) throws -> (CommandResult, CommandResult) {
        final class Outcome: @unchecked Sendable { var result: Result<CommandResult, any Error>? }
        let outcome = Outcome()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outcome.result = Result { try second() } }
        let firstResult = try first()
        group.wait()
        return (firstResult, try outcome.result!.get())
    }

    /// The part streams the job kept with `--streams`, in partition order.
    func keptStreams(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ndjson") }.sorted()
            .map { folder.appendingPathComponent($0).path }
    }

    @Test func oneMillionCSVRecordsInEightPartitionsReportAsOneMachine() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SnapshotPairGenerator(seed: 38)
        let pair = generator.csvPair(records: 1_000_000)
        try writeFile(pair.old, "old.csv", in: directory)
        try writeFile(pair.new, "new.csv", in: directory)

        let job = try runJob(["old.csv", "new.csv", "--id", "id", "--partitions", "8", "--streams", "streams"], in: directory)
        // The two single runs at once: each takes half a minute in a debug build.
        let (single, singleJSON) = try bothAtOnce(
            { try changeset(["old.csv", "new.csv", "--id", "id", "--ignore-order"], in: directory) },
            { try changeset(["old.csv", "new.csv", "--id", "id", "--ignore-order", "--format", "json"], in: directory) })
        #expect(single.status == 1 && single.stdout.hasPrefix("\(pair.inserted) inserted, \(pair.deleted) deleted, "), "\(single.stdout.prefix(300))")
        #expect(job.status == single.status, "\(job)")
        #expect(job.stdout.prefix(200) == single.stdout.prefix(200))
        #expect(job.stdout == single.stdout, "the text reports differ")

        let streams = try keptStreams(directory.appendingPathComponent("streams"))
        #expect(streams.count == 8, "\(streams)")
        let jobJSON = try changeset(["report", "--format", "json"] + streams, in: directory)
        #expect(jobJSON.status == 1 && singleJSON.status == 1, "\(jobJSON.stderr)\(singleJSON.stderr)")
        try expectSameJSON(jobJSON.stdout, singleJSON.stdout)
    }

    /// NDJSON ids respelled on the new side (`17` -> `17.0`, `1.7e1`) are one id to changeset, so the job's
    /// partitioning must send both spellings to the same partition.
    @Test func ndjsonWithRespelledIdsReportsJSONAsOneMachine() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SnapshotPairGenerator(seed: 3838)
        let pair = generator.ndjsonPair(records: 100_000)
        try writeFile(pair.old, "old.ndjson", in: directory)
        try writeFile(pair.new, "new.ndjson", in: directory)

        let job = try runJob(["old.ndjson", "new.ndjson", "--id", "id", "--partitions", "8", "--format", "json", "--streams", "streams"],
                             in: directory)
        let single = try changeset(["old.ndjson", "new.ndjson", "--id", "id", "--ignore-order", "--format", "json"], in: directory)
        #expect(single.status == 1, "\(single.stderr)")
        #expect(job.status == single.status, "\(job.stderr)")
        try expectSameJSON(job.stdout, single.stdout)

        let jobText = try changeset(["report"] + (try keptStreams(directory.appendingPathComponent("streams"))), in: directory)
        let singleText = try changeset(["old.ndjson", "new.ndjson", "--id", "id", "--ignore-order"], in: directory)
        #expect(jobText.status == 1 && jobText.stdout == singleText.stdout, "\(jobText.stderr)")
    }

    /// Parquet has no lines: the job's positions are indexes only. The single run compares the same table's rows as
    /// NDJSON, in the order Spark reads them; its stream without `line` in the positions, rendered by `changeset
    /// report`, is the job's report.
    @Test func parquetWrittenBySparkReportsAsOneMachineWithIndexesOnly() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SnapshotPairGenerator(seed: 383_838)
        let pair = generator.ndjsonPair(records: 5_000)
        try writeFile(pair.old, "old-source.ndjson", in: directory)
        try writeFile(pair.new, "new-source.ndjson", in: directory)
        // Spark writes each side as one Parquet file, then the rows it reads back as JSON, in the order it reads them.
        let writer = try runProcess(Self.python, ["-c", """
            from pyspark.sql import SparkSession
            spark = SparkSession.builder.master("local[2]").config("spark.ui.showConsoleProgress", "false").getOrCreate()
            spark.conf.set("spark.sql.jsonGenerator.ignoreNullFields", "false")
            for side in ("old", "new"):
                spark.read.json(side + "-source.ndjson").coalesce(1).write.parquet(side + ".parquet")
                with open(side + ".ndjson", "w", encoding="utf-8") as rows:
                    for row in spark.read.parquet(side + ".parquet").toJSON().collect():
                        rows.write(row + "\\n")
            spark.stop()
            """], in: directory, environment: ProcessInfo.processInfo.environment.merging(["PYSPARK_PYTHON": Self.python.path]) { $1 })
        try #require(writer.status == 0, "\(writer)")

        let job = try runJob(["old.parquet", "new.parquet", "--id", "id", "--partitions", "8"], in: directory)
        let stream = try changeset(["old.ndjson", "new.ndjson", "--id", "id", "--ignore-order", "--format", "ndjson",
                                    "-L", "old.parquet", "-L", "new.parquet"], in: directory)
        #expect(stream.status == 1, "\(stream.stderr)")
        // Only the positions, which come before a change's record or fields; the records' own `old` and `new` stay.
        let withoutLines = stream.stdout.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let end = line.firstRange(of: #/"(record|fields)":/#)?.lowerBound ?? line.endIndex
            return line[..<end].replacing(#/"(?<side>old|new)":\{"index":(?<index>\d+),"line":\d+\}/#) {
                "\"\($0.output.side)\":{\"index\":\($0.output.index)}"
            } + line[end...]
        }.joined(separator: "\n")
        #expect(withoutLines != stream.stdout)
        try writeFile(withoutLines, "single.ndjson", in: directory)
        let single = try changeset(["report", "single.ndjson"], in: directory)
        #expect(single.status == 1, "\(single.stderr)")
        #expect(job.status == single.status, "\(job)")
        #expect(job.stdout == single.stdout, "the text reports differ")
        #expect(!job.stdout.contains("line "), "\(job.stdout.prefix(500))")
    }

    /// Three records in eight partitions: the empty partitions make no stream, and the report is the single run's.
    @Test func emptyPartitionsAddNothing() throws {
        let directory = try scratchDirectory(holding: [
            "old.csv": "id,name\n1,a\n2,\"b, c\"\n3,Zürich\n",
            "new.csv": "id,name\n1,a\n3,Zurich\n4,\"d \"\"x\"\"\"\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try runJob(["old.csv", "new.csv", "--id", "id", "--partitions", "8", "--streams", "streams"], in: directory)
        let single = try changeset(["old.csv", "new.csv", "--id", "id", "--ignore-order"], in: directory)
        #expect(job.status == 1 && job.stdout == single.stdout, "\(job)\n\(single)")
        #expect((1...4).contains(try keptStreams(directory.appendingPathComponent("streams")).count))
    }

    /// changeset's error in one partition stops the job with its message, the line made the whole file's
    /// (a blank line and the other partition's rows make the part's line another).
    @Test func aChangesetErrorInAPartitionNamesTheWholeFilesLine() throws {
        let directory = try scratchDirectory(holding: [
            "old.csv": "id,name\n1,a\n2,b\n3,c\n4,d\n",
            "new.csv": "id,name\n1,a\n\n2,b\n3\n4,d\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try runJob(["old.csv", "new.csv", "--id", "id", "--partitions", "2"], in: directory)
        let single = try changeset(["old.csv", "new.csv", "--id", "id"], in: directory)
        #expect(single.stderr.hasPrefix("changeset: new.csv:5:2: this row has 1 fields but the header has 2"), "\(single)")
        #expect(job.status == 2 && job.stdout.isEmpty, "\(job)")
        #expect(job.stderr.contains(": changeset exited 2: " + single.stderr.trimmingCharacters(in: .newlines)), "\(job.stderr)")
        #expect(!job.stderr.contains("Traceback"), "\(job.stderr)")
    }

    /// A job that reads CSV a line at a time cannot split a quoted line break: it refuses, naming the line.
    @Test func aQuotedLineBreakInCSVIsRefusedWithItsLine() throws {
        let directory = try scratchDirectory(holding: [
            "old.csv": "id,note\n1,plain\n2,\"two\nlines\"\n",
            "new.csv": "id,note\n1,plain\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let job = try runJob(["old.csv", "new.csv", "--id", "id", "--partitions", "2"], in: directory)
        #expect(job.status == 2 && job.stdout.isEmpty, "\(job)")
        #expect(job.stderr.contains("changeset_spark: old.csv:3: a quoted field holds a line break"), "\(job.stderr)")
    }

    /// Bad input is trouble, exit 2 in one line, never Python's exit 1 (which says the snapshots differ) with a
    /// trace: a line that is not JSON (changeset's own message, at the whole file's line), a file that is not
    /// there, and a replay format, refused before Spark starts.
    @Test func badInputIsTroubleInOneLine() throws {
        let directory = try scratchDirectory(holding: [
            "old.ndjson": (1...9).map { "{\"id\": \($0)}\n" }.joined(),
            "new.ndjson": (1...5).map { "{\"id\": \($0)}\n" }.joined() + "{\"id\": 6,}\n" + "{\"id\": 7}\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let single = try changeset(["old.ndjson", "new.ndjson", "--id", "id"], in: directory)
        #expect(single.status == 2 && single.stderr.hasPrefix("changeset: new.ndjson:6:"), "\(single)")
        let notJSON = try runJob(["old.ndjson", "new.ndjson", "--id", "id", "--partitions", "3"], in: directory)
        #expect(notJSON.status == 2 && notJSON.stdout.isEmpty, "\(notJSON)")
        #expect(notJSON.stderr.contains(single.stderr.trimmingCharacters(in: .newlines)), "\(notJSON.stderr)")
        let missing = try runJob(["old.ndjson", "gone.ndjson", "--id", "id", "--partitions", "3"], in: directory)
        #expect(missing.status == 2 && missing.stdout.isEmpty, "\(missing)")
        #expect(missing.stderr.contains("changeset_spark: gone.ndjson: no such file"), "\(missing.stderr)")
        for output in [notJSON, missing] { #expect(!output.stderr.contains("Traceback"), "\(output.stderr)") }
        // Spark reads both snapshots alike: names that say two formats are refused, not read as one.
        try "id\n1\n".write(to: directory.appendingPathComponent("new.csv"), atomically: true, encoding: .utf8)
        let mixed = try runJob(["old.ndjson", "new.csv", "--id", "id", "--partitions", "3"], in: directory)
        #expect(mixed.status == 2 && mixed.stderr.contains("changeset_spark: old.ndjson is ndjson and new.csv is csv"), "\(mixed)")
        let patch = try runJob(["old.ndjson", "new.ndjson", "--id", "id", "--format", "patch"], in: directory)
        #expect(patch.status == 2 && patch.stderr.contains("--format patch: the job renders a report from change streams"), "\(patch)")
    }

    /// Hadoop reads a byte that is not UTF-8 as U+FFFD without a word: the job refuses such a line with its
    /// place rather than compare text the file does not hold.
    @Test func aByteThatIsNotUTF8IsRefusedWithItsLine() throws {
        let directory = try scratchDirectory(holding: ["old.ndjson": "{\"id\": 1}\n{\"id\": 2}\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        // Latin-1's é where UTF-8 has two bytes, on the third line (a blank line before it).
        var bytes = Array("{\"id\": 1}\n\n{\"id\": 2, \"name\": \"caf".utf8)
        bytes += [0xE9] + Array("\"}\n".utf8)
        try Data(bytes).write(to: directory.appendingPathComponent("new.ndjson"))
        let job = try runJob(["old.ndjson", "new.ndjson", "--id", "id", "--partitions", "2"], in: directory)
        #expect(job.status == 2 && job.stdout.isEmpty, "\(job)")
        #expect(job.stderr.contains("changeset_spark: new.ndjson:3: holds U+FFFD, which Spark puts where bytes are not UTF-8"), "\(job.stderr)")
        #expect(!job.stderr.contains("Traceback"), "\(job.stderr)")
    }
}

/// Two snapshots of one made-up dataset, the second an edit of the first:
/// records deleted, inserted and updated (names with Unicode, notes with
/// quoted commas and doubled quotes, prices respelled), a few blank lines;
/// in NDJSON, ids respelled and members named `old` and `new` that look like
/// a change line's positions.
/// Seeded, so a failure can be run again as it was.
struct SnapshotPairGenerator {
    /// SplitMix64: small, fast and the same on every platform.
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    private static let names = ["Zürich", "東京", "São Paulo", "Ærøskøbing", "Cafe\u{301}", "Kraków", "Москва", "🚲 shop", "plain"]
    /// CSV cells as written: quoted commas and doubled quotes.
    private static let notes = ["none", "\"a, b\"", "\"said \"\"hi\"\"\"", "\"x,y\"", "ok"]

    /// What each record of the new side is, against the old one.
    private enum Edit { case same, deleted, updated, respelled }

    private mutating func edit() -> Edit {
        switch below(100) {
        case 0..<2: .deleted
        case 2..<5: .updated
        case 5..<7: .respelled
        default: .same
        }
    }

    /// A CSV pair of `records` old records, with the counts of inserted and deleted records.
    mutating func csvPair(records: Int) -> (old: String, new: String, inserted: Int, deleted: Int) {
        var old = "id,name,price,note\n"
        var new = "id,name,price,note\n"
        old.reserveCapacity(records * 40)
        new.reserveCapacity(records * 40)
        var inserted = 0, deleted = 0
        for id in 0..<records {
            let name = Self.names[below(Self.names.count)]
            let cents = below(1_000_000)
            let price = "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
            let note = Self.notes[below(Self.notes.count)]
            old += "\(id),\(name) \(id),\(price),\(note)\n"
            if id % 100_003 == 7 { old += "\n"; new += "\n" }
            switch edit() {
            case .same: new += "\(id),\(name) \(id),\(price),\(note)\n"
            case .deleted: deleted += 1
            case .updated: new += "\(id),\(name) \(id) bis,\(price),\"changed, \"\"\(id)\"\"\"\n"
            case .respelled: new += "\(id),\(name) \(id),\(price)0,\(note)\n"
            }
            if below(100) == 0 {
                new += "\(records + id),\(Self.names[below(Self.names.count)]) new,1.5e3,\"new, \"\"fresh\"\"\"\n"
                inserted += 1
            }
        }
        return (old, new, inserted, deleted)
    }

    /// An NDJSON pair of `records` old records; some ids of the new side are respelled numbers (`17.0`, `1.7e1`).
    mutating func ndjsonPair(records: Int) -> (old: String, new: String) {
        var old = "", new = ""
        old.reserveCapacity(records * 70)
        new.reserveCapacity(records * 70)
        for id in 0..<records {
            let name = Self.names[below(Self.names.count)]
            let price = below(100_000)
            let tags = below(3) == 0 ? "[\"a\",\"b, c\"]" : "[]"
            let rank = id % 7
            // Members spelled as a change line's positions: the job must rewrite the positions, not these.
            let lookalikes = rank == 0 ? ",\"old\":{\"index\":3,\"line\":4},\"new\":{\"index\":5,\"line\":6}" : ""
            let record = { (id: String, name: String, price: String) in
                "{\"id\":\(id),\"name\":\"\(name)\",\"price\":\(price),\"tags\":\(tags),\"meta\":{\"rank\":\(rank)}\(lookalikes)}\n"
            }
            old += record("\(id)", name, "\(price)")
            if id % 50_021 == 3 { old += "  \n"; new += "\n" }
            let newID = below(20) == 0 ? (id % 2 == 0 ? "\(id).0" : "\(id)e0") : "\(id)"
            switch edit() {
            case .same: new += record(newID, name, "\(price)")
            case .deleted: break
            case .updated: new += record(newID, name + " bis", "\(price + 1)")
            case .respelled: new += record(newID, name, "\(price).00")
            }
            if below(100) == 0 { new += record("\(records + id)", "new \(name)", "1.5e3") }
        }
        return (old, new)
    }
}
