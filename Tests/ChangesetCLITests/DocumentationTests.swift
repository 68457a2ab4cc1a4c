import Foundation
import Testing

/// The man page and --help must not drift apart.
@Suite struct DocumentationTests {
    static let manPage = fixtures.deletingLastPathComponent().appendingPathComponent("man/changeset.1")

    /// Every command whose --help must agree with the man page, and the
    /// fewest options its help lists (so a help that prints nothing fails).
    static let helpInvocations: [([String], Int)] = [
        (["--help"], 15),
        (["merge", "--help"], 12),
        (["report", "--help"], 10),
        (["git", "setup", "--help"], 3),
        (["git", "merge-driver", "--help"], 10),
        (["git", "diff", "--help"], 9),
        (["git-diff", "--help"], 9),
    ]

    static func options(in help: String) throws -> Set<String> {
        let regex = try NSRegularExpression(pattern: "--[a-z][a-z-]*")
        let range = NSRange(help.startIndex..., in: help)
        return Set(regex.matches(in: help, range: range).map { String(help[Range($0.range, in: help)!]) })
    }

    @Test(arguments: helpInvocations)
    func everyOptionOfHelpIsInTheManPage(arguments: [String], minimumOptions: Int) throws {
        // groff writes a hyphen in an option as \-.
        let man = try String(contentsOf: Self.manPage, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
        let help = try changeset(arguments)
        #expect(help.status == 0 && help.stdout.contains("USAGE:"), "\(help)")
        let options = try Self.options(in: help.stdout)
        #expect(options.count >= minimumOptions, "\(help)")
        for option in options.sorted() {
            #expect(man.contains(option), "man/changeset.1 does not mention \(option), from changeset \(arguments.joined(separator: " "))")
        }
    }

    @Test func manPageIsCleanGroff() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["groff", "-man", "-ww", "-z", Self.manPage.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0 && warnings.isEmpty, "\(warnings)")
    }
}
