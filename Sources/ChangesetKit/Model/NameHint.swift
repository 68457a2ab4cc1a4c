/// What to say when a field named in an option is not there: the closest
/// names the records do have, for the readers (`--id`, `--section`) and the
/// option checks (`--ignore`, `--only`, `--rename`) alike.
package enum NameHint {
    /// "did you mean ...?" with the closest names, or the names there are.
    /// `kind`: what the names are, for the list ("top-level fields", "columns").
    /// `ordered`: the names are listed as given (a CSV header's order), not sorted.
    /// `syntax`: how the option reads a name, so a name suggested is written
    /// as that option takes it and quoted for a shell: pasted, it works.
    package static func hint(
        _ path: FieldPath, _ names: [String], kind: String = "top-level fields", ordered: Bool = false, syntax: FieldPath.Syntax = .plain
    ) -> String {
        if syntax == .pattern, path.components.contains(where: GlobPattern.isPattern), names.contains(path.flatName) {
            return "a name with *, ? or [ is a pattern; the field itself is written \(ShellWord.quotedInText(path.argument(.pattern)))"
        }
        let wanted = path.flatName.lowercased()
        // Names far longer than the one wanted cannot be close (and a huge one would cost its length squared).
        let longest = 4 * max(wanted.utf8.count, 16)
        let near: [String] = names.filter { $0.utf8.count <= longest }
        // Close, and not by dropping most of either name ("cat" is not "a").
        let scored: [(String, Int)] = near.map { ($0, editDistance(wanted, $0.lowercased())) }
            .filter { $0.1 <= max(2, wanted.count / 3) && $0.1 < min(wanted.count, $0.0.count) }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        if !scored.isEmpty {
            // Not cut as a quoted datum is: a name longer than 4 times the one typed is not offered.
            return "did you mean " + scored.prefix(3).map { ShellWord.quotedInText(FieldPath([$0.0]).argument(syntax)) }.joined(separator: " or ") + "?"
        }
        // Listed as the option takes them (a list is read, not pasted whole: no shell quotes).
        return names.isEmpty ? "the records have no fields" : "the \(kind) are: " + TerminalText.list((ordered ? names : names.sorted()).map { FieldPath([$0]).argument(syntax) })
    }

    /// Levenshtein distance over characters.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// For a CSV header read as one column that holds another separator: the
    /// setting that would split it (the delimiter `;`, the input format tsv).
    package static func separatorHint(header names: [String], delimiter: UInt8) -> [MessagePart]? {
        guard names.count == 1, let header = names.first else { return nil }
        func delimiterAdvice(_ separator: Character) -> MessagePart {
            .assignment(.delimiter, library: "UInt8(ascii: \"\(separator)\")", argument: "'\(separator)'")
        }
        let candidates: [(separator: Character, said: String, advice: MessagePart)] = [
            ("\t", "tabs", .assignment(.inputFormat, library: ".tsv", argument: "tsv")),
            (";", "';'", delimiterAdvice(";")), ("|", "'|'", delimiterAdvice("|")), (",", "','", delimiterAdvice(",")),
        ]
        for candidate in candidates where header.contains(candidate.separator) && candidate.separator.asciiValue != delimiter {
            return [.text("the header is one column, \"\(TerminalText.datum(header))\": if the fields are separated by \(candidate.said), give "),
                    candidate.advice]
        }
        return nil
    }
}
