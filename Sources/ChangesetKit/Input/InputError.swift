/// A place in an input file. Lines and columns are 1-based; a column counts
/// characters (Unicode code points), not bytes, and a tab is one column.
/// Lines end at LF, CRLF or a lone CR.
public struct InputLocation: Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public var description: String { "\(line):\(column)" }
}

/// Bad input: prints as `FILE:LINE:COLUMN: message`, or `FILE: message` when
/// the trouble has no place (an unreadable file).
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file as the user named it; `<stdin>` for standard input.
    public var source: String
    public var location: InputLocation?
    public var message: String
    /// An `--id` that two records of the input share: a composite key may be
    /// found for it (`Comparison.run` says which).
    package var repeatsID = false

    public init(source: String, location: InputLocation?, message: String) {
        self.source = source
        self.location = location
        self.message = message
    }

    public var description: String {
        if let location { return "\(source):\(location): \(message)" }
        return "\(source): \(message)"
    }
}
