import Foundation
import Testing

/// What a user can get wrong must never cost data or give a silent wrong answer.
@Suite struct FootgunTests {
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

    @Test func standardInputForBothSidesIsAUsageError() throws {
        let result = try changeset(["-", "-", "--id", "id"], input: Data("[]".utf8))
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("changeset: OLD and NEW cannot both be standard input (-)\n"), "\(result)")
    }

    @Test func noArgumentsPrintsTheUsage() throws {
        let result = try changeset([])
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("USAGE: changeset [diff] <old> <new> [<options>]"), "\(result)")
        #expect(result.stderr.contains("--id <field>"), "\(result)")
    }

    @Test func helpAndVersion() throws {
        let help = try changeset(["help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: changeset [diff] <old> <new>"), "\(help)")
        let applyHelp = try changeset(["help", "apply"])
        #expect(applyHelp.status == 0 && applyHelp.stdout.contains("USAGE: changeset apply <base> <patch>"), "\(applyHelp)")
        for arguments in [["--version"], ["diff", "--version"], ["apply", "--version"]] {
            let version = try changeset(arguments)
            #expect(version.status == 0 && version.stdout == "changeset 0.1.0\n", "\(version)")
        }
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
}
