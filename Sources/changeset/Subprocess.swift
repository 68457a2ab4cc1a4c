import ChangesetKit
import Foundation

/// Running a program found on PATH and collecting its standard output.
enum Subprocess {
    /// The output and exit status, or nil when the program cannot start.
    /// Its standard error goes to ours when `showingErrors`, else nowhere.
    static func run(_ program: String, _ arguments: [String], showingErrors: Bool) -> (output: String, status: Int32)? {
        runForBytes(program, arguments, showingErrors: showingErrors).map { (String(decoding: $0.output, as: UTF8.self), $0.status) }
    }

    /// `run`, the output as the bytes the program wrote.
    static func runForBytes(_ program: String, _ arguments: [String], showingErrors: Bool) -> (output: [UInt8], status: Int32)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = showingErrors ? FileHandle.standardError : FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ([UInt8](data), process.terminationStatus)
    }
}
