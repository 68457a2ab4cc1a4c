import Foundation
import Testing

/// Every output format, checked against golden files and by a real client.
@Suite struct FormatTests {
    static let catalog = ["catalog/old.json", "catalog/new.json", "--id", "id"]
    static let nested = ["nested/old.json", "nested/new.json", "--id", "sku", "--records-at", "data.items"]
    /// Arrays that change by element: 63 suffixes appended, subdivisions matched by their `code`, languages inserted.
    static let arrays = ["arrays/old.json", "arrays/new.json", "--id", "code"]

    static let goldenCases: [(String, [String])] = [
        ("catalog-text-sections.txt", catalog + ["--section", "category"]),
        ("catalog.json", catalog + ["--format", "json"]),
        ("catalog-sections.json", catalog + ["--format", "json", "--section", "category"]),
        ("catalog.ndjson", catalog + ["--format", "ndjson"]),
        ("catalog.patch", catalog + ["--format", "patch"]),
        ("catalog-csv.patch", ["catalog/old.csv", "catalog/new.csv", "--id", "id", "--format", "patch"]),
        ("catalog.jsonpatch", catalog + ["--format", "jsonpatch"]),
        ("catalog-batch-sections.json", catalog + ["--format", "batch", "--section", "category"]),
        ("catalog-stat.txt", catalog + ["--stat", "--section", "category"]),
        ("catalog-stat.json", catalog + ["--stat", "--format", "json"]),
        ("nested.txt", nested),
        ("nested.jsonpatch", nested + ["--format", "jsonpatch"]),
        ("nested.patch", nested + ["--format", "patch"]),
        ("arrays.txt", arrays + ["--show", "name", "--group"]),
        ("arrays-whole.txt", arrays + ["--arrays", "whole"]),
        ("arrays.json", arrays + ["--show", "name", "--format", "json"]),
        ("arrays.ndjson", arrays + ["--format", "ndjson"]),
        ("arrays.md", arrays + ["--show", "name", "--format", "markdown"]),
        ("arrays.html", arrays + ["--show", "name", "--format", "html"]),
        ("arrays.patch", arrays + ["--format", "patch"]),
        ("arrays.jsonpatch", arrays + ["--format", "jsonpatch"]),
        ("arrays-stat.txt", arrays + ["--stat"]),
    ]

    @Test(arguments: goldenCases)
    func goldenOutput(name: String, arguments: [String]) throws {
        let result = try changeset(arguments)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        try expectGolden(result.stdout, name)
    }

    @Test func sameInputsGiveByteIdenticalOutput() throws {
        for format in ["text", "json", "ndjson", "patch", "jsonpatch", "batch"] {
            let arguments = Self.catalog + ["--format", format, "--section", "category"]
            let first = try changeset(arguments)
            let second = try changeset(arguments)
            #expect(first.stdout == second.stdout && !first.stdout.isEmpty, "\(first)")
        }
    }

    // MARK: Real clients

    @Test func jqReadsJSONAndNDJSON() throws {
        let json = try changeset(Self.catalog + ["--format", "json", "--section", "category"])
        let summary = try run("jq", ["-c", ".summary"], input: json.stdout)
        #expect(summary == #"{"inserted":1,"deleted":1,"updated":2,"moved":2,"changed":6,"unchanged":4,"sections":{"inserted":1,"deleted":0,"moved":0},"schema":0,"fields":{"in_stock":1,"pages":1,"price":1},"transitions":[{"path":"pages","top":[],"exact":true,"numbers":{"records":1,"largest":1,"mean":1}},{"path":"price","top":[],"exact":true,"numbers":{"records":1,"largest":0.5,"mean":0.5}}]}"# + "\n")
        let fields = try run("jq", ["-r", #".changes[] | select(.kind == "updated") | .fields[] | "\(.path)=\(.new)""#], input: json.stdout)
        #expect(fields == "pages=272\nin_stock=true\nprice=13\n")
        let ndjson = try changeset(Self.catalog + ["--format", "ndjson"])
        let kinds = try run("jq", ["-r", ".kind"], input: ndjson.stdout)
        #expect(kinds == "stream\ndeleted\ninserted\nmoved\nupdated\nupdated\nupdated\nend\n")
    }

    @Test func pythonJSONPatchTurnsOldIntoNew() throws {
        for (old, new, options) in [
            ("catalog/old.json", "catalog/new.json", ["--id", "id"]),
            ("catalog/new.json", "catalog/old.json", ["--id", "id"]),
            ("nested/old.json", "nested/new.json", ["--id", "sku", "--records-at", "data.items"]),
            ("arrays/old.json", "arrays/new.json", ["--id", "code"]),
            ("arrays/new.json", "arrays/old.json", ["--id", "code"]),
        ] {
            let patch = try changeset([old, new, "--format", "jsonpatch"] + options)
            try expectJSONPatch(patch.stdout, turns: fixtures.appendingPathComponent(old), into: fixtures.appendingPathComponent(new),
                                recordsAt: options.contains("--records-at") ? ["data", "items"] : [])
        }
    }

    @Test func jsonPatchNeedsJSONDocuments() throws {
        let result = try changeset(["catalog/old.json", "catalog/new.csv", "--id", "id", "--format", "jsonpatch"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "changeset: --format jsonpatch needs two JSON documents, but catalog/new.csv is csv\n", "\(result)")
    }

    // MARK: apply

    @Test(arguments: ["json", "ndjson", "csv", "tsv"])
    func applyRebuildsNew(format: String) throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let old = fixtures.appendingPathComponent("catalog/old.\(format)").path
        let new = fixtures.appendingPathComponent("catalog/new.\(format)").path
        let patch = try changeset([old, new, "--id", "id", "--format", "patch", "-o", "p.patch"], in: scratch)
        #expect(patch.status == 1 && patch.stdout.isEmpty, "\(patch)")
        let rebuilt = scratch.appendingPathComponent("rebuilt.\(format)").path
        let apply = try changeset(["apply", old, "p.patch", "-o", rebuilt], in: scratch)
        #expect(apply.status == 0 && apply.stdout.isEmpty && apply.stderr.isEmpty, "\(apply)")
        let again = try changeset([rebuilt, new, "--id", "id"])
        #expect(again.status == 0, "rebuilt file differs from new: \(again)")
        if format != "json" {
            // CSV, TSV and NDJSON come back byte for byte.
            #expect(try Data(contentsOf: URL(fileURLWithPath: rebuilt)) == Data(contentsOf: URL(fileURLWithPath: new)))
        }
    }

    @Test func applyKeepsTheRestOfANestedDocument() throws {
        let patch = try changeset(Self.nested + ["--format", "patch"])
        let applied = try changeset(["apply", "nested/old.json", "-"], input: Data(patch.stdout.utf8))
        #expect(applied.status == 0, "\(applied)")
        let data = try #require(applied.stdout.data(using: .utf8))
        let result = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let new = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent("nested/new.json"))) as? [String: Any])
        #expect(NSDictionary(dictionary: result["data"] as! [String: Any]).isEqual(to: new["data"] as! [String: Any]))
        // Outside the records array, the base's own text.
        #expect(applied.stdout.contains(#""exported": "2026-11-01T08:00:00Z""#))
    }

    @Test func applyRefusesAnotherBase() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let patch = try changeset(Self.catalog + ["--format", "patch"])
        try patch.stdout.write(to: scratch.appendingPathComponent("p.patch"), atomically: true, encoding: .utf8)
        try "keep me\n".write(to: scratch.appendingPathComponent("out.json"), atomically: true, encoding: .utf8)
        let result = try changeset(["apply", fixtures.appendingPathComponent("catalog/new.json").path, "p.patch", "-o", "out.json"], in: scratch)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("is not the snapshot the patch p.patch was made from"), "\(result)")
        #expect(result.stderr.hasSuffix("nothing was written\n"), "\(result)")
        #expect(try String(contentsOf: scratch.appendingPathComponent("out.json"), encoding: .utf8) == "keep me\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["out.json", "p.patch"])
    }

    /// Each malformed patch under Fixtures/patches: exit 2 and its exact message.
    @Test func malformedPatchesGiveExactErrors() throws {
        let cases = try String(contentsOf: fixtures.appendingPathComponent("patches/cases.tsv"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(cases.count >= 10)
        for line in cases {
            let fields = line.split(separator: "\t").map(String.init)
            let result = try changeset(["apply", "../catalog/old.json", fields[0]], in: fixtures.appendingPathComponent("patches"))
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderr == "changeset: \(fields[1])\n", "\(result)")
        }
    }

    // MARK: batch

    @Test func batchReplaysWithUIKitRules() throws {
        for extra in [["--section", "category"], [], ["--section", "author"]] {
            let result = try changeset(Self.catalog + ["--format", "batch"] + extra)
            let old = try layout(of: "catalog/old.json", id: "id", section: extra.last)
            let new = try layout(of: "catalog/new.json", id: "id", section: extra.last)
            let batch = try UIKitBatch(json: result.stdout)
            #expect(try batch.replay(old: old, new: new) == new.map(\.items), "\(result)")
        }
    }

    // MARK: exit status, assertions, output files

    @Test func assertionsDecideTheExitStatus() throws {
        let holds = try changeset(Self.catalog + ["--assert", "deleted <= 1", "--assert", "updated <= 50%", "--assert", "changed != 0", "--quiet"])
        #expect(holds.status == 0 && holds.stderr.isEmpty, "\(holds)")
        let fails = try changeset(Self.catalog + ["--assert", "inserted == 1", "--assert", "updated < 10%", "--quiet"])
        #expect(fails.status == 1, "\(fails)")
        #expect(fails.stderr == "changeset: assertion failed: updated < 10% (updated is 3 of 7 records, 42.86%)\n", "\(fails)")
        let malformed = try changeset(Self.catalog + ["--assert", "removed == 0"])
        #expect(malformed.status == 2, "\(malformed)")
        #expect(malformed.stderr.hasPrefix("changeset: invalid --assert \"removed == 0\": unknown kind \"removed\""), "\(malformed)")
    }

    @Test func outputFileIsWrittenWholeOrNotAtAll() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let target = scratch.appendingPathComponent("delta.json")
        let written = try changeset(Self.catalog + ["--format", "json", "-o", target.path])
        #expect(written.status == 1 && written.stdout.isEmpty, "\(written)")
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("{\n  \"format\": \"changeset/1\""))
        try "previous\n".write(to: target, atomically: true, encoding: .utf8)
        let failed = try changeset(["catalog/old.json", "errors/truncated.json", "--id", "id", "-o", target.path])
        #expect(failed.status == 2, "\(failed)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "previous\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["delta.json"])
        let unwritable = try changeset(Self.catalog + ["-o", "/nonexistent-dir/delta.txt"])
        #expect(unwritable.status == 2, "\(unwritable)")
        #expect(unwritable.stderr == "changeset: cannot write /nonexistent-dir/delta.txt: No such file or directory\n", "\(unwritable)")
    }

    @Test func closedPipeIsNotACrash() throws {
        // A reader that takes one line and leaves: the run ends quietly, not by a signal.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let big = fixtures.appendingPathComponent("../.build/big-\(UUID().uuidString).ndjson").standardized
        defer { try? FileManager.default.removeItem(at: big) }
        let lines = (0..<50_000).map { "{\"id\":\($0),\"v\":\"\(String(repeating: "x", count: 40))\"}" }.joined(separator: "\n")
        try lines.write(to: big, atomically: true, encoding: .utf8)
        process.arguments = ["-c", "'\(changesetBinary.path)' /dev/null '\(big.path)' --input-format ndjson --id id --format ndjson | head -n 1 >/dev/null; echo ${PIPESTATUS:-}"]
        let pipe = Pipe()
        process.standardOutput = pipe
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0)
        #expect(stderr.isEmpty, "\(stderr)")
    }
}

// MARK: Helpers

/// Runs a tool with `input` on standard input and returns its standard output.
func run(_ tool: String, _ arguments: [String], input: String) throws -> String {
    let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, input: Data(input.utf8))
    #expect(result.status == 0, "\(result)")
    return result.stdout
}

/// Applies an RFC 6902 patch with Python's jsonpatch (an independent
/// implementation) and compares the result's records with NEW's.
func expectJSONPatch(_ patch: String, turns old: URL, into new: URL, recordsAt: [String],
                     sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let script = """
        import json, sys, jsonpatch
        old = json.load(open(sys.argv[1])); new = json.load(open(sys.argv[2]))
        result = jsonpatch.apply_patch(old, json.load(sys.stdin))
        for name in sys.argv[3:]:
            result = result[name]; new = new[name]
        print("same" if result == new else "different:\\n" + json.dumps(result) + "\\n" + json.dumps(new))
        """
    let output = try run("python3", ["-c", script, old.path, new.path] + recordsAt, input: patch)
    #expect(output == "same\n", "jsonpatch result: \(output)\npatch:\n\(patch)", sourceLocation: sourceLocation)
}

/// A section of record ids, as a table view shows them.
struct LayoutSection: Equatable {
    var name: String
    var items: [String]
}

/// The ids of a JSON fixture, grouped by section in order of first appearance.
func layout(of path: String, id: String, section: String?) throws -> [LayoutSection] {
    let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent(path))) as? [[String: Any]])
    var sections: [LayoutSection] = []
    for record in records {
        let name = section.map { "\(record[$0] ?? "(none)")" } ?? ""
        let key = "\(record[id]!)"
        if let index = sections.firstIndex(where: { $0.name == name }) {
            sections[index].items.append(key)
        } else {
            sections.append(LayoutSection(name: name, items: [key]))
        }
    }
    return sections
}

/// A batch update replayed the way UIKit's UITableView performs one, with the
/// checks that make UIKit raise (written independently of the engine's apply).
struct UIKitBatch {
    struct Refused: Error, CustomStringConvertible { var description: String }

    var deletedSections: [Int], insertedSections: [Int], movedSections: [[Int]]
    var deleted: [[Int]], inserted: [[Int]], reloaded: [[Int]], moved: [[[Int]]]

    init(json: String) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [String: Any]])
        let sections = try #require(object["sections"])
        let items = try #require(object["items"])
        deletedSections = try #require(sections["deleted"] as? [Int])
        insertedSections = try #require(sections["inserted"] as? [Int])
        movedSections = try #require(sections["moved"] as? [[Int]])
        deleted = try #require(items["deleted"] as? [[Int]])
        inserted = try #require(items["inserted"] as? [[Int]])
        reloaded = try #require(items["reloaded"] as? [[Int]])
        moved = try #require(items["moved"] as? [[[Int]]])
    }

    /// The table's sections after the update; the data source (NEW) supplies
    /// the rows UIKit asks for: inserted ones and those of inserted sections.
    func replay(old: [LayoutSection], new: [LayoutSection]) throws -> [[String]] {
        func refuse(_ why: String) -> Refused { Refused(description: "UIKit would raise: \(why)") }
        let movedFrom = movedSections.map { $0[0] }
        let movedTo = movedSections.map { $0[1] }
        guard Set(deletedSections).isDisjoint(with: movedFrom) else { throw refuse("a section both deleted and moved") }
        guard Set(insertedSections).isDisjoint(with: movedTo) else { throw refuse("a section both inserted and moved into") }
        for list in [deletedSections, insertedSections, movedFrom, movedTo] where Set(list).count != list.count {
            throw refuse("a section listed twice")
        }
        // Which old section each new section shows: moved ones where they go, the rest in order.
        var source = [Int?](repeating: nil, count: new.count)
        for pair in movedSections { source[pair[1]] = pair[0] }
        var taken = Set(insertedSections).union(movedTo)
        var slot = 0
        for oldIndex in old.indices where !deletedSections.contains(oldIndex) && !movedFrom.contains(oldIndex) {
            while taken.contains(slot) { slot += 1 }
            guard slot < new.count else { throw refuse("more sections than the data source has") }
            source[slot] = oldIndex
            taken.insert(slot)
        }
        let fromOld = moved.map { $0[0] }
        let toNew = moved.map { $0[1] }
        for (name, list) in [("deleted", deleted), ("reloaded", reloaded), ("moved from", fromOld)] {
            guard Set(list).count == list.count else { throw refuse("an index path \(name) twice") }
            for path in list {
                guard old.indices.contains(path[0]), old[path[0]].items.indices.contains(path[1]) else {
                    throw refuse("\(name) \(path) is outside the old data")
                }
                guard !deletedSections.contains(path[0]) else { throw refuse("\(name) \(path) is in a deleted section") }
            }
        }
        guard Set(reloaded).isDisjoint(with: fromOld) else { throw refuse("an item both reloaded and moved") }
        guard Set(deleted).isDisjoint(with: fromOld) else { throw refuse("an item both deleted and moved") }
        guard Set(deleted).isDisjoint(with: reloaded) else { throw refuse("an item both deleted and reloaded") }
        for path in inserted + toNew {
            guard new.indices.contains(path[0]) else { throw refuse("\(path) is outside the new sections") }
            guard !insertedSections.contains(path[0]) else { throw refuse("\(path) is in an inserted section") }
        }
        guard Set(inserted + toNew).count == inserted.count + toNew.count else { throw refuse("a new index path used twice") }

        var result: [[String]] = []
        for (newIndex, oldIndex) in source.enumerated() {
            guard let oldIndex else {
                result.append(new[newIndex].items)  // an inserted section: the data source's rows
                continue
            }
            let leaving = Set(deleted.filter { $0[0] == oldIndex }.map { $0[1] } + fromOld.filter { $0[0] == oldIndex }.map { $0[1] })
            var rows = old[oldIndex].items.enumerated().filter { !leaving.contains($0.offset) }.map(\.element)
            var arriving: [(Int, String)] = inserted.filter { $0[0] == newIndex }.map { ($0[1], new[newIndex].items[$0[1]]) }
            for pair in moved where pair[1][0] == newIndex { arriving.append((pair[1][1], old[pair[0][0]].items[pair[0][1]])) }
            for (index, id) in arriving.sorted(by: { $0.0 < $1.0 }) {
                guard index <= rows.count else { throw refuse("insertion at \(newIndex)/\(index) past the end") }
                rows.insert(id, at: index)
            }
            guard rows.count == new[newIndex].items.count else {
                throw refuse("invalid number of rows in section \(newIndex): \(rows.count) after the update, the data source has \(new[newIndex].items.count)")
            }
            result.append(rows)
        }
        return result
    }
}
