/// How an input file is written around its records, as its reader saw it
/// in its one pass: the line breaks, a UTF-8 byte order mark, whether the
/// last line ends with a line break, and (CSV, TSV) the header's column
/// order. None of it is a record change (a commit that only turns CRLF into
/// LF changes no record), so a report shows it apart and the exit status
/// never counts it (see `FileLayoutChanges`).
public struct FileLayout: Equatable, Sendable {
    /// The line breaks, counted by kind.
    public var lineEndings: LineEndings
    /// Whether the file starts with a UTF-8 byte order mark (EF BB BF).
    public var byteOrderMark: Bool
    /// Whether the file's last byte is a line break (LF or CR); false for an empty file.
    public var finalNewline: Bool
    /// CSV and TSV: the header's column names, in the file's order; nil for JSON.
    public var columns: [String]?

    /// A layout as given (tests, and reports built by hand).
    public init(lineEndings: LineEndings = LineEndings(), byteOrderMark: Bool = false, finalNewline: Bool = false, columns: [String]? = nil) {
        self.lineEndings = lineEndings
        self.byteOrderMark = byteOrderMark
        self.finalNewline = finalNewline
        self.columns = columns
    }
}

/// A file's line breaks by kind: LF, CRLF and a CR alone (old Mac files).
/// A line break inside a quoted CSV field counts too: it is the file's.
public struct LineEndings: Equatable, Sendable {
    /// Line feeds not after a carriage return.
    public var lf: Int
    /// Carriage returns followed by a line feed.
    public var crlf: Int
    /// Carriage returns not followed by a line feed.
    public var cr: Int

    /// Counts as given.
    public init(lf: Int = 0, crlf: Int = 0, cr: Int = 0) {
        self.lf = lf
        self.crlf = crlf
        self.cr = cr
    }

    /// The line break style the counts make.
    public enum Style: String, Sendable {
        /// No line break at all (a JSON document on one line without a final newline).
        case none
        /// Every line break of one kind: LF (Unix), CRLF (Windows) or CR alone (classic Mac OS).
        case lf, crlf, cr
        /// More than one kind: `LineEndings`' counts say how many of each.
        case mixed
    }

    /// The style these counts make: one kind, none, or mixed.
    public var style: Style {
        switch (lf > 0, crlf > 0, cr > 0) {
        case (false, false, false): .none
        case (true, false, false): .lf
        case (false, true, false): .crlf
        case (false, false, true): .cr
        default: .mixed
        }
    }

    /// `LF`, `CRLF`, `CR`, `none`, or `mixed (3 CRLF, 2 LF)`: the kinds
    /// present, most first.
    package var description: String {
        switch style {
        case .none: return "none"
        case .lf, .crlf, .cr: return style.rawValue.uppercased()
        case .mixed:
            // Most first; a tie in this order.
            let kinds = [("CRLF", crlf), ("LF", lf), ("CR", cr)].enumerated().filter { $0.element.1 > 0 }
                .sorted { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) }.map(\.element)
            return "mixed (" + kinds.map { "\($0.1) \($0.0)" }.joined(separator: ", ") + ")"
        }
    }

    /// The counts of two stretches of one file, one after the other.
    package static func + (lhs: LineEndings, rhs: LineEndings) -> LineEndings {
        LineEndings(lf: lhs.lf + rhs.lf, crlf: lhs.crlf + rhs.crlf, cr: lhs.cr + rhs.cr)
    }
}
