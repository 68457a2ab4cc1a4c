/// A gitattributes-style pattern for a file's path, as the rules file's
/// keys are written: `*`, `?` and `[...]` match within one path segment,
/// a segment `**` matches any number of segments (none too, but at the end one or more: `dir/**` is what `dir` holds), a pattern
/// with no `/` matches the file's name at any depth, and one with a `/`
/// matches the whole path from the rules file's folder (a leading `/`
/// only anchors it). Written here rather than with fnmatch(3): FNM_PATHNAME
/// has no `**`, and each segment reuses the field-name matcher the
/// `--ignore` globs use, so both kinds of pattern read alike.
package struct PathGlob: Sendable {
    /// The pattern as written.
    package let text: String
    private let segments: [String]
    private let matchesNameOnly: Bool

    /// The pattern `text`; nil when it cannot name a file (empty, or ending in `/`).
    package init?(_ text: String) {
        guard !text.isEmpty, !text.hasSuffix("/") else { return nil }
        self.text = text
        matchesNameOnly = !text.contains("/")
        segments = (text.hasPrefix("/") ? String(text.dropFirst()) : text)
            .split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !segments.isEmpty else { return nil }
    }

    /// Whether `path` (`/`-separated, relative to the rules file's folder) matches.
    package func matches(_ path: String) -> Bool {
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let name = components.last else { return false }
        if matchesNameOnly { return Self.segment(segments[0], matches: name) }
        return Self.match(segments[...], components[...])
    }

    private static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            // A trailing `**` is everything inside the folder, not the folder itself (as gitattributes reads `dir/**`).
            if pattern.count == 1 { return !path.isEmpty }
            // Zero segments, or one more and try again.
            var rest = path
            while true {
                if match(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let component = path.first, segment(first, matches: component) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    private static func segment(_ pattern: String, matches name: String) -> Bool {
        GlobPattern.isPattern(pattern) ? GlobPattern(pattern).matches(name) : pattern == name
    }
}
