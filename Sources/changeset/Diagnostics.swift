import ChangesetKit

/// The command's messages on standard error.
enum Diagnostics {
    /// The longest message written: a message quotes data (ids, names, file
    /// names), each already cut where it is made; this is the last guard.
    static let messageLimit = 4000

    /// `changeset: message` on standard error, one line: characters a
    /// terminal would act on are escaped (an id holding ESC sequences cannot
    /// set the window title), and an overlong message is cut.
    static func report(_ message: String) {
        var line = TerminalText.escaped(message)
        if line.utf8.count > messageLimit {
            line = String(line.prefix(messageLimit)) + "…"
        }
        writeStandardError("changeset: " + line + "\n")
    }

    /// A message laid out on several lines by swift-argument-parser (a
    /// list of the values an option takes): each line escaped as `report`
    /// escapes one, the line breaks kept.
    static func reportLines(_ message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
        var text = lines.joined(separator: "\n")
        if text.utf8.count > messageLimit {
            text = String(text.prefix(messageLimit)) + "…"
        }
        writeStandardError("changeset: " + text + "\n")
    }

    /// Writes `text` to standard error. One that cannot be written loses
    /// the message; the exit status still says what happened.
    static func writeStandardError(_ text: String) {
        let standardError = OutputSink.standardError()
        standardError.write(text)
        standardError.flush()
    }
}
