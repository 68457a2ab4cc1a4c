import Foundation
import Testing

/// `--memory-limit`: past it, a comparison goes through temporary files (a
/// partition of the records at a time), and the command's output and exit
/// status are the ones it has in memory; the files never outlive the run,
/// and a temporary directory that cannot take them is an error, exit 2.
@Suite struct MemoryLimitTests {
    /// A pair of each format with every kind of change.
    func pair(in directory: URL) throws {
        var old: [(Int, String, Int)] = (0..<400).map { ($0, "n\($0 % 17)", $0 % 10) }
        var new = old.filter { $0.0 % 23 != 0 }.map { $0.0 % 11 == 0 ? ($0.0, $0.1, $0.2 + 100) : $0 }
        new.insert(contentsOf: (0..<5).map { (1000 + $0, "added", 1) }, at: 40)
        new.insert(new.remove(at: 10), at: 300)
        old.swapAt(0, 399)
        func json(_ rows: [(Int, String, Int)]) -> String {
            "[\n" + rows.map { "  {\"id\": \($0.0), \"name\": \"\($0.1)\", \"v\": \($0.2)}" }.joined(separator: ",\n") + "\n]\n"
        }
        func csv(_ rows: [(Int, String, Int)]) -> String { "id,name,v\n" + rows.map { "\($0.0),\($0.1),\($0.2)\n" }.joined() }
        try Data(json(old).utf8).write(to: directory.appendingPathComponent("old.json"))
        try Data(json(new).utf8).write(to: directory.appendingPathComponent("new.json"))
        try Data(csv(old).utf8).write(to: directory.appendingPathComponent("old.csv"))
        try Data(csv(new).utf8).write(to: directory.appendingPathComponent("new.csv"))
    }

    @Test func everyOutputPastTheLimitIsTheOutputInMemory() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try pair(in: scratch)
        let spill = scratch.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: true)
        for input in ["json", "csv"] {
            for options in [["--format", "text"], ["--format", "json"], ["--format", "ndjson"], ["--format", "markdown"], ["--format", "html"],
                            ["--format", "batch"], ["--stat"], ["-q"], ["--show", "name", "--limit", "3"], ["--ignore-order", "--format", "json"],
                            ["--assert", "deleted <= 5"]] {
                let arguments = ["old.\(input)", "new.\(input)", "--id", "id"] + options
                let inMemory = try changeset(arguments, in: scratch)
                let partitioned = try changeset(arguments + ["--memory-limit", "1"], in: scratch, environment: ["TMPDIR": spill.path])
                #expect(partitioned.status == inMemory.status && partitioned.stdout == inMemory.stdout && partitioned.stderr == inMemory.stderr,
                        "\(arguments): \(inMemory) / \(partitioned)")
                // The pair differs, so every run exits 1; the assertion fails (18 records deleted), and exit 1 names it.
                #expect(inMemory.status == 1, "\(inMemory)")
                #expect(inMemory.stderr == (options.first == "--assert" ? "changeset: assertion failed: deleted <= 5 (deleted is 18)\n" : ""), "\(inMemory)")
                // Unlinked as soon as made: nothing is left behind.
                #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path) == [])
            }
        }
        // A limit the inputs fit under: in memory, as without one.
        let roomy = try changeset(["old.json", "new.json", "--id", "id", "--memory-limit", "1.5G"], in: scratch)
        #expect(roomy.stdout == (try changeset(["old.json", "new.json", "--id", "id"], in: scratch)).stdout)
    }

    /// 128 partitions a side want 261 open files: under a lower limit on
    /// open files (macOS's default soft limit is 256), fewer partitions, the same output.
    @Test func fewOpenFilesMeanFewerPartitionsAndTheSameOutput() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try pair(in: scratch)
        var environment = ProcessInfo.processInfo.environment
        environment["CHANGESET"] = changesetBinary.path
        environment["NO_COLOR"] = nil
        let limited = try runProcess(URL(fileURLWithPath: "/bin/bash"),
                                     ["-c", "ulimit -n 40 && \"$CHANGESET\" old.json new.json --id id --memory-limit 1 --format json"],
                                     in: scratch, environment: environment)
        let inMemory = try changeset(["old.json", "new.json", "--id", "id", "--format", "json"], in: scratch)
        #expect(limited.status == 1 && limited.stdout == inMemory.stdout && limited.stderr.isEmpty, "\(limited)")
    }

    /// The limit holds whatever the inputs' layout: the estimate counted the
    /// records in a file's first 64 KiB a line at a time, so a JSON array on
    /// one line (`json.dump`'s way) or a first record of 64 KiB and more
    /// seemed to hold one record, and a stream counted for nothing: 2M small
    /// records stayed in memory past `--memory-limit 50M` (202 MB). Each
    /// case here is past a limit of 1M: with TMPDIR missing it says so (it
    /// went to temporary files); with `--format patch` the replay is refused;
    /// and the report is the one made in memory.
    @Test func theLimitHoldsForEveryLayoutAndForStreams() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let count = 30_000
        func write(_ name: String, _ records: [String], big: Bool, layout: String) throws {
            let first = big ? ["{\"id\": -1, \"blob\": \"\(String(repeating: "x", count: 100_000))\"}"] : []
            let text = layout == "ndjson" ? (first + records).map { $0 + "\n" }.joined()
                : layout == "lines" ? "[\n" + (first + records).joined(separator: ",\n") + "\n]\n"
                : "[" + (first + records).joined(separator: ", ") + "]"
            try Data(text.utf8).write(to: scratch.appendingPathComponent(name))
        }
        let old = (0..<count).map { "{\"id\": \($0)}" }
        var new = old
        new[7] = "{\"id\": -7}"
        try write("compact-old.json", old, big: false, layout: "compact")
        try write("compact-new.json", new, big: false, layout: "compact")
        try write("big-old.json", old, big: true, layout: "lines")
        try write("big-new.json", new, big: true, layout: "lines")
        try write("big-old.ndjson", old, big: true, layout: "ndjson")
        try write("big-new.ndjson", new, big: true, layout: "ndjson")
        try write("small.json", Array(old.prefix(3)), big: false, layout: "compact")
        _ = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "gzip -c compact-old.json > stream-old.json.gz"], in: scratch)
        let spill = scratch.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: true)
        for (oldName, newName) in [("compact-old.json", "compact-new.json"), ("big-old.json", "big-new.json"),
                                   ("big-old.ndjson", "big-new.ndjson"), ("stream-old.json.gz", "small.json")] {
            let pair = [oldName, newName, "--id", "id"]
            if !oldName.hasPrefix("stream") {
                // Estimated past the limit before anything is read.
                let missing = try changeset(pair + ["-q", "--memory-limit", "1M"], in: scratch,
                                            environment: ["TMPDIR": scratch.appendingPathComponent("absent").path])
                #expect(missing.status == 2 && missing.stderr.contains("absent"), "\(oldName): \(missing)")
            }
            let patch = try changeset(pair + ["--format", "patch", "--memory-limit", "1M"], in: scratch, environment: ["TMPDIR": spill.path])
            #expect(patch.status == 2 && patch.stderr.contains("holds every record in memory"), "\(oldName): \(patch)")
            // Under a limit they fit: in memory, the replay written.
            let roomy = try changeset(pair + ["--format", "patch", "--memory-limit", "100M"], in: scratch)
            #expect(roomy.status == 1, "\(oldName): \(roomy)")
            for format in ["json", "text"] {
                let inMemory = try changeset(pair + ["--format", format], in: scratch)
                let limited = try changeset(pair + ["--format", format, "--memory-limit", "1M"], in: scratch, environment: ["TMPDIR": spill.path])
                #expect(limited.status == 1 && limited.stdout == inMemory.stdout && limited.stderr == inMemory.stderr, "\(oldName) \(format): \(limited)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path) == [])
        }
        // Standard input too: counted as it is read, and read again from its copy.
        let piped = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$CHANGESET\" - small.json --id id --format patch --memory-limit 1M < compact-old.json"],
                                   in: scratch, environment: ProcessInfo.processInfo.environment.merging(["CHANGESET": changesetBinary.path]) { $1 })
        #expect(piped.status == 2 && piped.stderr.contains("holds every record in memory"), "\(piped)")
    }

    @Test func aReplayPastTheLimitIsRefusedAndSaysWhatToDo() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try pair(in: scratch)
        for format in ["patch", "jsonpatch"] {
            let result = try changeset(["old.json", "new.json", "--id", "id", "--format", format, "--memory-limit", "1k", "-o", "out.patch"], in: scratch)
            #expect(result.status == 2 && result.stderr.contains("--memory-limit"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out.patch").path))
        }
    }

    @Test func aLimitThatIsNotASizeIsAnError() throws {
        for limit in ["lots", "-1", "1e9", "1Q", "", "0x10", "1.2.3", "+5", "G", "0.4"] {
            let result = try changeset(["old.json", "new.json", "--id", "id", "--memory-limit", limit])
            // `-1` reads as an option, so the parser finds no value; the usage follows the message.
            let message = limit == "-1" ? "Missing value for '--memory-limit <size>'"
                : "--memory-limit \"\(limit)\": not a size; use bytes or a number with K, M, G or T (800M, 1.5G)"
            #expect(result.status == 2 && result.stdout.isEmpty && result.stderr.hasPrefix("changeset: \(message)\nUsage: "), "\(limit): \(result)")
        }
    }

    /// No room for the temporary files (a directory that is not there, a
    /// file size limit standing in for a full disk): exit 2, the directory
    /// named, no output.
    @Test func temporaryFilesThatCannotBeWrittenAreAnError() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try pair(in: scratch)
        let missing = try changeset(["old.json", "new.json", "--id", "id", "--memory-limit", "1"], in: scratch,
                                    environment: ["TMPDIR": scratch.appendingPathComponent("absent").path])
        #expect(missing.status == 2 && missing.stdout.isEmpty && missing.stderr.contains("absent"), "\(missing)")
        #expect(missing.stderr.contains("No such file or directory"), "\(missing)")
        var environment = ProcessInfo.processInfo.environment
        environment["CHANGESET"] = changesetBinary.path
        environment["TMPDIR"] = scratch.path
        // SIGXFSZ ignored, a write past the limit fails with EFBIG, as a write to a full disk fails with ENOSPC
        // (4 KiB: the rows file alone takes 16 bytes a record, over 6 KiB here).
        let full = try runProcess(URL(fileURLWithPath: "/bin/bash"),
                                  ["-c", "trap '' XFSZ; ulimit -f 4; \"$CHANGESET\" old.csv new.csv --id id --memory-limit 1"],
                                  in: scratch, environment: environment)
        #expect(full.status == 2 && full.stdout.isEmpty && full.stderr.contains("cannot write a temporary file"), "\(full)")
    }
}
