import Foundation
import Testing

/// Another package can depend on ChangesetKit by version: SwiftPM refuses a
/// versioned dependency that uses unsafe flags, so this builds a scratch
/// package against a tagged copy of this repository, as a user would.
@Suite(.tags(.slow, .libraryPackage)) struct LibraryPackageTests {
    static let root = fixtures.deletingLastPathComponent()

    static func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> CommandResult {
        try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [executable] + arguments, in: directory,
                       environment: ProcessInfo.processInfo.environment)
    }

    /// This checkout's tracked files, as they are now, as a git repository tagged 0.1.0.
    static func taggedLibrary(in scratch: URL) throws -> URL {
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
        return library
    }

    /// A package with one executable, `main`, that depends on `product` of the tagged library; built verbosely.
    static func consumer(of product: String, main: String, in scratch: URL) throws -> (consumer: URL, build: CommandResult) {
        let library = try taggedLibrary(in: scratch)
        let consumer = scratch.appendingPathComponent("consumer")
        try FileManager.default.createDirectory(at: consumer.appendingPathComponent("Sources/Consumer"), withIntermediateDirectories: true)
        try Data("""
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "consumer",
                dependencies: [.package(url: "\(library.absoluteString)", from: "0.1.0")],
                targets: [
                    .executableTarget(name: "Consumer", dependencies: [.product(name: "\(product)", package: "changeset")]),
                ]
            )

            """.utf8).write(to: consumer.appendingPathComponent("Package.swift"))
        try Data(main.utf8).write(to: consumer.appendingPathComponent("Sources/Consumer/main.swift"))
        return (consumer, try Self.run("swift", ["build", "-v"], in: consumer))
    }

    /// Also: it compares two `Data` values, applies a patch to `Data`, and catches a `FieldCheckError` by type.
    @Test(.timeLimit(.minutes(10)))
    func aScratchPackageDependsOnTheLibraryByVersionAndDiffsTwoArrays() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (consumer, build) = try Self.consumer(of: "ChangesetKit", main: """
            import ChangesetKit
            import Foundation

            struct Item: Identifiable, Equatable {
                let id: Int
                let name: String
            }

            let old = [Item(id: 1, name: "a"), Item(id: 2, name: "b"), Item(id: 3, name: "c")]
            let new = [Item(id: 3, name: "c"), Item(id: 1, name: "A"), Item(id: 4, name: "d")]
            let changeset = try Differ.diff(from: old, to: new)
            print("deleted \\(changeset.deletions.count) inserted \\(changeset.insertions.count) updated \\(changeset.updates.count) moved \\(changeset.moves.count)")
            print("replays: \\(try changeset.apply(to: old) == new)")

            // The README's and the merge article's entry points, as a user calls them.
            func records(_ json: String) throws -> [Value] {
                guard case .array(let elements) = try Value(json: json) else { return [] }
                return elements
            }
            let (merged, result) = ThreeWayMerge.merge(
                base: try records(#"[{"id":1,"price":10,"stock":5}]"#), ours: try records(#"[{"id":1,"price":12,"stock":5}]"#),
                theirs: try records(#"[{"id":1,"price":10,"stock":3}]"#), id: [FieldPath(["id"])])
            print("merged \\(Value.array(merged).jsonText) conflicts \\(result.conflicts.count)")
            let directory = CommandLine.arguments[1]
            var options = ComparisonOptions()
            options.records.id = [FieldPath(["id"])]
            let comparison = try Comparison.run(oldPath: directory + "/old.json", newPath: directory + "/new.json", options: options)
            var markdown = ""
            let summary = try comparison.write(OutputSettings(format: .markdown), to: &markdown)
            print("updated \\(summary.updated) markdown \\(markdown.contains("price"))")
            var text = ""
            try comparison.report().write(OutputSettings(format: .text), to: &text)
            print(text, terminator: "")

            // Data in memory, JSON against CSV, and a patch applied to Data, as the in-memory article shows.
            let oldData = Data(#"[{"id":1,"price":10},{"id":2,"price":5}]"#.utf8)
            let newData = Data("id,price\\n1,12\\n3,7\\n".utf8)
            let fromData = try Comparison.run(old: .data(oldData, format: .json, name: "old data"),
                                              new: .data(newData, format: .csv, name: "new data"), options: options)
            let counts = try fromData.counts()
            print("data: inserted \\(counts.inserted) deleted \\(counts.deleted) updated \\(counts.updated)")
            let target = Data(#"[{"id":1,"price":12},{"id":3,"price":7}]"#.utf8)
            var patchText = ""
            _ = try Comparison.run(old: .data(oldData, format: .json, name: "old data"), new: .data(target, format: .json, name: "target"),
                                   options: options).write(OutputSettings(format: .patch), to: &patchText)
            let rebuilt = try DatasetPatch(Data(patchText.utf8), name: "change.patch").apply(to: .data(oldData, format: .json, name: "old data"))
            print("applied: \\(String(decoding: rebuilt, as: UTF8.self))")
            options.records.ignore = [FieldPath(["pricee"])]
            do {
                _ = try Comparison.run(old: .data(oldData, format: .json, name: "old data"), new: .data(newData, format: .csv, name: "new data"),
                                       options: options)
            } catch let error as FieldCheckError {
                print("caught \\(error.setting.rawValue): \\(error)")
            }
            """, in: scratch)
        #expect(build.status == 0, "\(build)")
        #expect(!build.stderr.contains("unsafe"), "\(build)")
        try Data(#"[{"id":1,"price":10}]"#.utf8).write(to: scratch.appendingPathComponent("old.json"))
        try Data(#"[{"id":1,"price":12}]"#.utf8).write(to: scratch.appendingPathComponent("new.json"))
        let output = try runProcess(consumer.appendingPathComponent(".build/debug/Consumer"), [scratch.path], in: consumer)
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.hasPrefix("""
            deleted 1 inserted 1 updated 1 moved 1
            replays: true
            merged [{"id":1,"price":12,"stock":3}] conflicts 0
            updated 1 markdown true
            0 inserted, 0 deleted, 1 updated
            """), "\(output)")
        #expect(output.stdout.contains("price: 10 -> 12"), "\(output)")
        #expect(output.stdout.hasSuffix("""
            data: inserted 1 deleted 1 updated 1
            applied: [{"id":1,"price":12},{"id":3,"price":7}]
            caught ignore: RecordOptions.ignore "pricee": no record of old data or new data has this field; did you mean "price"?

            """), "\(output)")
    }

    /// The engine alone, for a package that has nothing to do with files
    /// (an app diffing its lists): it builds without libyajl, zlib or
    /// libzstd and without ChangesetKit, and its names leave SwiftUI's
    /// `Section` and DifferenceKit's `Changeset` and `ElementPath` free.
    @Test(.timeLimit(.minutes(10)))
    func theEngineProductBuildsAloneWithoutAnyCLibrary() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-engine-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (consumer, build) = try Self.consumer(of: "ChangesetEngine", main: """
            import ChangesetEngine

            // Names an app may already use, from SwiftUI or DifferenceKit: no clash with the engine's.
            struct Section {}
            struct Changeset {}
            struct ElementPath {}
            struct ContentEquatable {}

            struct Item: Identifiable, Equatable {
                let id: Int
                let name: String
            }

            let old = [ListSection(id: "fruit", elements: [Item(id: 1, name: "apple"), Item(id: 2, name: "pear")]),
                       ListSection(id: "veg", elements: [Item(id: 3, name: "leek")])]
            let new = [ListSection(id: "veg", elements: [Item(id: 3, name: "leek"), Item(id: 1, name: "Apple")]),
                       ListSection(id: "fruit", elements: [Item(id: 2, name: "pear")])]
            let changeset: SectionedChangeset<String, Item> = try Differ.diff(from: old, to: new)
            let moved: [ItemPath] = changeset.moves.map(\\.to)
            print("moved \\(moved) updated \\(changeset.updates.count) sections moved \\(changeset.movedSections.count)")
            print("replays: \\(try changeset.apply(to: old) == new)")
            print("UIKit batches: \\(changeset.batchUpdates().count)")

            """, in: scratch)
        #expect(build.status == 0, "\(build)")
        let log = build.stdout + build.stderr
        for absent in ["yajl", "zstd", "-lz ", "-module-name ChangesetKit", "CYajl", "CZlib", "CZstd"] {
            #expect(!log.contains(absent), "the engine's build names \(absent)")
        }
        #expect(log.contains("-module-name ChangesetEngine"), "\(build)")
        let output = try runProcess(consumer.appendingPathComponent(".build/debug/Consumer"), [], in: consumer)
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout == "moved [0/1] updated 1 sections moved 1\nreplays: true\nUIKit batches: 2\n", "\(output)")
    }
}
