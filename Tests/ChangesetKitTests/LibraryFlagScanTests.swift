import Foundation
import Testing

/// ChangesetKit's messages name the library's settings; only the command
/// names flags. This scan fails on a string literal in ChangesetKit's
/// sources holding `--` and a letter (a flag), outside the allow-list,
/// which says why each remaining one is there.
@Suite struct LibraryFlagScanTests {
    /// (file, a fragment of the literal, why it stays).
    static let allowed: [(file: String, fragment: String, reason: String)] = [
        ("PatchScript.swift", "changeset OLD NEW --format patch", "the command's side of a MessagePart.alternative: only the command shows it"),
        ("ChangeStreamReader.swift", "changeset OLD NEW --format ndjson", "the command's side of a MessagePart.alternative: only the command shows it"),
        ("ChangeStreamReport+Write.swift", "changeset OLD NEW --format", "the command's side of a MessagePart.alternative: only the command shows it"),
        ("ChangeStreamReport+Write.swift", "changeset OLD NEW --show FIELD", "the command's side of a MessagePart.alternative: only the command shows it"),
        ("Decompression.swift", "zstd --long", "zstd's own flags, for the command that decompresses such a frame"),
        ("Decompression.swift", "zstd -d --long=31", "zstd's own flags, for the command that decompresses such a frame"),
        // The reports below are documents the formatters write; golden files under
        // Fixtures/ fix their text, which speaks to the command's user.
        ("Report.swift", "(--kinds)", "a report's note on the kinds it shows (golden files)"),
        ("Summary.swift", "--loose-types", "a report's note on type-only updates (golden files)"),
        ("Summary.swift", "--numbers-by-value", "a report's note on number-only updates (golden files)"),
        ("RenameSuggestion.swift", "--rename", "a report's rename hint (golden files)"),
        ("Comparison+KeyHint.swift", "without --id", "a report's key hint (golden files)"),
        ("HTMLFormatter.swift", "--ignore/--only", "the html report (golden files)"),
        ("HTMLFormatter.swift", "--limit", "the html report (golden files)"),
        ("TextFormatter.swift", "(--limit)", "the text report (golden files)"),
        ("MarkdownFormatter.swift", "--rename ", "the markdown report (golden files)"),
        ("MarkdownFormatter.swift", "--ignore", "the markdown report (golden files)"),
        ("MarkdownFormatter.swift", "--loose-types", "the markdown report's code marks around the summary's note"),
        ("MarkdownFormatter.swift", "--numbers-by-value", "the markdown report's code marks around the summary's note"),
        ("MarkdownFormatter.swift", "--format json", "the markdown report (golden files)"),
        ("MergeConflictFormatter.swift", "--prefer", "the conflict list a merge writes (end-to-end tests)"),
    ]

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ChangesetKit")
    }

    /// The flags in `line`'s string literals (none on a comment line).
    static func flagLiterals(in line: String) -> [String] {
        let trimmed = line.drop { $0 == " " }
        guard !trimmed.hasPrefix("//") else { return [] }
        let literal = /"((?:[^"\\]|\\.)*)"/
        return line.matches(of: literal).map { String($0.output.1) }.filter { $0.contains(/--[a-zA-Z]/) }
    }

    @Test func theScanFindsFlagsInLiteralsAndNotInComments() {
        #expect(Self.flagLiterals(in: #"    throw OptionError("invalid --rename \"\(text)\"")"#) == [#"invalid --rename \"\(text)\""#])
        #expect(Self.flagLiterals(in: #"    /// "--id" in a doc comment"#).isEmpty)
        #expect(Self.flagLiterals(in: #"    let line = "a -- b" + "--""#).isEmpty)
    }

    @Test func changesetKitsLiteralsNameNoFlagOutsideTheAllowList() throws {
        var found: [String] = []
        let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 50, "the scan found \(files.count) files under \(Self.sources.path)")
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                for literal in Self.flagLiterals(in: line)
                where !Self.allowed.contains(where: { $0.file == file.lastPathComponent && literal.contains($0.fragment) }) {
                    found.append("\(file.lastPathComponent):\(index + 1): \(literal)")
                }
            }
        }
        #expect(found.isEmpty, "flags in ChangesetKit's messages:\n\(found.joined(separator: "\n"))")
    }
}
