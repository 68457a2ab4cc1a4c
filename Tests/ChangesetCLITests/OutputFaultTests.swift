import Foundation
import Testing

/// Faults while the command writes, each through the real binary as a user
/// runs it: a full disk, a closed standard output or error, a signal (the
/// temporary output removed, the signal's status), and data in messages that
/// could drive the terminal.
@Suite struct OutputFaultTests {
    @Test func aFullDiskIsTroubleWithAMessage() throws {
        let result = try changesetInShell("catalog/old.json catalog/new.json --id id --format json", redirect: "> /dev/full")
        #expect(result.status == 2)
        #expect(result.stderr == "changeset: cannot write standard output: No space left on device\n")
    }

    @Test func aClosedStandardOutputIsTroubleNotACrash() throws {
        let result = try changesetInShell("catalog/old.json catalog/new.json --id id", redirect: ">&-")
        #expect(result.status == 2)
        #expect(result.stderr == "changeset: cannot write standard output: Bad file descriptor\n")
    }

    @Test func aStandardErrorThatCannotBeWrittenKeepsTheExitStatus() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try writeFile("[{\"id\":1}", "bad.json", in: scratch)
        try writeFile("[{\"id\":1}]", "n.json", in: scratch)
        try writeFile("id,v\n1,1\n", "base.csv", in: scratch)
        try writeFile("id,v\n1,2\n", "ours.csv", in: scratch)
        try writeFile("id,v\n1,3\n", "theirs.csv", in: scratch)
        for (script, status) in [("\"$CHANGESET\" bad.json n.json --id id 2>&-", 2), ("\"$CHANGESET\" bad.json n.json --id id 2>/dev/full", 2),
                                 ("\"$CHANGESET\" n.json n.json --id id --assert 'deleted > 0' 2>&-", 1),
                                 ("\"$CHANGESET\" 2>&-", 2)] {
            let result = try runShell(script, in: scratch)
            #expect(result.status == Int32(status), "\(script): \(result)")
        }
        // A merge whose standard error reader went away still writes its result.
        let merged = try runShell("\"$CHANGESET\" merge base.csv ours.csv theirs.csv --id id --prefer theirs -o m.csv 2>&1 | head -c 1 >/dev/null; exit 0", in: scratch)
        #expect(merged.status == 0, "\(merged)")
        #expect(try String(contentsOf: scratch.appendingPathComponent("m.csv"), encoding: .utf8) == "id,v\n1,3\n")
    }

    @Test func aSignalRemovesTheTemporaryOutputAndEndsTheRunWithItsStatus() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try writeFile("[{\"id\":1}]", "n.json", in: scratch)
        for signal in ["INT", "TERM", "HUP"] {
            // OLD is a FIFO whose writer stays silent: the run waits with -o's temporary file open, which
            // has no name where the system allows (O_TMPFILE), else a name the handler removes.
            // (A signal ignored when the run starts stays ignored, as for nohup; `env --default-signal` makes sure
            // none is, whatever the test runner and the shell's background job ignore.) The silent writer is killed at the
            // end (SIGKILL: it inherits the signals the runner ignores); it may hold a copy of the test's output pipe,
            // which would keep the script's output open for its 10 seconds.
            let script = """
                set -m; rm -f fifo; mkfifo fifo; (sleep 10 > fifo & echo $! > writer) ; env --default-signal=INT,TERM,HUP "$CHANGESET" fifo n.json --id id -o out.json & pid=$!
                sleep 1; ls -a | grep -c changeset- ; kill -\(signal) $pid; wait $pid; echo "status $?"; ls -a | grep -c changeset- ; kill -KILL $(cat writer)
                """
            let result = try runShell(script, in: scratch, shell: "/bin/bash")
            let numbers = result.stdout.split(separator: "\n")
            let expected = ["INT": "130", "TERM": "143", "HUP": "129"][signal]!
            #if os(Linux)
            let named = "0"
            #else
            let named = "1"
            #endif
            #expect(numbers == [Substring(named), "status \(expected)", "0"], "\(signal): \(result)")
            #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out.json").path))
        }
    }

    @Test func aSignalTheParentIgnoredStaysIgnored() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try writeFile("[{\"id\":1}]", "n.json", in: scratch)
        // nohup's way: SIGHUP ignored before the run starts; the run goes on and writes its result.
        let script = """
            rm -f fifo; mkfifo fifo
            env --default-signal=INT,TERM --ignore-signal=HUP "$CHANGESET" fifo n.json --id id -o out.json & pid=$!
            sleep 1; kill -HUP $pid; sleep 1; kill -0 $pid && echo alive
            printf '[{"id":1}]' > fifo; wait $pid; echo "status $?"; cat out.json
            """
        let result = try runShell(script, in: scratch)
        #expect(result.stdout == "alive\nstatus 0\n0 inserted, 0 deleted, 0 updated, 0 moved, 1 unchanged\n", "\(result)")
    }

    @Test func dataInErrorMessagesCannotDriveTheTerminalAndIsCapped() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try writeFile("id,x\n\u{1B}]0;owned\u{07},1\n\u{1B}]0;owned\u{07},2\n", "titles.csv", in: scratch)
        let duplicate = try changeset(["titles.csv", "titles.csv", "--id", "id"], in: scratch)
        #expect(duplicate.status == 2 && duplicate.stderr == "changeset: titles.csv:3:1: duplicate id \"\\u001B]0;owned\\u0007\": the record at line 2 has it too; it is the only repeated id. An --id that is unique (several fields: --id a,b) or --duplicates occurrence (the k-th copy matches the k-th) compares them; --id id,x is unique in both files\n", "\(duplicate)")
        let hugeName = String(repeating: "h", count: 5_000_000)
        let columns = (0..<100).map { "c\($0)" }.joined(separator: ",")
        try writeFile("\(hugeName),\u{1B}[31mred,\(columns)\n1,2\n", "wide.csv", in: scratch)
        let missing = try changeset(["wide.csv", "wide.csv", "--id", "id"], in: scratch)
        #expect(missing.status == 2 && missing.stderr.utf8.count < 1000, "\(missing.stderr.prefix(300))")
        #expect(!missing.stderr.contains("\u{1B}") && missing.stderr.contains("\\u001B[31mred") && missing.stderr.contains("… and 90 more"), "\(missing.stderr.prefix(300))")
        let ignored = try changeset(["wide.csv", "wide.csv", "--id", "c1", "--ignore", "\u{1B}[2J"], in: scratch)
        #expect(ignored.status == 2 && !ignored.stderr.contains("\u{1B}") && ignored.stderr.utf8.count < 2000, "\(ignored.stderr.prefix(300))")
    }
}
