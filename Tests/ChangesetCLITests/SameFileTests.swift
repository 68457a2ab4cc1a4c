import Foundation
import Testing

/// One file given as both sides (`changeset f f`, two names of one file, a
/// FIFO) is read once and compared with itself: no differences, exit 0, the
/// report of two equal files. A FIFO cannot be read twice: opening it again
/// waited for a writer that had gone, for ever.
@Suite struct SameFileTests {
    /// Runs `script` under bash with a timeout (a hang fails the test); `$CHANGESET` is the binary.
    func shell(_ script: String, in directory: URL) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["CHANGESET"] = changesetBinary.path
        environment["NO_COLOR"] = nil
        return try runProcess(URL(fileURLWithPath: "/usr/bin/timeout"), ["20", "/bin/bash", "-c", script], in: directory, environment: environment)
    }

    @Test func aFIFOGivenAsBothSidesIsReadOnceAndIsTheSame() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("id,v\n1,a\n2,b\n".utf8).write(to: scratch.appendingPathComponent("data.csv"))
        for options in ["--stat", "--format json", "--stat --memory-limit 1", ""] {
            let result = try shell("rm -f fifo; mkfifo fifo; (cat data.csv > fifo &); \"$CHANGESET\" fifo fifo --id id \(options)", in: scratch)
            let expected = try changeset(["data.csv", "data.csv", "--id", "id"] + options.split(separator: " ").map(String.init), in: scratch)
            #expect(result.status == 0 && expected.status == 0, "\(options): \(result)")
            #expect(result.stdout == expected.stdout.replacingOccurrences(of: "data.csv", with: "fifo"), "\(options): \(result)")
        }
        // Matched by content too, and its errors are still found (read once, checked once).
        let content = try shell("rm -f fifo; mkfifo fifo; (cat data.csv > fifo &); \"$CHANGESET\" fifo fifo --stat", in: scratch)
        #expect(content.status == 0 && content.stdout.hasPrefix("0 inserted, 0 deleted, 0 updated, 0 moved, 2 unchanged"), "\(content)")
        try Data("id,v\n1,a\n1,b\n".utf8).write(to: scratch.appendingPathComponent("twice.csv"))
        let repeated = try shell("rm -f fifo; mkfifo fifo; (cat twice.csv > fifo &); \"$CHANGESET\" fifo fifo --id id", in: scratch)
        #expect(repeated.status == 2 && repeated.stderr.contains("duplicate id \"1\"") && repeated.stdout.isEmpty, "\(repeated)")
    }

    @Test func twoNamesOfOneFileAreTheSameFile() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("[{\"id\": 1, \"v\": 1}, {\"id\": 2, \"v\": 2}]".utf8).write(to: scratch.appendingPathComponent("data.json"))
        try FileManager.default.createSymbolicLink(atPath: scratch.appendingPathComponent("link.json").path, withDestinationPath: "data.json")
        try FileManager.default.linkItem(at: scratch.appendingPathComponent("data.json"), to: scratch.appendingPathComponent("hard.json"))
        try FileManager.default.copyItem(at: scratch.appendingPathComponent("data.json"), to: scratch.appendingPathComponent("copy.json"))
        for format in ["text", "json", "markdown"] {
            let copy = try changeset(["data.json", "copy.json", "--id", "id", "--format", format], in: scratch)
            for other in ["data.json", "./data.json", "link.json", "hard.json"] {
                for limit in [[], ["--memory-limit", "1"]] {
                    let result = try changeset(["data.json", other, "--id", "id", "--format", format] + limit, in: scratch)
                    #expect(result.status == 0 && result.stderr.isEmpty, "\(other) \(limit): \(result)")
                    #expect(result.stdout == copy.stdout.replacingOccurrences(of: "copy.json", with: other), "\(other) \(limit): \(result)")
                }
            }
        }
    }
}
