import Foundation
import Testing

/// Another package can depend on ChangesetKit by version: SwiftPM refuses a
/// versioned dependency that uses unsafe flags, so this builds a scratch
/// package against a tagged copy of this repository, as a user would.
@Suite struct LibraryPackageTests {
    static let root = fixtures.deletingLastPathComponent()

    static func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> CommandResult {
        try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [executable] + arguments, in: directory,
                       environment: ProcessInfo.processInfo.environment)
    }

    @Test(.timeLimit(.minutes(10)))
    func aScratchPackageDependsOnTheLibraryByVersionAndDiffsTwoArrays() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-library-\(UUID().uuidString)")
        // The library as a git repository with a version tag: the files this checkout tracks, as they are now.
        let library = scratch.appendingPathComponent("changeset")
        let tracked = try Self.run("git", ["ls-files", "-z"], in: Self.root)
        #expect(tracked.status == 0, "\(tracked)")
        for path in tracked.stdout.split(separator: "\0").map(String.init) {
            let source = Self.root.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            let destination = library.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: destination)
        }
        for arguments in [
            ["init", "-q", "-b", "main"], ["add", "-A"],
            ["-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "release"],
            ["tag", "0.1.0"],
        ] {
            let result = try Self.run("git", arguments, in: library)
            #expect(result.status == 0, "\(result)")
        }

        let consumer = scratch.appendingPathComponent("consumer")
        try FileManager.default.createDirectory(at: consumer.appendingPathComponent("Sources/Consumer"), withIntermediateDirectories: true)
        try Data("""
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "consumer",
                dependencies: [.package(url: "\(library.absoluteString)", from: "0.1.0")],
                targets: [
                    .executableTarget(name: "Consumer", dependencies: [.product(name: "ChangesetKit", package: "changeset")]),
                ]
            )

            """.utf8).write(to: consumer.appendingPathComponent("Package.swift"))
        try Data("""
            import ChangesetKit

            struct Item: Identifiable, Equatable {
                let id: Int
                let name: String
            }

            let old = [Item(id: 1, name: "a"), Item(id: 2, name: "b"), Item(id: 3, name: "c")]
            let new = [Item(id: 3, name: "c"), Item(id: 1, name: "A"), Item(id: 4, name: "d")]
            let changeset = try Differ.diff(from: old, to: new)
            print("deleted \\(changeset.deletions.count) inserted \\(changeset.insertions.count) updated \\(changeset.updates.count) moved \\(changeset.moves.count)")
            print("replays: \\(try changeset.apply(to: old) == new)")

            """.utf8).write(to: consumer.appendingPathComponent("Sources/Consumer/main.swift"))

        let build = try Self.run("swift", ["build"], in: consumer)
        #expect(build.status == 0, "\(build)")
        #expect(!build.stderr.contains("unsafe"), "\(build)")
        let output = try runProcess(consumer.appendingPathComponent(".build/debug/Consumer"), [], in: consumer)
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout == "deleted 1 inserted 1 updated 1 moved 1\nreplays: true\n", "\(output)")
        try? FileManager.default.removeItem(at: scratch)
    }
}
