import Foundation
import Testing

/// Where the result goes: `-o` and standard output never overwrite an input
/// (however the file is named), `-o` writes through links, to /dev/stdout, under
/// `-q`, and to names that are not UTF-8.
@Suite struct OutputFileTests {
    @Test func outputNamingAnInputIsRefusedAndTheInputIsUntouched() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for name in ["old.csv", "new.csv"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("catalog/\(name)"), to: scratch.appendingPathComponent(name))
        }
        let before = try Data(contentsOf: scratch.appendingPathComponent("old.csv"))
        // The same file however spelled: by name, through ./ and .., or a symbolic link.
        try FileManager.default.createSymbolicLink(atPath: scratch.appendingPathComponent("link.csv").path, withDestinationPath: "old.csv")
        for spelling in ["old.csv", "./old.csv", "../\(scratch.lastPathComponent)/old.csv", "link.csv"] {
            let result = try changeset(["old.csv", "new.csv", "--id", "id", "-o", spelling], in: scratch)
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderr == "changeset: -o \(spelling) names the input old.csv; refusing to overwrite it (nothing was written)\n", "\(result)")
            #expect(try Data(contentsOf: scratch.appendingPathComponent("old.csv")) == before)
        }
        let onNew = try changeset(["old.csv", "new.csv", "--id", "id", "-o", "new.csv", "--format", "json"], in: scratch)
        #expect(onNew.status == 2 && onNew.stderr.contains("names the input new.csv"), "\(onNew)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
        #expect(leftovers == ["link.csv", "new.csv", "old.csv"])
    }

    @Test func quietStillWritesTheOutputFile() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let report = scratch.appendingPathComponent("r.json").path
        let result = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "-q", "-o", report, "--format", "json"])
        #expect(result.status == 1 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        let written = try String(contentsOfFile: report, encoding: .utf8)
        let loud = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--format", "json"])
        #expect(written == loud.stdout)
    }

    /// Found while testing the merge: `-o /dev/stdout` wrote a temporary file
    /// in /dev and renamed it over the /dev/stdout link (as root), so the
    /// output went to a new regular file and standard output got nothing.
    @Test func outputToDevStdoutWritesToStandardOutputAndLeavesTheLinkAlone() throws {
        let result = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--stat", "-o", "/dev/stdout"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix("1 inserted"), "\(result)")
        let kind = try FileManager.default.attributesOfItem(atPath: "/dev/stdout")[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink)
    }

    /// `-o` naming a symbolic link replaces the file it points to, not the link.
    @Test func outputThroughASymbolicLinkKeepsTheLink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let target = directory.appendingPathComponent("report.txt")
        let link = directory.appendingPathComponent("latest.txt")
        try Data("old\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let result = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--stat", "-o", link.path])
        #expect(result.status == 1, "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("1 inserted"))
    }

    @Test func outputNeverOverwritesStandardInputsFileOrAnApplyInput() throws {
        let directory = try scratchDirectory(holding: ["keep.json": #"[{"id":1}]"#, "b.json": #"[{"id":2}]"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let keep = directory.appendingPathComponent("keep.json")
        let shell = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "'\(changesetBinary.path)' - b.json --id id -o keep.json < keep.json"], in: directory)
        #expect(shell.status == 2 && shell.stderr == "changeset: -o keep.json names standard input's file; refusing to overwrite it (nothing was written)\n", "\(shell)")
        #expect(try String(contentsOf: keep, encoding: .utf8) == #"[{"id":1}]"#)
        let made = try changeset(["keep.json", "b.json", "--id", "id", "--format", "patch", "-o", "p.patch"], in: directory)
        #expect(made.status == 1 && made.stdout.isEmpty && made.stderr.isEmpty, "\(made)")
        let patch = try String(contentsOf: directory.appendingPathComponent("p.patch"), encoding: .utf8)
        for target in ["p.patch", "keep.json"] {
            let apply = try changeset(["apply", "keep.json", "p.patch", "-o", target], in: directory)
            #expect(apply.status == 2 && apply.stdout.isEmpty
                    && apply.stderr == "changeset: -o \(target) names the input \(target); refusing to overwrite it (nothing was written)\n", "\(apply)")
        }
        #expect(try String(contentsOf: directory.appendingPathComponent("p.patch"), encoding: .utf8) == patch)
    }

    @Test func standardOutputOntoAnInputIsRefusedAndTheInputKept() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try writeFile("[{\"id\":1}]\n", "o.json", in: scratch)
        try writeFile("[{\"id\":2}]\n", "n.json", in: scratch)
        for (script, file) in [("\"$CHANGESET\" o.json n.json --id id 1<>o.json", "the input o.json"),
                               ("\"$CHANGESET\" o.json n.json --id id >> o.json", "the input o.json"),
                               ("\"$CHANGESET\" - n.json --id id < o.json 1<>o.json", "standard input's file"),
                               ("\"$CHANGESET\" apply o.json n.json 1<>o.json", "the input o.json"),
                               ("\"$CHANGESET\" merge o.json o.json n.json --id id 1<>n.json", "the input n.json")] {
            let result = try runShell(script, in: scratch)
            #expect(result.status == 2 && result.stderr == "changeset: standard output is \(file); refusing to write over it (nothing was written)\n",
                    "\(script): \(result)")
            #expect(try String(contentsOf: scratch.appendingPathComponent("o.json"), encoding: .utf8) == "[{\"id\":1}]\n")
            #expect(try String(contentsOf: scratch.appendingPathComponent("n.json"), encoding: .utf8) == "[{\"id\":2}]\n")
        }
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
        let result = try runShell(script, in: scratch)
        #expect(result.stdout == "status 1\n1 inserted, 1 deleted, 0 updated, 0 moved, 0 unchanged\nstatus 2\n", "\(result)")
        #expect(result.stderr.contains("names the input old\\U0010FFE9.json"), "\(result)")
    }
}
