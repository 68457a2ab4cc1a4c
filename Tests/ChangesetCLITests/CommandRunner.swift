import Foundation
import Testing

/// The repository's Fixtures/ folder.
let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// The built `changeset`, next to the test bundle in the build folder.
let changesetBinary: URL = {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !directory.path.isEmpty && directory.path != "/" {
        let candidate = directory.appendingPathComponent("changeset")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: ".build/debug/changeset")
}()

/// One run of the command, as a user runs it.
struct CommandResult: CustomStringConvertible {
    var arguments: [String]
    var status: Int32
    var stdout: String
    var stderr: String

    /// Printed on failure: the command, its status and both streams.
    var description: String {
        "$ changeset \(arguments.joined(separator: " "))\nstatus \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}

/// Runs `changeset` with `arguments` in `directory`, with `input` on standard input.
func changeset(
    _ arguments: [String], in directory: URL = fixtures, input: Data? = nil, environment: [String: String] = [:]
) throws -> CommandResult {
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = nil
    for (key, value) in environment { env[key] = value }
    return try runProcess(changesetBinary, arguments, in: directory, input: input, environment: env)
}

/// Runs a program and collects its status and both output streams.
func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL = fixtures, input: Data? = nil,
    environment: [String: String]? = nil
) throws -> CommandResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    if let environment { process.environment = environment }
    let stdout = Pipe()
    let stderr = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    try process.run()
    // Read both pipes while the process runs, so a large output cannot block it.
    final class Box: @unchecked Sendable { var data = Data() }
    let outBox = Box()
    let errBox = Box()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { outBox.data = stdout.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { errBox.data = stderr.fileHandleForReading.readDataToEndOfFile() }
    if let input { stdin.fileHandleForWriting.write(input) }
    try stdin.fileHandleForWriting.close()
    process.waitUntilExit()
    group.wait()
    return CommandResult(
        arguments: arguments, status: process.terminationStatus,
        stdout: String(decoding: outBox.data, as: UTF8.self), stderr: String(decoding: errBox.data, as: UTF8.self))
}

/// Runs `changeset` through `/bin/sh -c` (for redirections such as `>&-` or
/// `> /dev/full`), in Fixtures/; returns the exit status and standard error.
func changesetInShell(_ arguments: String, redirect: String) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "'\(changesetBinary.path)' \(arguments) \(redirect)"]
    process.currentDirectoryURL = fixtures
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, stderr)
}

/// A scratch directory for one test, removed afterwards by the caller.
func scratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Compares `actual` with the golden file `Fixtures/golden/name`. With
/// CHANGESET_RECORD_GOLDEN=1 the file is rewritten and the test fails on
/// purpose, so a recording run is never mistaken for a passing one.
func expectGolden(_ actual: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let url = fixtures.appendingPathComponent("golden").appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["CHANGESET_RECORD_GOLDEN"] == "1" {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("recorded \(name); run again without CHANGESET_RECORD_GOLDEN", sourceLocation: sourceLocation)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, "differs from golden file \(name)", sourceLocation: sourceLocation)
}

/// Files with the given names and contents in a new scratch folder; returns their paths.
func scratchFiles(_ contents: [(String, String)]) throws -> [String] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-scratch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try contents.map { name, text in
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}

/// A scratch directory holding files of the given names and texts, removed afterwards by the caller.
func scratchDirectory(holding files: [String: String]) throws -> URL {
    let directory = try scratchDirectory()
    for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
    return directory
}

/// Writes `text` as the file `name` in `directory`.
func writeFile(_ text: String, _ name: String, in directory: URL) throws {
    try Data(text.utf8).write(to: directory.appendingPathComponent(name))
}

/// Runs a shell script in `directory` under a timeout; `$CHANGESET` is the binary.
func runShell(_ script: String, in directory: URL, timeout: Int = 60, shell: String = "/bin/sh") throws -> CommandResult {
    var environment = ProcessInfo.processInfo.environment
    environment["CHANGESET"] = changesetBinary.path
    environment["NO_COLOR"] = nil
    return try runProcess(URL(fileURLWithPath: "/usr/bin/timeout"), ["\(timeout)", shell, "-c", script],
                          in: directory, environment: environment)
}
