import Foundation
import Testing

/// Nothing lost under faults: what a user's data and terminal are protected
/// from, each through the real binary as a user runs it.
@Suite struct FaultTests {
    /// Runs a shell script in `directory`; `$CHANGESET` is the binary.
    func shell(_ script: String, in directory: URL, timeout: Int = 60, shell: String = "/bin/sh") throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["CHANGESET"] = changesetBinary.path
        environment["NO_COLOR"] = nil
        return try runProcess(URL(fileURLWithPath: "/usr/bin/timeout"), ["\(timeout)", shell, "-c", script],
                              in: directory, environment: environment)
    }

    func write(_ text: String, _ name: String, in directory: URL) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    // MARK: Data loss

    @Test func gitSetupKeepsEveryLineOfACRLFAttributesFileAndRemovesOnlyItsOwnAttributes() throws {
        let repository = try GitDriverTests.Repository()
        try repository.write(".gitattributes", "*.png binary\r\n*.txt text\r\n*.csv text eol=crlf diff=changeset merge=changeset changeset-id=x\r\n")
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.json").status == 0)
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv").status == 0)
        #expect(try repository.read(".gitattributes") == """
            *.png binary\r
            *.txt text\r
            *.csv text eol=crlf diff=changeset merge=changeset changeset-id=sku\r
            *.json diff=changeset merge=changeset changeset-id=sku\r

            """)
        let removed = try repository.changeset("git", "setup", "--remove", "*.csv")
        #expect(removed.status == 0 && removed.stdout.contains("removed changeset's attributes from 1 line"), "\(removed)")
        #expect(try repository.read(".gitattributes") == "*.png binary\r\n*.txt text\r\n*.csv text eol=crlf\r\n*.json diff=changeset merge=changeset changeset-id=sku\r\n")
        let none = try repository.changeset("git", "setup", "--remove", "*.csv")
        #expect(none.status == 0 && none.stdout.contains("nothing removed"), "\(none)")
        #expect(try repository.changeset("git", "setup", "--remove").status == 0)
        #expect(try repository.read(".gitattributes") == "*.png binary\r\n*.txt text\r\n*.csv text eol=crlf\r\n")
        let empty = try repository.changeset("git", "setup", "")
        #expect(empty.status == 2 && empty.stderr.contains("an empty pattern"), "\(empty)")
    }

    @Test func theMergeResultAndItsConflictsFileCannotBeOneFile() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("id,v\n1,1\n", "base.csv", in: scratch)
        try write("id,v\n1,2\n", "ours.csv", in: scratch)
        try write("id,v\n1,1\n2,2\n", "theirs.csv", in: scratch)
        try FileManager.default.createSymbolicLink(atPath: scratch.appendingPathComponent("link.csv").path, withDestinationPath: "m.csv")
        for conflicts in ["./m.csv", scratch.appendingPathComponent("m.csv").path, "link.csv"] {
            for exists in [false, true] {
                if exists { try write("keep\n", "m.csv", in: scratch) } else { try? FileManager.default.removeItem(at: scratch.appendingPathComponent("m.csv")) }
                let result = try changeset(["merge", "base.csv", "ours.csv", "theirs.csv", "--id", "id", "-o", "m.csv", "--conflicts", conflicts], in: scratch)
                #expect(result.status == 2 && result.stderr.contains("name the same file"), "\(conflicts) \(exists): \(result)")
                let kept = try? String(contentsOf: scratch.appendingPathComponent("m.csv"), encoding: .utf8)
                #expect(kept == (exists ? "keep\n" : nil), "\(conflicts) \(exists)")
            }
        }
    }

    @Test func standardOutputOntoAnInputIsRefusedAndTheInputKept() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("[{\"id\":1}]\n", "o.json", in: scratch)
        try write("[{\"id\":2}]\n", "n.json", in: scratch)
        for script in ["\"$CHANGESET\" o.json n.json --id id 1<>o.json", "\"$CHANGESET\" o.json n.json --id id >> o.json",
                       "\"$CHANGESET\" - n.json --id id < o.json 1<>o.json", "\"$CHANGESET\" apply o.json n.json 1<>o.json",
                       "\"$CHANGESET\" merge o.json o.json n.json --id id 1<>n.json"] {
            let result = try shell(script, in: scratch)
            #expect(result.status == 2 && result.stderr.contains("standard output is"), "\(script): \(result)")
            #expect(try String(contentsOf: scratch.appendingPathComponent("o.json"), encoding: .utf8) == "[{\"id\":1}]\n")
            #expect(try String(contentsOf: scratch.appendingPathComponent("n.json"), encoding: .utf8) == "[{\"id\":2}]\n")
        }
    }

    // MARK: Crashes

    @Test func aStandardErrorThatCannotBeWrittenKeepsTheExitStatus() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("[{\"id\":1}", "bad.json", in: scratch)
        try write("[{\"id\":1}]", "n.json", in: scratch)
        try write("id,v\n1,1\n", "base.csv", in: scratch)
        try write("id,v\n1,2\n", "ours.csv", in: scratch)
        try write("id,v\n1,3\n", "theirs.csv", in: scratch)
        for (script, status) in [("\"$CHANGESET\" bad.json n.json --id id 2>&-", 2), ("\"$CHANGESET\" bad.json n.json --id id 2>/dev/full", 2),
                                 ("\"$CHANGESET\" n.json n.json --id id --assert 'deleted > 0' 2>&-", 1),
                                 ("\"$CHANGESET\" 2>&-", 2)] {
            let result = try shell(script, in: scratch)
            #expect(result.status == Int32(status), "\(script): \(result)")
        }
        // A merge whose standard error reader went away still writes its result.
        let merged = try shell("\"$CHANGESET\" merge base.csv ours.csv theirs.csv --id id --prefer theirs -o m.csv 2>&1 | head -c 1 >/dev/null; exit 0", in: scratch)
        #expect(merged.status == 0, "\(merged)")
        #expect(try String(contentsOf: scratch.appendingPathComponent("m.csv"), encoding: .utf8) == "id,v\n1,3\n")
    }

    @Test func anAbsurdConflictMarkerSizeIsCapped() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("id,v\n1,1\n", "base.csv", in: scratch)
        try write("id,v\n1,2\n", "ours.csv", in: scratch)
        try write("id,v\n1,3\n", "theirs.csv", in: scratch)
        let result = try changeset(["git", "merge-driver", "--id", "id", "--", "base.csv", "ours.csv", "theirs.csv", "data.csv", "99999999999"], in: scratch)
        #expect(result.status == 1, "\(result)")
        let merged = try String(contentsOf: scratch.appendingPathComponent("ours.csv"), encoding: .utf8)
        #expect(merged.contains(String(repeating: "<", count: 1000) + " ours") && !merged.contains(String(repeating: "<", count: 1001)), "\(merged.prefix(200))")
    }

    // MARK: Memory

    @Test func aStreamOfInvalidBytesFailsAtItsFirstChunk() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("[{\"id\":1}]", "n.json", in: scratch)
        // Without the streaming reader these never end (or end out of memory); the timeout makes that a failure.
        for (script, message) in [
            ("\"$CHANGESET\" /dev/zero n.json --id id", "/dev/zero:1:1: a NUL byte (0x00)"),
            ("\"$CHANGESET\" /dev/zero n.json --id id --input-format json", "/dev/zero:1:1: unexpected byte 0x00"),
            ("head -c 200000000 /dev/zero | \"$CHANGESET\" - n.json --id id", "<stdin>:1:1: a NUL byte (0x00)"),
            ("head -c 200000000 /dev/zero | gzip -1 > bomb.csv.gz && \"$CHANGESET\" bomb.csv.gz n.json --id id", "bomb.csv.gz:1:1: a NUL byte (0x00)"),
            ("yes x | \"$CHANGESET\" - n.json --id id --input-format json", "<stdin>:1:1:"),
            ("\"$CHANGESET\" apply n.json /dev/zero", "/dev/zero: not a changeset patch"),
        ] {
            let result = try shell(script, in: scratch, timeout: 30)
            #expect(result.status == 2 && result.stderr.contains(message), "\(script): \(result)")
        }
    }

    @Test func textInOtherEncodingsIsNamedAsSuch() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("id,v\n1,1\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: scratch.appendingPathComponent("le.csv"))
        try Data([0xFE, 0xFF] + "[{\"id\":1}]".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }).write(to: scratch.appendingPathComponent("be.json"))
        let little = try changeset(["le.csv", "le.csv", "--id", "id"], in: scratch)
        #expect(little.status == 2 && little.stderr.hasPrefix("changeset: le.csv:1:1: this is UTF-16LE text"), "\(little)")
        let big = try changeset(["be.json", "be.json", "--id", "id"], in: scratch)
        #expect(big.status == 2 && big.stderr.contains("this is UTF-16BE text") && big.stderr.contains("iconv -f UTF-16BE -t UTF-8"), "\(big)")
    }

    @Test func aZstdInputMayStartWithASkippableFrame() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let frame = try Data(contentsOf: fixtures.appendingPathComponent("compressed/new.csv.zst"))
        let skippable = Data([0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 0x61, 0x62, 0x63, 0x64])
        try (skippable + frame).write(to: scratch.appendingPathComponent("new.csv.zst"))
        try (skippable + frame).write(to: scratch.appendingPathComponent("unnamed"))
        let plain = try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "id"])
        for name in ["new.csv.zst", "unnamed"] {
            let result = try changeset([fixtures.appendingPathComponent("catalog/old.csv").path, name, "--id", "id", "--input-format", "csv"], in: scratch)
            #expect(result.status == plain.status && result.stdout == plain.stdout, "\(name): \(result)")
        }
    }

    // MARK: Wrong results

    @Test func aChangeOfUnicodeNormalisationIsAChangeInEveryFormatAndForQuiet() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Strings with combining marks, each as NFC in OLD and NFD in NEW, or the same in both.
        let words = ["café", "Ångström", "naïve", "Việt", "e\u{301}\u{302}", "plain"]
        var oldRecords: [String] = [], newRecords: [String] = []
        for (index, word) in words.enumerated() {
            let nfc = word.precomposedStringWithCanonicalMapping, nfd = word.decomposedStringWithCanonicalMapping
            oldRecords.append("{\"id\":\(index),\"w\":\"\(nfc)\",\"a\":[\"\(nfc)\"]}")
            newRecords.append("{\"id\":\(index),\"w\":\"\(index % 2 == 0 ? nfd : nfc)\",\"a\":[\"\(nfc)\"]}")
        }
        try write("[" + oldRecords.joined(separator: ",") + "]", "old.json", in: scratch)
        try write("[" + newRecords.joined(separator: ",") + "]", "new.json", in: scratch)
        let changed = words.indices.filter { index in
            let word = words[index]
            return index % 2 == 0 && Array(word.precomposedStringWithCanonicalMapping.utf8) != Array(word.decomposedStringWithCanonicalMapping.utf8)
        }.count
        let quiet = try changeset(["old.json", "new.json", "--id", "id", "-q"], in: scratch)
        #expect(quiet.status == 1)
        let stat = try changeset(["old.json", "new.json", "--id", "id", "--stat"], in: scratch)
        #expect(stat.status == 1 && stat.stdout.hasPrefix("0 inserted, 0 deleted, \(changed) updated"), "\(stat)")
        let json = try changeset(["old.json", "new.json", "--id", "id", "--format", "json"], in: scratch)
        #expect(try run("jq", ["-r", ".summary.updated"], input: json.stdout) == "\(changed)\n")
        for format in ["text", "ndjson", "markdown", "html", "jsonpatch", "patch"] {
            let result = try changeset(["old.json", "new.json", "--id", "id", "--format", format], in: scratch)
            #expect(result.status == 1 && !result.stdout.isEmpty, "\(format): \(result)")
        }
        let patch = try changeset(["old.json", "new.json", "--id", "id", "--format", "patch", "-o", "p.patch"], in: scratch)
        #expect(patch.status == 1)
        let applied = try changeset(["apply", "old.json", "p.patch", "-o", "rebuilt.json"], in: scratch)
        #expect(applied.status == 0, "\(applied)")
        #expect(try changeset(["rebuilt.json", "new.json", "--id", "id", "-q"], in: scratch).status == 0)
        // Ids too: an NFC id and its NFD twin are two records, in the diff and in a merge.
        try write("id,v\n", "base.csv", in: scratch)
        try write("id,v\ncafé,1\n".precomposedStringWithCanonicalMapping, "ours.csv", in: scratch)
        try write("id,v\ncafé,1\n".decomposedStringWithCanonicalMapping, "theirs.csv", in: scratch)
        let ids = try changeset(["ours.csv", "theirs.csv", "--id", "id", "--stat"], in: scratch)
        #expect(ids.stdout.hasPrefix("1 inserted, 1 deleted, 0 updated"), "\(ids)")
        let merged = try changeset(["merge", "base.csv", "ours.csv", "theirs.csv", "--id", "id"], in: scratch)
        #expect(merged.status == 0 && merged.stdout.split(separator: "\n").count == 3, "\(merged)")
        // Section names too: records whose section changed its normalisation moved to another section,
        // and two spellings in one file are two sections.
        let nfc = "café".precomposedStringWithCanonicalMapping, nfd = "café".decomposedStringWithCanonicalMapping
        try write("id,s\n1,\(nfc)\n2,\(nfc)\n", "old-sections.csv", in: scratch)
        try write("id,s\n1,\(nfc)\n2,\(nfd)\n", "new-sections.csv", in: scratch)
        let sections = try changeset(["old-sections.csv", "new-sections.csv", "--id", "id", "--section", "s", "--format", "json"], in: scratch)
        #expect(sections.status == 1, "\(sections)")
        #expect(try run("jq", ["-c", "[.changes[] | .kind]"], input: sections.stdout) == "[\"section-inserted\",\"moved\"]\n", "\(sections)")
        let quietSections = try changeset(["old-sections.csv", "new-sections.csv", "--id", "id", "--section", "s", "-q"], in: scratch)
        #expect(quietSections.status == 1)
    }

    @Test func aFileChangedWhileTheReportReadsItAgainIsTrouble() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let count = 20_000
        let old = (0..<count).map { "{\"id\":\($0),\"v\":\"aaaa\"}" }.joined(separator: "\n") + "\n"
        let new = (0..<count).map { "{\"id\":\($0),\"v\":\"bbbb\"}" }.joined(separator: "\n") + "\n"
        try write(old, "old.ndjson", in: scratch)
        try write(new, "new.ndjson", in: scratch)
        // The report fills the pipe and waits for it to be read; meanwhile NEW is
        // rewritten in place with other values of the same size, still valid.
        let process = Process()
        process.executableURL = changesetBinary
        process.arguments = ["old.ndjson", "new.ndjson", "--id", "id"]
        process.currentDirectoryURL = scratch
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        Thread.sleep(forTimeInterval: 2)
        let handle = try FileHandle(forWritingTo: scratch.appendingPathComponent("new.ndjson"))
        try handle.write(contentsOf: Data(new.replacingOccurrences(of: "bbbb", with: "cccc").utf8))
        try handle.close()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(message)")
        #expect(message == "changeset: new.ndjson: the file changed while it was being compared; the result is void "
            + "(standard output may hold part of it; -o FILE writes all or nothing)\n")
    }

    // MARK: Smaller

    @Test func aSignalRemovesTheTemporaryOutputAndEndsTheRunWithItsStatus() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("[{\"id\":1}]", "n.json", in: scratch)
        for signal in ["INT", "TERM", "HUP"] {
            // OLD is a FIFO whose writer stays silent: the run waits with -o's temporary file open, which
            // has no name where the system allows (O_TMPFILE), else a name the handler removes.
            // (A signal ignored when the run starts stays ignored, as for nohup; `env --default-signal` makes sure
            // none is, whatever the test runner and the shell's background job ignore.)
            let script = """
                set -m; rm -f fifo; mkfifo fifo; (sleep 10 > fifo &) ; env --default-signal=INT,TERM,HUP "$CHANGESET" fifo n.json --id id -o out.json & pid=$!
                sleep 1; ls -a | grep -c changeset- ; kill -\(signal) $pid; wait $pid; echo "status $?"; ls -a | grep -c changeset-
                """
            let result = try shell(script, in: scratch, shell: "/bin/bash")
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

    @Test func dataInErrorMessagesCannotDriveTheTerminalAndIsCapped() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("id,x\n\u{1B}]0;owned\u{07},1\n\u{1B}]0;owned\u{07},2\n", "titles.csv", in: scratch)
        let duplicate = try changeset(["titles.csv", "titles.csv", "--id", "id"], in: scratch)
        #expect(duplicate.status == 2 && duplicate.stderr == "changeset: titles.csv:3:1: duplicate id \"\\u001B]0;owned\\u0007\": the record at line 2 has it too; it is the only repeated id. An --id that is unique (several fields: --id a,b) or --duplicates occurrence (the k-th copy matches the k-th) compares them; --id id,x is unique in both files\n", "\(duplicate)")
        let hugeName = String(repeating: "h", count: 5_000_000)
        let columns = (0..<100).map { "c\($0)" }.joined(separator: ",")
        try write("\(hugeName),\u{1B}[31mred,\(columns)\n1,2\n", "wide.csv", in: scratch)
        let missing = try changeset(["wide.csv", "wide.csv", "--id", "id"], in: scratch)
        #expect(missing.status == 2 && missing.stderr.utf8.count < 1000, "\(missing.stderr.prefix(300))")
        #expect(!missing.stderr.contains("\u{1B}") && missing.stderr.contains("\\u001B[31mred") && missing.stderr.contains("… and 90 more"), "\(missing.stderr.prefix(300))")
        let ignored = try changeset(["wide.csv", "wide.csv", "--id", "c1", "--ignore", "\u{1B}[2J"], in: scratch)
        #expect(ignored.status == 2 && !ignored.stderr.contains("\u{1B}") && ignored.stderr.utf8.count < 2000, "\(ignored.stderr.prefix(300))")
    }

    @Test func gitDiffSaysBinaryFilesDifferAndMarkedFilesMergeAsText() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2]).write(to: scratch.appendingPathComponent("a.csv"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 3]).write(to: scratch.appendingPathComponent("b.csv"))
        let diff = try changeset(["git-diff", "data.csv", "a.csv", "1111111", "100644", "b.csv", "2222222", "100644"], in: scratch)
        #expect(diff.status == 0 && diff.stdout.hasSuffix("Binary files a/data.csv and b/data.csv differ\n"), "\(diff)")
        // A single-column CSV still holding markers from an earlier merge: merged by git merge-file, not as records.
        try write("v\na\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n", "base.csv", in: scratch)
        try write("v\na\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\nd\n", "ours.csv", in: scratch)
        try write("v\nz\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n", "theirs.csv", in: scratch)
        let merged = try changeset(["git", "merge-driver", "--id", "v", "--", "base.csv", "ours.csv", "theirs.csv", "data.csv", "7"], in: scratch)
        #expect(merged.stderr.contains("holds conflict markers") && merged.stderr.contains("merging it as text"), "\(merged)")
        #expect(try String(contentsOf: scratch.appendingPathComponent("ours.csv"), encoding: .utf8)
            == "v\nz\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\nd\n")
    }

    @Test func fileNamesThatAreNotUTF8AreReadAndWritten() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Latin-1 names (é is the byte E9), made and checked with the shell, which passes bytes as they are.
        let script = """
            mkdir "$(printf 'dir\\351')" && printf '[{"id":1}]' > "$(printf 'old\\351.json')" && printf '[{"id":2}]' > "$(printf 'dir\\351/new.json')"
            "$CHANGESET" "$(printf 'old\\351.json')" "$(printf 'dir\\351/new.json')" --id id --stat -o "$(printf 'dir\\351/out\\351.txt')"; echo "status $?"
            cat "$(printf 'dir\\351/out\\351.txt')"
            "$CHANGESET" "$(printf 'old\\351.json')" "$(printf 'old\\351.json')" --id id -o "$(printf 'old\\351.json')"; echo "status $?"
            """
        let result = try shell(script, in: scratch)
        #expect(result.stdout == "status 1\n1 inserted, 1 deleted, 0 updated, 0 moved, 0 unchanged\nstatus 2\n", "\(result)")
        #expect(result.stderr.contains("names the input old\\U0010FFE9.json"), "\(result)")
    }

    @Test func aSignalTheParentIgnoredStaysIgnored() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("[{\"id\":1}]", "n.json", in: scratch)
        // nohup's way: SIGHUP ignored before the run starts; the run goes on and writes its result.
        let script = """
            rm -f fifo; mkfifo fifo
            env --default-signal=INT,TERM --ignore-signal=HUP "$CHANGESET" fifo n.json --id id -o out.json & pid=$!
            sleep 1; kill -HUP $pid; sleep 1; kill -0 $pid && echo alive
            printf '[{"id":1}]' > fifo; wait $pid; echo "status $?"; cat out.json
            """
        let result = try shell(script, in: scratch)
        #expect(result.stdout == "alive\nstatus 0\n0 inserted, 0 deleted, 0 updated, 0 moved, 1 unchanged\n", "\(result)")
    }

    @Test func standardOutputOntoTheConflictsFileIsRefused() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("id,v\n1,1\n", "base.csv", in: scratch)
        try write("id,v\n1,2\n", "ours.csv", in: scratch)
        try write("id,v\n1,3\n", "theirs.csv", in: scratch)
        try write("keep\n", "c.json", in: scratch)
        let result = try shell("\"$CHANGESET\" merge base.csv ours.csv theirs.csv --id id --prefer ours --conflicts c.json 1<>c.json", in: scratch)
        #expect(result.status == 2 && result.stderr.contains("the file --conflicts names"), "\(result)")
        #expect(try String(contentsOf: scratch.appendingPathComponent("c.json"), encoding: .utf8) == "keep\n")
    }

    @Test func gitDiffReadsACompressedDatasetAsADataset() throws {
        let result = try changeset(["git-diff", "data.json.gz", "compressed/old.json.gz", "1111111", "100644", "catalog/new.json", "2222222", "100644", "--id", "id"])
        #expect(result.status == 0 && !result.stdout.contains("Binary files") && result.stdout.contains("updated"), "\(result)")
    }

    @Test func anIdColumnSpelledInAnotherNormalisationIsNotFound() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data([UInt8]("cafe".utf8) + [0xCC, 0x81] + Array(",v\n1,1\n".utf8)).write(to: scratch.appendingPathComponent("a.csv"))
        let result = try changeset(["a.csv", "a.csv", "--id", "caf\u{E9}"], in: scratch)
        #expect(result.status == 2 && result.stderr.contains("column for --id"), "\(result)")
    }

    @Test func aHighSurrogateEscapeFollowedByAPlainCharacterIsRefused() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try write("{\"id\":1,\"s\":\"\\ud83d?\\ude00\"}\n", "b.ndjson", in: scratch)
        let result = try changeset(["b.ndjson", "b.ndjson", "--id", "id"], in: scratch)
        #expect(result.status == 2 && result.stderr.hasPrefix("changeset: b.ndjson:1:14: unpaired surrogate escape in string"), "\(result)")
    }

    @Test func negativeCountsAndUnusableDelimitersAreRefusedWithAReason() throws {
        let width = try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "id", "--width", "-1"])
        #expect(width.status == 2 && width.stderr.hasPrefix("changeset: --width must be 0 (no limit) or at least 8, not -1\n"), "\(width)")
        let limit = try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "id", "--format", "html", "--limit", "-5"])
        #expect(limit.status == 2 && limit.stderr.hasPrefix("changeset: --limit must be 0 or more, not -5\n"), "\(limit)")
        let quote = try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "id", "--delimiter", "\""])
        #expect(quote.status == 2 && quote.stderr.hasPrefix("changeset: --delimiter cannot be \", CSV's quote character\n"), "\(quote)")
    }
}

/// Column names that look alike but differ in bytes (é as U+00E9 and as e U+0301) are two columns.
@Suite struct LookAlikeNameTests {
    @Test func lookAlikeColumnsStayTwoColumnsInAMergeAndADiff() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("id\n1\n".utf8).write(to: scratch.appendingPathComponent("base.csv"))
        try Data([UInt8]("id,".utf8) + [0xC3, 0xA9] + Array("\n1,x\n".utf8)).write(to: scratch.appendingPathComponent("ours.csv"))
        try Data([UInt8]("id,e".utf8) + [0xCC, 0x81] + Array("\n1,\n2,y\n".utf8)).write(to: scratch.appendingPathComponent("theirs.csv"))
        let merged = try changeset(["merge", "base.csv", "ours.csv", "theirs.csv", "--id", "id"], in: scratch)
        #expect(merged.status == 0, "\(merged)")
        #expect(Array(merged.stdout.utf8) == Array("id,e".utf8) + [0xCC, 0x81, 0x2C, 0xC3, 0xA9] + Array("\n1,,x\n2,y,\n".utf8), "\(merged)")
        try Data([UInt8]("id,e".utf8) + [0xCC, 0x81] + Array("\n2,y\n".utf8)).write(to: scratch.appendingPathComponent("d1.csv"))
        try Data([UInt8]("id,".utf8) + [0xC3, 0xA9] + Array("\n2,y\n".utf8)).write(to: scratch.appendingPathComponent("d2.csv"))
        let diff = try changeset(["d1.csv", "d2.csv", "--id", "id", "--stat"], in: scratch)
        #expect(diff.status == 1 && diff.stdout.contains("schema: added"), "\(diff)")
    }
}
