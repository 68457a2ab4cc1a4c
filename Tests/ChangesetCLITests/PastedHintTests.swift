import Foundation
import Testing

/// Every hint that names an option with a field is an option that runs:
/// copied from the tool's output and pasted into a shell (`bash -c`), it
/// names that field, whatever the field's name holds: `=` (which ends OLD in
/// `--rename`), `,` and `.` (a list, a path), spaces, quotes, `*`, `?` and
/// `[` (patterns in `--ignore`), a backslash, a leading `-` (an option to the
/// argument parser), `$` (a shell expansion) and a tab (shown escaped).
@Suite struct PastedHintTests {
    /// A field name and, for a name holding pattern characters, a sibling
    /// the unescaped pattern would also match (else "other").
    static let names: [(name: String, decoy: String)] = [
        ("a=b", "other"), ("a,b", "other"), ("a.b", "other"), ("a b", "other"), ("it's", "other"), (#"say "hi""#, "other"),
        ("a*b", "aXb"), (#"back\slash"#, "other"), ("-dash", "other"), ("q?x", "qQx"), ("[x]", "x"), ("tab\tname", "other"),
        ("$HOME", "other"), (" lead", "other"),
    ]

    /// `name` typed as a path option takes it (`.`, `,`, `\` escaped; `=` too
    /// for `--rename`), with "zz" in front: a typo two letters away.
    static func typo(_ name: String) -> String {
        var typed = "zz"
        for character in name {
            if ".,\\=".contains(character) { typed.append("\\") }
            typed.append(character)
        }
        return typed
    }

    /// A JSON array of records, each a list of (name, JSON value) in order.
    static func json(_ records: [[(String, String)]]) -> String {
        func string(_ text: String) -> String {
            var quoted = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": quoted += "\\\""
                case "\\": quoted += "\\\\"
                case _ where scalar.value < 0x20: quoted += String(format: "\\u%04x", scalar.value)
                default: quoted.unicodeScalars.append(scalar)
                }
            }
            return quoted + "\""
        }
        return "[" + records.map { "{" + $0.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}" }.joined(separator: ",\n") + "]\n"
    }

    static func files(_ old: [[(String, String)]], _ new: [[(String, String)]]) throws -> URL {
        let scratch = try scratchDirectory()
        try json(old).write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try json(new).write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        return scratch
    }

    /// The text of `output` between `start` and the last `end` after it.
    static func suggestion(in output: String, after start: String, before end: String) -> String? {
        guard let from = output.range(of: start), let to = output.range(of: end, options: .backwards, range: from.upperBound..<output.endIndex) else {
            return nil
        }
        return String(output[from.upperBound..<to.lowerBound])
    }

    /// `changeset old.json new.json WORDS`, the words as a shell reads them (a suggestion pasted).
    static func pasted(_ words: String, in directory: URL) throws -> CommandResult {
        let quotedBinary = "'" + changesetBinary.path.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        var result = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", "\(quotedBinary) old.json new.json \(words)"], in: directory)
        result.arguments = ["old.json", "new.json", words]
        return result
    }

    @Test func theSuggestedRenameRunsForEveryName() throws {
        for (name, _) in Self.names + [("", "other")] {
            // Both ways: the odd name removed, and the odd name added.
            for (oldName, newName) in [(name, "renamed"), ("before", name)] {
                let scratch = try Self.files(
                    [[("id", "1"), (oldName, #""v1""#), ("other", "1")], [("id", "2"), (oldName, #""v2""#), ("other", "1")]],
                    [[("id", "1"), (newName, #""v1""#), ("other", "1")], [("id", "2"), (newName, #""v2""#), ("other", "2")]])
                defer { try? FileManager.default.removeItem(at: scratch) }
                let report = try changeset(["old.json", "new.json", "--id", "id"], in: scratch)
                let rename = Self.suggestion(in: report.stdout, after: "values equal); ", before: " compares them as one field")
                #expect(rename?.hasPrefix("--rename ") == true, "\(name.debugDescription): \(report)")
                guard let rename else { continue }
                let run = try Self.pasted("--id id \(rename)", in: scratch)
                #expect(run.status == 1 && run.stdout.contains("\nrenamed: ") && !run.stdout.contains("looks renamed"), "\(name.debugDescription): \(run)")
                // The only change left is the one to "other".
                #expect(run.stdout.contains("fields: other 1\n"), "\(name.debugDescription): \(run)")
            }
        }
    }

    /// `--rename OLD=NEW` splits at the first `=` that no backslash escapes.
    @Test func aRenameOfANameHoldingAnEqualsSignIsWrittenWithABackslash() throws {
        let scratch = try Self.files([[("id", "1"), ("a=b", "5")]], [[("id", "1"), ("c", "5")]])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let escaped = try changeset(["old.json", "new.json", "--id", "id", "--rename", #"a\=b=c"#], in: scratch)
        #expect(escaped.status == 0 && escaped.stdout.contains("renamed: a=b -> c\n"), "\(escaped)")
        // Unescaped, the first = ends OLD: the field "a", which no record has.
        let unescaped = try changeset(["old.json", "new.json", "--id", "id", "--rename", "a=b=c"], in: scratch)
        #expect(unescaped.status == 2 && unescaped.stderr.hasPrefix(#"changeset: --rename a=b\=c: no record of old.json has the field "a""#), "\(unescaped)")
        let lone = try changeset(["old.json", "new.json", "--id", "id", "--rename", #"a\=b"#], in: scratch)
        #expect(lone.status == 2 && lone.stderr.contains(#"write OLD=NEW, the old snapshot's field name, then the new one's (an = in a name is written \=)"#), "\(lone)")
    }

    @Test func didYouMeanNamesTheFieldAsEachOptionTakesIt() throws {
        for (name, decoy) in Self.names {
            // `name` and its decoy change; other options leave the decoy alone.
            let scratch = try Self.files(
                [[("id", "1"), (name, "1.0"), (decoy, #""a""#)], [("id", "2"), (name, "2.0"), (decoy, #""b""#)]],
                [[("id", "1"), (name, "1.05"), (decoy, #""A""#)], [("id", "2"), (name, "2.0"), (decoy, #""b""#)]])
            defer { try? FileManager.default.removeItem(at: scratch) }
            let typo = Self.typo(name)
            for (option, suffix, check) in [
                // Ignored, only the decoy's change is left.
                ("--ignore", "", { (run: CommandResult) in run.status == 1 && run.stdout.contains("fields: \(decoy) 1\n") }),
                // Only `name` compared: the decoy's change is not counted.
                ("--only", "", { (run: CommandResult) in run.status == 1 && run.stdout.hasPrefix("0 inserted, 0 deleted, 1 updated") && !run.stdout.contains(" \(decoy) 1") }),
                // Within the tolerance, the change to `name` is none.
                ("--tolerance", "=0.1", { (run: CommandResult) in run.status == 1 && run.stdout.contains("fields: \(decoy) 1\n") }),
            ] as [(String, String, (CommandResult) -> Bool)] {
                let wrong = try changeset(["old.json", "new.json", "--id", "id", option, typo + suffix], in: scratch)
                let meant = Self.suggestion(in: wrong.stderr, after: "did you mean ", before: "?\n")
                #expect(wrong.status == 2 && meant != nil, "\(option) \(name.debugDescription): \(wrong)")
                guard let meant else { continue }
                let run = try Self.pasted("--id id --stat \(option) \(meant)\(suffix)", in: scratch)
                #expect(check(run), "\(option) \(name.debugDescription): \(run)")
            }
            // --show: the value shown beside each id is the field's.
            let wrongShow = try changeset(["old.json", "new.json", "--id", "id", "--show", typo], in: scratch)
            if let meant = Self.suggestion(in: wrongShow.stderr, after: "did you mean ", before: "?\n") {
                let run = try Self.pasted("--id id --show \(meant)", in: scratch)
                #expect(run.status == 1 && run.stdout.contains("1.05"), "--show \(name.debugDescription): \(run)")
            } else {
                Issue.record("--show \(name.debugDescription): \(wrongShow)")
            }
            // A rename's two names, OLD's hinted from OLD's fields.
            let wrongRename = try changeset(["old.json", "new.json", "--id", "id", "--rename", typo + "=" + "renamed"], in: scratch)
            let meant = Self.suggestion(in: wrongRename.stderr, after: "did you mean ", before: "?\n")
            #expect(wrongRename.status == 2 && meant != nil, "--rename \(name.debugDescription): \(wrongRename)")
            if let meant {
                // NEW lacks "renamed": the error is now about NEW, the OLD half was right.
                let run = try Self.pasted("--id id \("--rename") \(meant)=renamed", in: scratch)
                #expect(run.status == 2 && run.stderr.contains("no record of new.json has the field \"renamed\""), "--rename \(name.debugDescription): \(run)")
            }
        }
    }

    @Test func aMistypedIdSuggestsAnIdThatRuns() throws {
        for (name, _) in Self.names {
            let scratch = try Self.files([[(name, #""k1""#), ("v", "1")], [(name, #""k2""#), ("v", "1")]],
                                         [[(name, #""k1""#), ("v", "2")], [(name, #""k2""#), ("v", "1")]])
            defer { try? FileManager.default.removeItem(at: scratch) }
            let wrong = try changeset(["old.json", "new.json", "--id", Self.typo(name)], in: scratch)
            let meant = Self.suggestion(in: wrong.stderr, after: "did you mean ", before: "?\n")
            #expect(wrong.status == 2 && meant != nil, "\(name.debugDescription): \(wrong)")
            if let meant {
                let run = try Self.pasted("--stat --id \(meant)", in: scratch)
                #expect(run.status == 1 && run.stdout.hasPrefix("0 inserted, 0 deleted, 1 updated"), "\(name.debugDescription): \(run)")
            }
            // Without --id: the field unique in both files is the key to try
            // (a name a terminal cannot show as it is, the tab, is not offered).
            let unkeyed = try changeset(["old.json", "new.json"], in: scratch)
            // (The text report says the hint on its own line, after its counts.)
            let hintLine = unkeyed.stdout.split(separator: "\n").first { $0.hasPrefix("hint: ") }.map { $0 + "\n" } ?? ""
            let key = Self.suggestion(in: hintLine, after: "try ", before: "\n")
            if name.contains("\t") {
                #expect(key == nil, "\(unkeyed)")
                continue
            }
            #expect(key?.hasPrefix("--id ") == true, "\(name.debugDescription): \(unkeyed)")
            if let key {
                let run = try Self.pasted("--stat \(key)", in: scratch)
                #expect(run.status == 1 && run.stdout.hasPrefix("0 inserted, 0 deleted, 1 updated"), "\(name.debugDescription): \(run)")
            }
        }
    }

    @Test func aRepeatedIdSuggestsACompositeIdThatRuns() throws {
        for (name, _) in Self.names where !name.contains("\t") {
            let records = [[("group", #""g""#), (name, #""k1""#)], [("group", #""g""#), (name, #""k2""#)]]
            let scratch = try Self.files(records, records)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let repeated = try changeset(["old.json", "new.json", "--id", "group"], in: scratch)
            let key = Self.suggestion(in: repeated.stderr, after: "compares them; ", before: " is unique in both files")
            #expect(repeated.status == 2 && key?.hasPrefix("--id ") == true, "\(name.debugDescription): \(repeated)")
            if let key {
                let run = try Self.pasted(key, in: scratch)
                #expect(run.status == 0 && run.stdout.hasPrefix("0 inserted, 0 deleted, 0 updated, 0 moved, 2 unchanged"), "\(name.debugDescription): \(run)")
            }
        }
    }

    /// A name holding `*`, `?` or `[` given to `--ignore` is a pattern; when
    /// it matches no field but names one, the hint writes that field itself.
    @Test func aPatternThatIsAFieldsNameSuggestsTheFieldWrittenAsItself() throws {
        let scratch = try Self.files([[("id", "1"), ("[x]", "1"), ("y", "1")]], [[("id", "1"), ("[x]", "2"), ("y", "2")]])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let pattern = try changeset(["old.json", "new.json", "--id", "id", "--ignore", "[x]"], in: scratch)
        let itself = Self.suggestion(in: pattern.stderr, after: "the field itself is written ", before: "\n")
        #expect(pattern.status == 2 && itself == "'[[]x]'", "\(pattern)")
        guard let itself else { return }
        let run = try Self.pasted("--id id --stat --ignore \(itself)", in: scratch)
        #expect(run.status == 1 && run.stdout.contains("fields: y 1\n"), "\(run)")
    }

    /// `--ignore` stops at arrays: the hint names the array, its pattern characters written as themselves.
    @Test func anArrayHintWritesTheArrayAsItself() throws {
        let scratch = try Self.files([[("id", "1"), ("a*b", #"[{"y":1}]"#), ("aXb", #"[{"y":1}]"#)]],
                                     [[("id", "1"), ("a*b", #"[{"y":2}]"#), ("aXb", #"[{"y":2}]"#)]])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let array = try changeset(["old.json", "new.json", "--id", "id", "--ignore", "a*b.y"], in: scratch)
        let whole = Self.suggestion(in: array.stderr, after: "member counts); ", before: " takes in the whole array")
        #expect(array.status == 2 && whole == "--ignore 'a[*]b'", "\(array)")
        guard let whole else { return }
        let run = try Self.pasted("--id id --stat \(whole)", in: scratch)
        #expect(run.status == 1 && run.stdout.contains("fields: aXb.y 1\n"), "\(run)")
    }

    /// A per-field tolerance reaches the members of array elements (they are
    /// compared under the path without the index), so it is no typo there.
    @Test func aToleranceForAFieldInsideArrayElementsHolds() throws {
        let scratch = try Self.files([[("id", "1"), ("t", #"[{"y":1.0},{"y":5}]"#)]], [[("id", "1"), ("t", #"[{"y":1.001},{"y":5}]"#)]])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let within = try changeset(["old.json", "new.json", "--id", "id", "--tolerance", "t.y=0.01"], in: scratch)
        #expect(within.status == 0 && within.stderr.isEmpty, "\(within)")
        let tight = try changeset(["old.json", "new.json", "--id", "id", "--tolerance", "t.y=0.0001", "--stat"], in: scratch)
        #expect(tight.status == 1 && tight.stdout.contains("fields: t.y 1\n"), "\(tight)")
        let typo = try changeset(["old.json", "new.json", "--id", "id", "--tolerance", "t.z=0.01"], in: scratch)
        #expect(typo.status == 2 && typo.stderr.hasPrefix(#"changeset: --tolerance "t.z": no record of old.json or new.json has this field"#), "\(typo)")
    }
}

extension PastedHintTests {
    /// Suggested command lines can be pasted into a shell.
    @Test func suggestionsQuoteNamesForAShell() throws {
        let directory = try scratchDirectory(holding: [
            "a.csv": "Country Code,State Code,v\nNO,03,1\nSE,01,2\nFI,02,3\n",
            "b.csv": "Country Code,iso 2,v\nNO,03,1\nSE,01,5\nDK,04,4\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let hint = try changeset(["a.csv", "b.csv"], in: directory)
        #expect(hint.stdout.contains("try --id 'Country Code'\n") && hint.stderr.isEmpty, "\(hint)")
        let keyed = try changeset(["a.csv", "b.csv", "--id", "Country Code", "--stat"], in: directory)
        #expect(keyed.stdout.contains("--rename 'State Code=iso 2' compares them as one field"), "\(keyed)")
        let markdown = try changeset(["a.csv", "b.csv", "--id", "Country Code", "--format", "markdown"], in: directory)
        #expect(markdown.stdout.contains("`--rename 'State Code=iso 2'` compares them as one field"), "\(markdown)")
    }
}
