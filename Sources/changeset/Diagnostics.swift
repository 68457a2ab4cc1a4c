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

    /// Writes `text` to standard error. One that cannot be written loses
    /// the message; the exit status still says what happened.
    static func writeStandardError(_ text: String) {
        let standardError = OutputSink.standardError()
        standardError.write(text)
        standardError.flush()
    }
}
