/// A place in an input file. Lines and columns are 1-based; a column counts
/// characters (Unicode code points), not bytes, and a tab is one column.
/// Lines end at LF, CRLF or a lone CR.
public struct InputLocation: Equatable, Sendable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column on the line, from 1, in characters.
    public var column: Int

    /// The place at `line` and `column` (both 1-based).
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }
}

/// Bad input: prints as `SOURCE:LINE:COLUMN: message`, or `SOURCE: message`
/// when the trouble has no place (an unreadable file). Every reader, for
/// every ``DatasetSource``, reports bad data this way.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input as the caller named it: its path (`<stdin>` for standard
    /// input), or the name given to data in memory.
    public var source: String
    /// Where in the input the trouble is, when it is at a place.
    public var location: InputLocation?
    /// What is wrong, in the library's words (a setting named as the library spells it).
    public var message: String {
        // A message written over no longer holds the parts it was made of.
        didSet { messageParts = nil }
    }
    /// An `--id` that two records of the input share: a composite key may be
    /// found for it (`Comparison.run` says which).
    package var repeatsID = false
    /// The message's parts, when it names a setting (see `LibrarySetting`),
    /// so the command can name its flag instead.
    package var messageParts: [MessagePart]?

    /// An error about `source` at `location` saying `message`.
    public init(source: String, location: InputLocation?, message: String) {
        self.source = source
        self.location = location
        self.message = message
    }

    /// An error whose message names settings (`parts`): `message` names them as the library spells them.
    package init(source: String, location: InputLocation?, parts: [MessagePart]) {
        self.init(source: source, location: location, message: parts.rendered(naming: \.description))
        messageParts = parts
    }

    /// `parts` added to the end of the message (the settings they name kept
    /// as parts, for the command to name its flags).
    package mutating func append(_ parts: [MessagePart]) {
        let whole = (messageParts ?? [.text(message)]) + parts
        message = whole.rendered(naming: \.description)
        messageParts = whole
    }

    /// The same input, place and message (in the library's words).
    public static func == (a: InputError, b: InputError) -> Bool {
        a.source == b.source && a.location == b.location && a.message == b.message && a.repeatsID == b.repeatsID
    }

    /// `SOURCE:LINE:COLUMN: message`, or `SOURCE: message` without a place.
    public var description: String { description(naming: \.description) }

    /// The description with each setting the message names named by `name` (the command passes its flags).
    package func description(naming name: (LibrarySetting) -> String, asArguments: Bool = false) -> String {
        let text = messageParts?.rendered(naming: name, asArguments: asArguments) ?? message
        if let location { return "\(source):\(location): \(text)" }
        return "\(source): \(text)"
    }
}

extension InputError: SettingNamingError {}
