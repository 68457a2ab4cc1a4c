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
        writeMessage(TerminalText.escaped(message))
    }

    /// A message laid out on several lines by swift-argument-parser (a
    /// list of the values an option takes): each line escaped as `report`
    /// escapes one, the line breaks kept.
    static func reportLines(_ message: String) {
        writeMessage(message.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
            .joined(separator: "\n"))
    }

    /// `changeset: text`, cut past `messageLimit`, on standard error.
    private static func writeMessage(_ text: String) {
        let cut = text.utf8.count > messageLimit ? String(text.prefix(messageLimit)) + "…" : text
        writeStandardError("changeset: " + cut + "\n")
    }

    /// Writes `text` to standard error. One that cannot be written loses
    /// the message; the exit status still says what happened.
    static func writeStandardError(_ text: String) {
        let standardError = OutputSink.standardError()
        standardError.write(text)
        standardError.flush()
    }
}
