import Foundation
import Testing
@testable import ChangesetKit

/// The rules file (`RulesFile`, Input): discovery up to the repository's
/// root, JSON with comments and trailing commas, gitattributes-style globs
/// (`PathGlob`), the first matching entry, and errors placed at the line and
/// column of the name they are about.
@Suite struct RulesFileTests {
    static let options = [
        RuleOption(name: "id", takes: .value), RuleOption(name: "ignore", takes: .values),
        RuleOption(name: "tolerance", takes: .values), RuleOption(name: "array-key", takes: .values),
        RuleOption(name: "ignore-order", takes: .flag), RuleOption(name: "memory-limit", takes: .value),
    ]

    static func parse(_ text: String, folder: String = "/repo") throws(InputError) -> RulesFile {
        try RulesFile.parse(Array(text.utf8), source: ".changeset.json", folder: folder, options: options)
    }

    static func failure(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "parsed"
        } catch {
            return error.description
        }
    }

    // MARK: Parsing

    @Test func commentsAndTrailingCommasAreAllowedAsInTsconfig() throws {
        let rules = try Self.parse("""
            {
              // keys are globs, from this file's folder
              "files": {
                /* the products, "quoted" */
                "data/*.csv": { "id": "sku", "ignore": ["updated_at", "etag",], "tolerance": "price=0.01", },
                "countries.json": { "id": "cca3", "array-key": ["states=id"], "ignore-order": true, "memory-limit": 800 },
                "a,}.json": { "id": "x,]" , },
              },
            }
            """)
        #expect(rules.entries.map(\.pattern.text) == ["data/*.csv", "countries.json", "a,}.json"])
        let all = Set(Self.options.map(\.name))
        #expect(rules.entries[0].arguments(taking: all) == ["--id=sku", "--ignore=updated_at", "--ignore=etag", "--tolerance=price=0.01"])
        #expect(rules.entries[1].arguments(taking: all) == ["--id=cca3", "--array-key=states=id", "--ignore-order", "--memory-limit=800"])
        #expect(rules.entries[2].arguments(taking: all) == ["--id=x,]"])
        // Options a command does not take are left out.
        #expect(rules.entries[0].arguments(taking: ["id", "ignore"]) == ["--id=sku", "--ignore=updated_at", "--ignore=etag"])
        #expect(rules.entries[1].location == InputLocation(line: 6, column: 5))
        #expect(rules.entries[1].settings[2].location == InputLocation(line: 6, column: 67))
    }

    @Test func aFlagSetToFalseSetsNothing() throws {
        let rules = try Self.parse(#"{"files": {"*.csv": {"ignore-order": false, "id": "sku"}}}"#)
        #expect(rules.entries[0].arguments(taking: ["ignore-order", "id"]) == ["--id=sku"])
    }

    @Test func trailingCommaBlankingKeepsOffsetsAndLeavesStringsAndComments() {
        let text = #"[1, "a,]", /* ,] */ 2, // ,}"# + "\n]"
        let blanked = String(decoding: RulesFile.blankingTrailingCommas(Array(text.utf8)), as: UTF8.self)
        #expect(blanked == #"[1, "a,]", /* ,] */ 2  // ,}"# + "\n]")
        // Only a comma after a value is trailing: these stay for yajl to refuse.
        for kept in ["[,]", "{,}", "[1,,]"] {
            #expect(RulesFile.blankingTrailingCommas(Array(kept.utf8)) == Array(kept.utf8), "\(kept)")
        }
    }

    // MARK: Errors

    @Test func errorsNameTheFileLineAndColumn() {
        #expect(Self.failure("{\n  \"files\": {\n    \"*.csv\": {\"idd\": \"sku\"}\n  }\n}")
                == ".changeset.json:3:15: unknown option \"idd\"; did you mean \"id\"?")
        #expect(Self.failure("{\"files\": {\"*.csv\": {\"--id\": \"sku\"}}}")
                == ".changeset.json:1:22: unknown option \"--id\"; write the option's long name without dashes, as \"id\"")
        #expect(Self.failure("{\"file\": {}}") == ".changeset.json:1:2: unknown key \"file\"; did you mean \"files\"?")
        #expect(Self.failure("{\"files\": {\"*.csv\": {\n  \"ignore-order\": \"yes\"}}}")
                == ".changeset.json:2:3: \"ignore-order\" is a flag: true or false, not a string")
        #expect(Self.failure("{\"files\": {\"*.csv\": {\"id\": [\"a\"]}}}")
                == ".changeset.json:1:22: \"id\" takes one value, a string or a number, not an array")
        #expect(Self.failure("{\"files\": {\"*.csv\": {\"ignore\": [\"a\", true]}}}")
                == ".changeset.json:1:22: \"ignore\": element 2 is a bool; give strings")
        #expect(Self.failure("{\"files\": {\"*.csv\": \"sku\"}}")
                == ".changeset.json:1:12: the entry \"*.csv\" holds an object of options, such as {\"id\": \"sku\"}, not a string")
        #expect(Self.failure("{\"files\": {\"data/\": {}}}").hasPrefix(".changeset.json:1:12: the glob \"data/\" names no file"))
        #expect(Self.failure("[]") == ".changeset.json:1:1: a rules file holds an object, {\"files\": {...}}")
    }

    @Test func aNameGivenTwiceIsRefusedWithBothPlaces() {
        #expect(Self.failure("{\"files\": {\n  \"*.csv\": {\"id\": \"sku\"},\n  \"*.csv\": {\"id\": \"name\"}}}")
                == ".changeset.json:3:3: the glob \"*.csv\" is given twice; the first is at line 2, column 3: keep one")
        #expect(Self.failure("{\"files\": {\"*.csv\": {\"id\": \"sku\", \"id\": \"name\"}}}")
                == ".changeset.json:1:35: \"id\" in the entry \"*.csv\" is given twice; the first is at line 1, column 22: keep one")
        #expect(Self.failure("{\"files\": {}, \"files\": {\"*.csv\": {\"id\": \"sku\"}}}")
                == ".changeset.json:1:15: \"files\" is given twice; the first is at line 1, column 2: keep one")
        // The same option in two entries is no repetition.
        #expect(Self.failure("{\"files\": {\"a.csv\": {\"id\": \"sku\"}, \"b.csv\": {\"id\": \"sku\"}}}") == "parsed")
    }

    @Test func aRulesFileThatCannotBeReadSaysWhy() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("folder"), withIntermediateDirectories: true)
        func message(_ path: String) -> String {
            do {
                _ = try RulesFile.read(path, workingDirectory: scratch.path, options: Self.options)
                return "read"
            } catch {
                return error.description
            }
        }
        #expect(message("missing.json") == "missing.json: cannot read the rules file: No such file or directory")
        #expect(message("folder") == "folder: cannot read the rules file: it is a directory; name the file in it, as folder/.changeset.json")
    }

    @Test func aCommaWithNoValueBeforeItIsRefused() {
        #expect(Self.failure("{\"files\": {\"*.csv\": {\"ignore\": [,]}}}").hasPrefix(".changeset.json:1:"))
    }

    @Test func aSyntaxErrorIsPlacedWhereYajlStopped() {
        // The key's value is missing: yajl stops at the closing brace, line 3.
        let message = Self.failure("{\"files\": {\n  \"*.csv\": {\"id\": }\n}}")
        #expect(message.hasPrefix(".changeset.json:2:"), "\(message)")
        #expect(message.contains("parse error"), "\(message)")
    }

    // MARK: Globs and entries

    @Test(arguments: [
        ("*.csv", "products.csv", true), ("*.csv", "data/products.csv", true), ("*.csv", "products.json", false),
        ("data/*.csv", "data/products.csv", true), ("data/*.csv", "data/2024/products.csv", false),
        ("data/*.csv", "other/data/products.csv", false), ("/data/*.csv", "data/products.csv", true),
        ("data/**/*.csv", "data/products.csv", true), ("data/**/*.csv", "data/a/b/products.csv", true),
        ("**/products.csv", "x/y/products.csv", true), ("data/**", "data/a/b.json", true),
        ("data/**", "data", false), ("data/**", "data/a.csv", true), ("**", "a.csv", true),
        ("data/p?.csv", "data/p1.csv", true), ("data/p[0-9].csv", "data/px.csv", false),
        ("countries.json", "countries.json", true), ("countries.json", "sub/countries.json", true),
    ])
    func globsMatchAsGitattributes(pattern: String, path: String, matches: Bool) throws {
        let glob = try #require(PathGlob(pattern))
        #expect(glob.matches(path) == matches, "\(pattern) against \(path)")
    }

    @Test func theFirstMatchingEntryInFileOrderIsTheOne() throws {
        let rules = try Self.parse(#"{"files": {"data/special.csv": {"id": "code"}, "data/*.csv": {"id": "sku"}, "*.csv": {"id": "id"}}}"#)
        #expect(rules.entry(for: "data/special.csv", workingDirectory: "/repo")?.pattern.text == "data/special.csv")
        #expect(rules.entry(for: "data/other.csv", workingDirectory: "/repo")?.pattern.text == "data/*.csv")
        #expect(rules.entry(for: "../data/other.csv", workingDirectory: "/repo/sub")?.pattern.text == "data/*.csv")
        #expect(rules.entry(for: "other.csv", workingDirectory: "/repo/sub")?.pattern.text == "*.csv")
        #expect(rules.entry(for: "/elsewhere/data/other.csv", workingDirectory: "/repo") == nil)
        #expect(rules.entry(for: "notes.txt", workingDirectory: "/repo") == nil)
    }

    // MARK: Discovery

    /// A `.changeset.json` in a shared folder, planted by another user, gives
    /// no options to whoever runs changeset below it (as git's safe.directory).
    /// Giving a file away takes root, which CI is.
    @Test(.enabled(if: geteuid() == 0, "chown to another user needs root"))
    func discoveryPassesOverAFileAnotherUserOwns() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let below = scratch.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: below, withIntermediateDirectories: true)
        let planted = scratch.appendingPathComponent(RulesFile.fileName)
        try Data("{}".utf8).write(to: planted)
        #expect(RulesFile.find(from: below.path) == planted.path)
        #expect(chown(planted.path, 65534, 65534) == 0)
        #expect(RulesFile.find(from: below.path) == nil)
    }

    @Test func discoveryStopsAtTheRepositoryRoot() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let repository = scratch.appendingPathComponent("repo")
        let deep = repository.appendingPathComponent("data/2024")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        // A rules file above the repository is not the repository's.
        try Data("{}".utf8).write(to: scratch.appendingPathComponent(RulesFile.fileName))
        try FileManager.default.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        #expect(RulesFile.find(from: deep.path) == nil)
        try Data("{}".utf8).write(to: repository.appendingPathComponent(RulesFile.fileName))
        #expect(RulesFile.find(from: deep.path) == repository.appendingPathComponent(RulesFile.fileName).path)
        // A nearer one wins; a worktree's `.git` is a file, and still the root.
        try Data("{}".utf8).write(to: deep.appendingPathComponent(RulesFile.fileName))
        #expect(RulesFile.find(from: deep.path) == deep.appendingPathComponent(RulesFile.fileName).path)
        let worktree = scratch.appendingPathComponent("worktree/data")
        try FileManager.default.createDirectory(at: worktree, withIntermediateDirectories: true)
        try Data("gitdir: elsewhere\n".utf8).write(to: scratch.appendingPathComponent("worktree/.git"))
        #expect(RulesFile.find(from: worktree.path) == nil)
        // Outside a repository, the search goes on up to /.
        let outside = scratch.appendingPathComponent("plain/a")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        #expect(RulesFile.find(from: outside.path) == scratch.appendingPathComponent(RulesFile.fileName).path)
    }

    @Test func readingPlacesTheGlobsInTheFilesFolder() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("config"), withIntermediateDirectories: true)
        try Data(#"{"files": {"*.csv": {"id": "sku"}}}"#.utf8).write(to: scratch.appendingPathComponent("config/rules.json"))
        let rules = try RulesFile.read("config/rules.json", workingDirectory: scratch.path, options: Self.options)
        #expect(rules.folder == scratch.appendingPathComponent("config").path)
        #expect(rules.entry(for: "config/a.csv", workingDirectory: scratch.path) != nil)
        #expect(rules.entry(for: "a.csv", workingDirectory: scratch.path) == nil)
        #expect(throws: InputError.self) { try RulesFile.read("missing.json", workingDirectory: scratch.path, options: Self.options) }
    }
}
