import Foundation
import Testing

/// Every public declaration of the two library products says what it is:
/// a library user reads the `///` comment in their editor and in the DocC
/// pages, and an undocumented declaration there is an empty page.
@Suite struct PublicDocumentationTests {
    /// A line that declares something public: `public` (or `open`) and the
    /// declaration's keyword, after any attributes and modifiers. A `public
    /// extension` is not itself a declaration (its members are checked).
    nonisolated(unsafe) static let publicDeclaration = try! Regex(
        #"^\s*(@\w+(\([^)]*\))?\s+)*(public|open)\s+((static|class|final|override|mutating|nonmutating|convenience|required|indirect|lazy|nonisolated|dynamic)\s+)*(func|var|let|init[?!]?|struct|enum|class|protocol|typealias|case|subscript|actor|associatedtype)\b"#
    )

    /// A line that holds attributes and nothing else (`@inlinable`,
    /// `@available(macOS 26, *)`), which may stand between a comment and
    /// its declaration.
    nonisolated(unsafe) static let attributeAlone = try! Regex(#"(@\w+(\([^)]*\))?\s*)+"#)

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
    }

    /// `FILE:LINE: declaration` for each public declaration in `directory`
    /// (relative to Sources/) whose nearest line above, attributes skipped,
    /// is not a documentation comment.
    static func undocumented(in directory: String) throws -> [String] {
        let root = sources.appendingPathComponent(directory).standardizedFileURL.path + "/"
        let files = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        var found: [String] = []
        for file in files {
            let lines = try String(contentsOfFile: root + file, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (index, line) in lines.enumerated() where line.firstMatch(of: publicDeclaration) != nil {
                if isDocumented(lines, above: index) { continue }
                found.append("\(directory)/\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    /// Whether the declaration at `index` has a `///` or `/** */` comment
    /// right above it, its attribute lines (`@inlinable`, `@available(...)`)
    /// between the two.
    static func isDocumented(_ lines: [String], above index: Int) -> Bool {
        var line = index - 1
        while line >= 0, lines[line].trimmingCharacters(in: .whitespaces).wholeMatch(of: attributeAlone) != nil { line -= 1 }
        guard line >= 0 else { return false }
        let above = lines[line].trimmingCharacters(in: .whitespaces)
        return above.hasPrefix("///") || above.hasSuffix("*/") && lines[...line].last { $0.contains("/*") }?.contains("/**") == true
    }

    @Test(arguments: ["ChangesetKit", "ChangesetEngine"])
    func everyPublicDeclarationIsDocumented(module: String) throws {
        let missing = try Self.undocumented(in: module)
        #expect(missing.isEmpty, "public declarations without a /// comment:\n\(missing.joined(separator: "\n"))")
    }

    /// The scan finds what it is meant to, so a pass above means something.
    @Test func theScanTellsADocumentedDeclarationFromAnUndocumentedOne() {
        let lines = [
            "/// A thing.",
            "public struct Documented {",
            "    /// Its size.",
            "    @inlinable public var size: Int { 0 }",
            "    public init() {}",
            "    // A plain comment is not documentation.",
            "    public static func make() -> Documented { .init() }",
            "    /** Block documentation. */",
            "    @available(macOS 26, *)",
            "    public func old() {}",
            "    func internalOne() {}",
            "}",
        ]
        let declarations = lines.indices.filter { lines[$0].firstMatch(of: Self.publicDeclaration) != nil }
        #expect(declarations == [1, 3, 4, 6, 9])
        #expect(declarations.filter { !Self.isDocumented(lines, above: $0) } == [4, 6])
    }
}
