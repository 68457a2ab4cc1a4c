/// Reading a patch from an input (a file, standard input, a pipe).
extension PatchScript {
    /// Reads and parses the patch in `bytes`. It is checked as it arrives
    /// (no NUL byte; before the header line only blank and comment lines), so
    /// a stream that is not a patch (`/dev/zero`, a binary or data file) is
    /// refused at its first chunk instead of being read whole; a patch itself
    /// is held whole to be parsed.
    package static func read(_ bytes: InputBytes, source: String) throws -> PatchScript {
        var whole: [UInt8] = []
        var lead = PatchLead()
        try bytes.forEachChunk { chunk in
            if chunk.firstIndex(of: 0) != nil {
                throw InputError(source: source, location: nil, message: "not a changeset patch: it holds a NUL byte")
            }
            whole.append(chunk)
            if !lead.sawHeader, let line = lead.check(whole) {
                // The parser says what is wrong, as it would of the whole file.
                _ = try parse(whole, source: source)
                throw InputError(source: source, location: InputLocation(line: line, column: 1),
                                 parts: [.text("not a changeset patch: a patch starts with a \"changeset-patch\" line (made by "),
                                         .assignment(.format, library: ".patch", argument: "patch"), .text(")")])
            }
        }
        return try parse(whole, source: source)
    }
}

/// The lines before a patch's header: blank or comments, then `changeset-patch`.
private struct PatchLead {
    static let header = Array("changeset-patch".utf8)
    private(set) var sawHeader = false
    private var lineStart = 0
    private var line = 1

    /// Checks the lines of `bytes` from where the last call stopped; the
    /// line number of one that cannot come before the header, if any.
    mutating func check(_ bytes: [UInt8]) -> Int? {
        while !sawHeader {
            let end = bytes[lineStart...].firstIndex(of: 0x0A)
            var text = bytes[lineStart..<(end ?? bytes.count)]
            if text.first == 0xEF && text.starts(with: [0xEF, 0xBB, 0xBF]) && line == 1 { text = text.dropFirst(3) }
            let trimmed = text.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            if trimmed.first == UInt8(ascii: "#") {
                // A comment: fine, however long.
            } else if trimmed.starts(with: Self.header) {
                sawHeader = true
                return nil
            } else if !trimmed.isEmpty && !Self.header.starts(with: trimmed) || (end != nil && !trimmed.isEmpty) {
                return line
            }
            guard let end else { return nil }
            lineStart = end + 1
            line += 1
        }
        return nil
    }
}
