import Foundation
import Testing

/// A replay (`patch`, `jsonpatch`, `batch`) carries every change, so that
/// applying it rebuilds NEW; an option that counts some changes as none would
/// make it disagree with the exit status ("no differences", exit 0, beside a
/// patch that replaces values). Such an option is refused with a replay
/// format, with a reason, exit 2 and nothing written.
@Suite struct ReplayRefusesHiddenChangesTests {
    /// Pairs whose only difference the option hides, as (option words, old, new).
    static let hidden: [(options: [String], old: String, new: String)] = [
        (["--tolerance", "0.01"], #"[{"id":1,"p":1.000},{"id":2,"p":7}]"#, #"[{"id":1,"p":1.001},{"id":2,"p":7}]"#),
        (["--tolerance", "p=0.01"], #"[{"id":1,"p":1.000},{"id":2,"p":7}]"#, #"[{"id":1,"p":1.001},{"id":2,"p":7}]"#),
        (["--relative-tolerance", "0.01"], #"[{"id":1,"p":1000},{"id":2,"p":7}]"#, #"[{"id":1,"p":1001},{"id":2,"p":7}]"#),
        (["--ignore-case"], #"[{"id":1,"s":"Abc"},{"id":2,"s":"x"}]"#, #"[{"id":1,"s":"abc"},{"id":2,"s":"x"}]"#),
        (["--ignore-whitespace"], #"[{"id":1,"s":"a b"},{"id":2,"s":"x"}]"#, #"[{"id":1,"s":" a  b"},{"id":2,"s":"x"}]"#),
        (["--loose-types"], #"[{"id":1,"q":"3"},{"id":2,"q":4}]"#, #"[{"id":1,"q":3},{"id":2,"q":4}]"#),
        (["--ignore-order"], #"[{"id":1,"p":1},{"id":2,"p":2}]"#, #"[{"id":2,"p":2},{"id":1,"p":1}]"#),
    ]

    static func files(_ old: String, _ new: String) throws -> URL {
        let scratch = try scratchDirectory()
        try old.write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try new.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        return scratch
    }

    @Test func aReplayFormatRefusesAnOptionThatCountsAChangeAsNone() throws {
        for (options, old, new) in Self.hidden {
            let scratch = try Self.files(old, new)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let base = ["old.json", "new.json", "--id", "id"]
            // The report honours the option: no differences.
            let report = try changeset(base + options, in: scratch)
            #expect(report.status == 0 && report.stdout.hasPrefix("0 inserted, 0 deleted, 0 updated, 0 moved, 2 unchanged\n"), "\(options): \(report)")
            for format in ["patch", "jsonpatch", "batch"] {
                let noun = format == "batch" ? "batch" : "patch"
                let what = format == "batch"
                    ? "turns a table of OLD into NEW, so it reloads and moves every record that changed"
                    : "rebuilds NEW exactly, so it carries every change"
                let refused = try changeset(base + options + ["--format", format], in: scratch)
                #expect(refused.status == 2 && refused.stdout.isEmpty, "\(options) \(format): \(refused)")
                #expect(refused.stderr == "changeset: --format \(format) \(what), but \(options[0]) counts some changes as none, "
                        + "and a \(noun) cannot: make the \(noun) without it (a report format shows what it hides)\n", "\(options) \(format): \(refused)")
                // Nothing is written to -o, and -q refuses as a run that writes would.
                let toFile = try changeset(base + options + ["--format", format, "-o", "out"], in: scratch)
                #expect(toFile.status == 2 && !FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out").path), "\(toFile)")
                let quiet = try changeset(base + options + ["--format", format, "-q"], in: scratch)
                #expect(quiet.status == 2, "\(options) \(format): \(quiet)")
            }
        }
    }

    @Test func severalOptionsAreNamedTogether() throws {
        let (_, old, new) = Self.hidden[0]
        let scratch = try Self.files(old, new)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let refused = try changeset(["old.json", "new.json", "--id", "id", "--tolerance", "1", "--ignore-case", "--ignore-order", "--format", "patch"], in: scratch)
        #expect(refused.status == 2 && refused.stderr.contains("but --tolerance, --ignore-case and --ignore-order count some changes as none, "
            + "and a patch cannot: make the patch without them (a report format shows what they hide)\n"), "\(refused)")
    }

    /// Made without the option, each replay carries the change, and the exit status says there is one.
    @Test func withoutTheOptionTheReplayRebuildsNewAndTheExitStatusAgrees() throws {
        for (options, old, new) in Self.hidden {
            let scratch = try Self.files(old, new)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let base = ["old.json", "new.json", "--id", "id"]
            let patch = try changeset(base + ["--format", "patch", "-o", "p.patch"], in: scratch)
            #expect(patch.status == 1, "\(options): \(patch)")
            let applied = try changeset(["apply", "old.json", "p.patch", "-o", "rebuilt.json"], in: scratch)
            #expect(applied.status == 0, "\(options): \(applied)")
            let rebuilt = try String(contentsOf: scratch.appendingPathComponent("rebuilt.json"), encoding: .utf8)
            #expect(try changeset(["rebuilt.json", "new.json", "--id", "id", "-q"], in: scratch).status == 0, "\(options): \(rebuilt)")
            let jsonPatch = try changeset(base + ["--format", "jsonpatch"], in: scratch)
            #expect(jsonPatch.status == 1, "\(options): \(jsonPatch)")
            try expectJSONPatch(jsonPatch.stdout, turns: scratch.appendingPathComponent("old.json"), into: scratch.appendingPathComponent("new.json"), recordsAt: [])
            let batch = try changeset(base + ["--format", "batch"], in: scratch)
            #expect(batch.status == 1, "\(options): \(batch)")
            let expected = options == ["--ignore-order"] ? #""moved": [[[0,1],[0,0]]]"# : #""reloaded": [[0,0]]"#
            #expect(batch.stdout.contains(expected), "\(options): \(batch)")
        }
    }

    /// Where a side is CSV, every value compares by its text anyway, so
    /// `--loose-types` changes nothing and a replay takes it.
    @Test func looseTypesIsTakenWhereItChangesNothing() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try "id,q\n1,3\n2,4\n".write(to: scratch.appendingPathComponent("old.csv"), atomically: true, encoding: .utf8)
        try "id,q\n1,5\n2,4\n".write(to: scratch.appendingPathComponent("new.csv"), atomically: true, encoding: .utf8)
        let patch = try changeset(["old.csv", "new.csv", "--id", "id", "--loose-types", "--format", "patch", "-o", "p.patch"], in: scratch)
        #expect(patch.status == 1, "\(patch)")
        let applied = try changeset(["apply", "old.csv", "p.patch"], in: scratch)
        #expect(applied.status == 0 && applied.stdout == "id,q\n1,5\n2,4\n", "\(applied)")
    }
}
