import Foundation
import Testing

/// The man page and --help must not drift apart.
@Suite struct DocumentationTests {
    static let manPage = fixtures.deletingLastPathComponent().appendingPathComponent("man/changeset.1")

    static func options(inHelpOf arguments: [String]) throws -> Set<String> {
        let help = try changeset(arguments).stdout
        let regex = try NSRegularExpression(pattern: "--[a-z][a-z-]*")
        let range = NSRange(help.startIndex..., in: help)
        return Set(regex.matches(in: help, range: range).map { String(help[Range($0.range, in: help)!]) })
    }

    @Test func everyOptionOfHelpIsInTheManPage() throws {
        // groff writes a hyphen in an option as \-.
        let man = try String(contentsOf: Self.manPage, encoding: .utf8).replacingOccurrences(of: "\\-", with: "-")
        let options = try Self.options(inHelpOf: ["--help"])
        #expect(options.count >= 15)
        for option in options.sorted() {
            #expect(man.contains(option), "man/changeset.1 does not mention \(option)")
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
