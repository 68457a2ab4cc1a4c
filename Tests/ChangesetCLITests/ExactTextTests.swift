import Foundation
import Testing

/// Strings compare by their bytes: a change of Unicode normalisation is a
/// change in values, ids, section names and column names, in every format,
/// `-q` and merge.
@Suite struct ExactTextTests {
    @Test func aChangeOfUnicodeNormalisationIsAChangeInEveryFormatAndForQuiet() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Strings with combining marks, each as NFC in OLD and NFD in NEW, or the same in both.
        let words = ["café", "Ångström", "naïve", "Việt", "e\u{301}\u{302}", "plain"]
        var oldRecords: [String] = [], newRecords: [String] = []
        for (index, word) in words.enumerated() {
            let nfc = word.precomposedStringWithCanonicalMapping, nfd = word.decomposedStringWithCanonicalMapping
            oldRecords.append("{\"id\":\(index),\"w\":\"\(nfc)\",\"a\":[\"\(nfc)\"]}")
            newRecords.append("{\"id\":\(index),\"w\":\"\(index % 2 == 0 ? nfd : nfc)\",\"a\":[\"\(nfc)\"]}")
        }
        try writeFile("[" + oldRecords.joined(separator: ",") + "]", "old.json", in: scratch)
        try writeFile("[" + newRecords.joined(separator: ",") + "]", "new.json", in: scratch)
        let changed = words.indices.filter { index in
            let word = words[index]
            return index % 2 == 0 && Array(word.precomposedStringWithCanonicalMapping.utf8) != Array(word.decomposedStringWithCanonicalMapping.utf8)
        }.count
        let quiet = try changeset(["old.json", "new.json", "--id", "id", "-q"], in: scratch)
        #expect(quiet.status == 1)
        let stat = try changeset(["old.json", "new.json", "--id", "id", "--stat"], in: scratch)
        #expect(stat.status == 1 && stat.stdout.hasPrefix("0 inserted, 0 deleted, \(changed) updated"), "\(stat)")
        let json = try changeset(["old.json", "new.json", "--id", "id", "--format", "json"], in: scratch)
        #expect(try run("jq", ["-r", ".summary.updated"], input: json.stdout) == "\(changed)\n")
        // Each format counts the same updates; the replays are checked below by rebuilding NEW.
        for (format, count) in [("text", #"^0 inserted, 0 deleted, ([0-9]+) updated"#), ("markdown", #"\n\| updated \| ([0-9]+) \|\n"#),
                                ("html", #"id="count-updated">([0-9]+)<"#)] {
            let result = try changeset(["old.json", "new.json", "--id", "id", "--format", format], in: scratch)
            let match = try Regex(count).firstMatch(in: result.stdout)
            #expect(result.status == 1 && match?.output[1].substring.map(String.init) == "\(changed)", "\(format): \(result)")
        }
        let ndjson = try changeset(["old.json", "new.json", "--id", "id", "--format", "ndjson"], in: scratch)
        let updatedIDs = try run("jq", ["-r", "select(.kind == \"updated\") | .id"], input: ndjson.stdout)
        #expect(ndjson.status == 1 && updatedIDs == "0\n2\n4\n", "\(ndjson)")
        let jsonPatch = try changeset(["old.json", "new.json", "--id", "id", "--format", "jsonpatch"], in: scratch)
        #expect(jsonPatch.status == 1, "\(jsonPatch)")
        try expectJSONPatch(jsonPatch.stdout, turns: scratch.appendingPathComponent("old.json"), into: scratch.appendingPathComponent("new.json"), recordsAt: [])
        let patch = try changeset(["old.json", "new.json", "--id", "id", "--format", "patch", "-o", "p.patch"], in: scratch)
        #expect(patch.status == 1)
        let applied = try changeset(["apply", "old.json", "p.patch", "-o", "rebuilt.json"], in: scratch)
        #expect(applied.status == 0, "\(applied)")
        #expect(try changeset(["rebuilt.json", "new.json", "--id", "id", "-q"], in: scratch).status == 0)
        // Ids too: an NFC id and its NFD twin are two records, in the diff and in a merge.
        try writeFile("id,v\n", "base.csv", in: scratch)
        try writeFile("id,v\ncafé,1\n".precomposedStringWithCanonicalMapping, "ours.csv", in: scratch)
        try writeFile("id,v\ncafé,1\n".decomposedStringWithCanonicalMapping, "theirs.csv", in: scratch)
        let ids = try changeset(["ours.csv", "theirs.csv", "--id", "id", "--stat"], in: scratch)
        #expect(ids.stdout.hasPrefix("1 inserted, 1 deleted, 0 updated"), "\(ids)")
        let merged = try changeset(["merge", "base.csv", "ours.csv", "theirs.csv", "--id", "id"], in: scratch)
        #expect(merged.status == 0 && merged.stdout.split(separator: "\n").count == 3, "\(merged)")
        // Section names too: records whose section changed its normalisation moved to another section,
        // and two spellings in one file are two sections.
        let nfc = "café".precomposedStringWithCanonicalMapping, nfd = "café".decomposedStringWithCanonicalMapping
        try writeFile("id,s\n1,\(nfc)\n2,\(nfc)\n", "old-sections.csv", in: scratch)
        try writeFile("id,s\n1,\(nfc)\n2,\(nfd)\n", "new-sections.csv", in: scratch)
        let sections = try changeset(["old-sections.csv", "new-sections.csv", "--id", "id", "--section", "s", "--format", "json"], in: scratch)
        #expect(sections.status == 1, "\(sections)")
        #expect(try run("jq", ["-c", "[.changes[] | .kind]"], input: sections.stdout) == "[\"section-inserted\",\"moved\"]\n", "\(sections)")
        let quietSections = try changeset(["old-sections.csv", "new-sections.csv", "--id", "id", "--section", "s", "-q"], in: scratch)
        #expect(quietSections.status == 1)
    }

    @Test func anIdColumnSpelledInAnotherNormalisationIsNotFound() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data([UInt8]("cafe".utf8) + [0xCC, 0x81] + Array(",v\n1,1\n".utf8)).write(to: scratch.appendingPathComponent("a.csv"))
        let result = try changeset(["a.csv", "a.csv", "--id", "caf\u{E9}"], in: scratch)
        // Compared as bytes: Swift's == would take the two spellings of é as one.
        #expect(result.status == 2 && Array(result.stderr.utf8) == Array("changeset: a.csv:1:1: no \"caf".utf8) + [0xC3, 0xA9]
            + Array("\" column for --id; did you mean 'cafe".utf8) + [0xCC, 0x81] + Array("'?\n".utf8), "\(result)")
    }

    @Test func lookAlikeColumnsStayTwoColumnsInAMergeAndADiff() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("id\n1\n".utf8).write(to: scratch.appendingPathComponent("base.csv"))
        try Data([UInt8]("id,".utf8) + [0xC3, 0xA9] + Array("\n1,x\n".utf8)).write(to: scratch.appendingPathComponent("ours.csv"))
        try Data([UInt8]("id,e".utf8) + [0xCC, 0x81] + Array("\n1,\n2,y\n".utf8)).write(to: scratch.appendingPathComponent("theirs.csv"))
        let merged = try changeset(["merge", "base.csv", "ours.csv", "theirs.csv", "--id", "id"], in: scratch)
        #expect(merged.status == 0, "\(merged)")
        #expect(Array(merged.stdout.utf8) == Array("id,e".utf8) + [0xCC, 0x81, 0x2C, 0xC3, 0xA9] + Array("\n1,,x\n2,y,\n".utf8), "\(merged)")
        try Data([UInt8]("id,e".utf8) + [0xCC, 0x81] + Array("\n2,y\n".utf8)).write(to: scratch.appendingPathComponent("d1.csv"))
        try Data([UInt8]("id,".utf8) + [0xC3, 0xA9] + Array("\n2,y\n".utf8)).write(to: scratch.appendingPathComponent("d2.csv"))
        let diff = try changeset(["d1.csv", "d2.csv", "--id", "id", "--stat"], in: scratch)
        #expect(diff.status == 1 && diff.stdout.contains("schema: added"), "\(diff)")
    }
}
