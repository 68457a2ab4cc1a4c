import ArgumentParser
import ChangesetKit

/// The library's output guard and writers as the command runs them: a
/// refusal or a failed write is reported on standard error, in the
/// options' words, and ends the run with status 2.
enum OutputTargets {
    /// Runs `checks`; a refusal names the files by the options that gave
    /// them (`options`: each option and its path; `-o` when none matches).
    static func check(naming options: [(option: String, path: String)] = [], _ checks: () throws(OverwriteGuard.Refusal) -> Void) throws {
        do {
            try checks()
        } catch {
            func option(_ path: String, last: Bool = false) -> String {
                (last ? options.last { $0.path == path } : options.first { $0.path == path })?.option ?? "-o"
            }
            let message = switch error {
            case .outputIsInput(let output, let input):
                "\(option(output)) \(output) names \(OverwriteGuard.Refusal.describe(input: input)); refusing to overwrite it (nothing was written)"
            case .standardOutputIsInput:
                error.description
            case .standardOutputIsResult(let path):
                "standard output is \(path), the file \(option(path)) names; give two files (nothing was written)"
            case .sameFile(let first, let second):
                "\(option(first)) \(first) and \(option(second, last: true)) \(second) name the same file; give two files (nothing was written)"
            }
            Diagnostics.report(message)
            throw ExitCode(ExitStatus.trouble)
        }
    }

    /// `OutputSink.deliverCompressing`, a failure reported (exit status 2).
    static func deliver(to path: String?, _ body: (inout ResultStream) throws -> Void) throws {
        try reportingFailure { try OutputSink.deliverCompressing(to: path, body) }
    }

    /// `OutputSink.deliver`, uncompressed, a failure reported (exit status 2).
    static func deliverPlain(to path: String, _ body: (OutputSink) throws -> Void) throws {
        try reportingFailure { try OutputSink.deliver(to: path, body) }
    }

    private static func reportingFailure(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let status as ExitCode {
            throw status
        } catch let refusal as OutputSettingsError {
            Diagnostics.report(refusal.commandLineWording)
            throw ExitCode(ExitStatus.trouble)
        } catch {
            Diagnostics.report(LibraryErrorWording.text(of: error))
            throw ExitCode(ExitStatus.trouble)
        }
    }
}
