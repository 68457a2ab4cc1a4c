import Foundation
import Testing

/// Limits the system puts on a run (open files, file size) and a kill that
/// cannot be caught: each ends in exit status 2 with a message, never a
/// signal, and leaves nothing behind beside the `-o` target.
@Suite struct ProcessLimitTests {
    /// Runs `script` under bash in `directory`, with a timeout; `$CHANGESET` is the binary.
    func shell(_ script: String, in directory: URL) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["CHANGESET"] = changesetBinary.path
        environment["NO_COLOR"] = nil
        return try runProcess(URL(fileURLWithPath: "/usr/bin/timeout"), ["60", "/bin/bash", "-c", script], in: directory, environment: environment)
    }

    /// A pair whose text report is about 120 KB.
    func pair(in directory: URL) throws {
        let old = "id,v\n" + (0..<2000).map { "\($0),\(String(repeating: "a", count: 50))\n" }.joined()
        try Data(old.utf8).write(to: directory.appendingPathComponent("old.csv"))
        try Data(old.replacingOccurrences(of: "a", with: "b").utf8).write(to: directory.appendingPathComponent("new.csv"))
    }

    func leftovers(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains("changeset-") || $0.hasPrefix("out") }
    }

    /// libdispatch traps (SIGILL) when it cannot open its own descriptors:
    /// with 5 to 9 allowed, the run died without a word.
    @Test func tooFewOpenFilesAllowedIsAnErrorNotACrash() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try pair(in: scratch)
        for limit in 4...12 {
            for command in ["old.csv new.csv --id id -o out.txt", "merge old.csv old.csv new.csv --id id -o out.csv", "old.csv new.csv --id id --memory-limit 0 -q"] {
                let result = try shell("ulimit -n \(limit); \"$CHANGESET\" \(command)", in: scratch)
                #expect(result.status == 2 && result.stderr.hasPrefix("changeset: the limit on open files (ulimit -n) is \(limit)"), "\(limit) \(command): \(result)")
                #expect(try leftovers(scratch) == [], "\(limit) \(command)")
            }
        }
        let enough = try shell("ulimit -n 64; \"$CHANGESET\" old.csv new.csv --id id --memory-limit 0 -o out.txt", in: scratch)
        #expect(enough.status == 1 && enough.stderr.isEmpty, "\(enough)")
        #expect(try leftovers(scratch) == ["out.txt"])
    }

    /// Past `ulimit -f` the kernel sends SIGXFSZ, which killed the run
    /// (status 153, no message) and left `-o`'s temporary file behind.
    @Test func aWritePastTheFileSizeLimitIsAnErrorThatLeavesNothing() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try pair(in: scratch)
        let file = try shell("ulimit -f 16; \"$CHANGESET\" old.csv new.csv --id id -o out.txt", in: scratch)
        #expect(file.status == 2 && file.stderr == "changeset: cannot write out.txt: File too large\n" && file.stdout.isEmpty, "\(file)")
        #expect(try leftovers(scratch) == [])
        let redirected = try shell("ulimit -f 16; \"$CHANGESET\" old.csv new.csv --id id > out.txt", in: scratch)
        #expect(redirected.status == 2 && redirected.stderr == "changeset: cannot write standard output: File too large\n", "\(redirected)")
        let merged = try shell("ulimit -f 16; \"$CHANGESET\" merge old.csv old.csv new.csv --id id -o out.csv", in: scratch)
        #expect(merged.status == 2 && merged.stderr.contains("File too large"), "\(merged)")
        let stream = try shell("ulimit -f 16; cat old.csv old.csv old.csv | \"$CHANGESET\" - new.csv --id id --duplicates occurrence -q", in: scratch)
        #expect(stream.status == 2 && stream.stderr.contains("cannot write a temporary copy") && stream.stderr.contains("File too large"), "\(stream)")
    }

    /// SIGKILL cannot be caught: the output being written has no name until
    /// it is whole, so nothing is left, and a file it would replace stays.
    @Test func aKilledRunLeavesNoTemporaryOutput() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try pair(in: scratch)
        for existing in [false, true] {
            if existing { try Data("kept\n".utf8).write(to: scratch.appendingPathComponent("out.txt")) }
            // OLD is a FIFO whose writer stays silent: the run waits with its output open. The writer is killed at the end
            // (SIGKILL: it inherits the signals the runner ignores); it may hold a copy of the test's output pipe, which
            // would keep the script's output open for its 10 seconds.
            let script = """
                rm -f fifo; mkfifo fifo; (sleep 10 > fifo & echo $! > writer); "$CHANGESET" fifo new.csv --id id -o out.txt & pid=$!
                sleep 1; kill -KILL $pid; wait $pid; echo "status $?"; kill -KILL $(cat writer)
                """
            let result = try shell(script, in: scratch)
            #expect(result.stdout == "status 137\n", "\(result)")
            #expect(try leftovers(scratch) == (existing ? ["out.txt"] : []), "\(existing)")
            if existing { #expect(try String(contentsOf: scratch.appendingPathComponent("out.txt"), encoding: .utf8) == "kept\n") }
        }
        // And a run that ends replaces the file, keeping its permissions.
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: scratch.appendingPathComponent("out.txt").path)
        let replaced = try changeset(["old.csv", "new.csv", "--id", "id", "--stat", "-o", "out.txt"], in: scratch)
        #expect(replaced.status == 1)
        #expect(try String(contentsOf: scratch.appendingPathComponent("out.txt"), encoding: .utf8).hasPrefix("0 inserted, 0 deleted, 2000 updated"))
        #expect(try FileManager.default.attributesOfItem(atPath: scratch.appendingPathComponent("out.txt").path)[.posixPermissions] as? Int == 0o640)
        #expect(try leftovers(scratch) == ["out.txt"])
    }
}
