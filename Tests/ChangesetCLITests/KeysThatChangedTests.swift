import Foundation
import Testing

/// Issue 34, point 8: keys that changed. A record whose key was corrected
/// (`Terrant County College` -> `Tarrant County College`, a zip code
/// `1234` -> `01234`) shows as a deletion and an insertion; the report says
/// such pairs look re-keyed, and changes no count, change or exit status.
@Suite struct RekeyedRecordsTests {
    /// Universities keyed by `name`: two names corrected (their records
    /// otherwise equal), one record updated, one gone and one new, and two
    /// identical records renamed (`Twin A`, `Twin B` -> `Twin C`, `Twin D`):
    /// a content two records share is ambiguous and pairs none.
    static let universities = [
        ("old.csv", """
            name,city,state,latitude,longitude,enrollment
            Abilene Christian University,Abilene,TX,32.4687,-99.7088,5000
            Terrant County College,Fort Worth,TX,32.7555,-97.3308,50000
            Terrant County College South,Fort Worth,TX,32.6601,-97.3121,12000
            Rice University,Houston,TX,29.7174,-95.4018,8000
            Twin A,Austin,TX,30.1,-97.1,100
            Twin B,Austin,TX,30.1,-97.1,100
            Old Gone College,Waco,TX,31.5,-97.1,300

            """),
        ("new.csv", """
            name,city,state,latitude,longitude,enrollment
            Abilene Christian University,Abilene,TX,32.4687,-99.7088,5100
            Tarrant County College,Fort Worth,TX,32.7555,-97.3308,50000
            Tarrant County College South,Fort Worth,TX,32.6601,-97.3121,12000
            Rice University,Houston,TX,29.7174,-95.4018,8000
            Twin C,Austin,TX,30.1,-97.1,100
            Twin D,Austin,TX,30.1,-97.1,100
            New College,Dallas,TX,32.8,-96.8,700

            """),
    ]

    static let universitiesNote = "looks re-keyed: 2 of the 5 deleted records equal an inserted record in every field but the id "
        + "(\"Terrant County College\" -> \"Tarrant County College\", \"Terrant County College South\" -> \"Tarrant County College South\"); "
        + "each still counts as a deletion and an insertion"

    /// A CSV row is hashed from its cells' bytes, a JSON record from its
    /// value: the two agree, so a pair is found whether a side quotes its
    /// cells or not, spells its numbers as CSV does, or is JSON.
    @Test func pairsAreFoundAcrossQuotingAndFormats() throws {
        let old = ("old.csv", "zip,city,pop,note\n1234,Agawam,28000,\n2345,\"Boston, MA\",650000,x\n")
        let quoted = ("new.csv", "\"zip\",\"city\",\"pop\",\"note\"\n\"01234\",\"Agawam\",\"28000\",\"\"\n\"02345\",\"Boston, MA\",\"650000\",\"x\"\n")
        let json = ("new.json", #"[{"zip": "01234", "city": "Agawam", "pop": 28000}, {"zip": "02345", "city": "Boston, MA", "pop": 650000, "note": "x"}]"#)
        for new in [quoted, json] {
            let paths = try scratchFiles([old, new])
            let result = try changeset(paths + ["--id", "zip"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.contains(#"looks re-keyed: 2 of the 2 deleted records equal an inserted record in every field but the id ("1234" -> "01234", "2345" -> "02345")"#), "\(new.0): \(result)")
        }
    }

    @Test func correctedNamesLookReKeyedInEveryReportFormat() throws {
        let paths = try scratchFiles(Self.universities)
        let text = try changeset(paths + ["--id", "name"])
        #expect(text.status == 1, "\(text)")
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The counts and the changes are as without the note: 5 and 5, each change listed.
        #expect(lines.first == "5 inserted, 5 deleted, 1 updated, 0 moved, 1 unchanged", "\(text)")
        #expect(lines.contains(Self.universitiesNote), "\(text)")
        #expect(lines.filter { $0.hasPrefix("deleted ") }.count == 5 && lines.filter { $0.hasPrefix("inserted ") }.count == 5, "\(text)")
        // The note comes before the list of changes.
        #expect((lines.firstIndex(of: Self.universitiesNote) ?? .max) < (lines.firstIndex { $0.hasPrefix("deleted ") } ?? -1), "\(text)")
        #expect(!text.stdout.contains("Twin A\" ->"), "an ambiguous content pairs none: \(text)")

        let json = try changeset(paths + ["--id", "name", "--format", "json"])
        #expect(json.status == 1, "\(json)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["deleted"] as? Int == 5 && summary["inserted"] as? Int == 5)
        let rekeyed = try #require(summary["rekeyed"] as? [String: Any], "\(json)")
        #expect(rekeyed["records"] as? Int == 2)
        let examples = try #require(rekeyed["examples"] as? [[String: String]])
        #expect(examples == [["old": "Terrant County College", "new": "Tarrant County College"],
                             ["old": "Terrant County College South", "new": "Tarrant County College South"]], "\(json)")
        #expect((document["changes"] as? [Any])?.count == 11)
        // The member is in the report's published schema.
        let valid = try JSONSchemaTests.validate([json.stdout], against: "report.schema.json")
        #expect(valid.status == 0, "\(valid)")

        let markdown = try changeset(paths + ["--id", "name", "--format", "markdown"])
        #expect(markdown.status == 1 && markdown.stdout.contains(
            "_looks re-keyed: 2 of the 5 deleted records equal an inserted record in every field but the id "
                + "(`\"Terrant County College\"` -> `\"Tarrant County College\"`, "), "\(markdown)")
        let html = try changeset(paths + ["--id", "name", "--format", "html"])
        #expect(html.status == 1 && html.stdout.contains(
            "<p class=\"cut\" id=\"rekeyed\">looks re-keyed: 2 of the 5 deleted records equal an inserted record in every field but the id "
                + "(&quot;Terrant County College&quot; -&gt; &quot;Tarrant County College&quot;, "), "\(html)")
        // --stat says it too; --quiet prints nothing and keeps the status.
        let stat = try changeset(paths + ["--id", "name", "--stat"])
        #expect(stat.stdout.contains(Self.universitiesNote), "\(stat)")
        let quiet = try changeset(paths + ["--id", "name", "-q"])
        #expect(quiet.status == 1 && quiet.stdout.isEmpty, "\(quiet)")
    }

    /// 60 zip codes gained a leading zero (CSV ids compare as text): each is
    /// a deletion and an insertion, and all 60 look re-keyed; the note shows
    /// the first three pairs. The partitioned comparison (--memory-limit)
    /// says the same.
    @Test func zipCodesThatGainedLeadingZerosLookReKeyed() throws {
        var old = "zip,city,state,population\n", new = old
        for zip in 1000..<1060 {
            old += "\(zip),City\(zip),MA,\(zip * 3)\n"
            new += "0\(zip),City\(zip),MA,\(zip * 3)\n"
        }
        for zip in 20000..<20010 {
            old += "\(zip),Town\(zip),NY,\(zip)\n"
            new += "\(zip),Town\(zip),NY,\(zip + (zip == 20003 ? 1 : 0))\n"
        }
        let paths = try scratchFiles([("zips-old.csv", old), ("zips-new.csv", new)])
        let note = "looks re-keyed: 60 of the 60 deleted records equal an inserted record in every field but the id "
            + "(\"1000\" -> \"01000\", \"1001\" -> \"01001\", \"1002\" -> \"01002\", …); each still counts as a deletion and an insertion"
        let inMemory = try changeset(paths + ["--id", "zip", "--stat"])
        #expect(inMemory.status == 1 && inMemory.stdout.hasPrefix("60 inserted, 60 deleted, 1 updated, 0 moved, 9 unchanged\n"), "\(inMemory)")
        #expect(inMemory.stdout.contains(note + "\n"), "\(inMemory)")
        let spill = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: spill) }
        // (--memory-limit 1 compares in partitions: a patch is refused there.)
        let partitionedPatch = try changeset(paths + ["--id", "zip", "--format", "patch", "--memory-limit", "1"], environment: ["TMPDIR": spill.path])
        #expect(partitionedPatch.status == 2 && partitionedPatch.stderr.contains("--memory-limit"), "\(partitionedPatch)")
        let partitioned = try changeset(paths + ["--id", "zip", "--memory-limit", "1"], environment: ["TMPDIR": spill.path])
        let whole = try changeset(paths + ["--id", "zip"])
        #expect(partitioned.status == 1 && partitioned.stdout == whole.stdout && whole.stdout.contains(note), "\(partitioned)")
    }

    /// With `--section`, records pair within their section: `A2` (north)
    /// and `B9` (south) are equal but for the id and the section, and are no pair.
    @Test func reKeyedRecordsPairWithinTheirSection() throws {
        let paths = try scratchFiles([
            ("old.json", """
                [{"region":"north","code":"A1","name":"x","v":1},
                 {"region":"south","code":"B1","name":"y","v":2},
                 {"region":"north","code":"A2","name":"same","v":3},
                 {"region":"south","code":"B2","name":"keep","v":4}]
                """),
            ("new.json", """
                [{"region":"north","code":"a1","name":"x","v":1},
                 {"region":"south","code":"b1","name":"y","v":2},
                 {"region":"south","code":"B9","name":"same","v":3},
                 {"region":"south","code":"B2","name":"keep","v":4}]
                """),
        ])
        let sectioned = try changeset(paths + ["--id", "code", "--section", "region", "--stat"])
        #expect(sectioned.stdout.contains("looks re-keyed: 2 of the 3 deleted records equal an inserted record in every field but the id "
            + "(\"A1\" -> \"a1\", \"B1\" -> \"b1\");"), "\(sectioned)")
        // A composite key is written as the text report writes an id: its parts joined by commas.
        let composite = try changeset(paths + ["--id", "region,code", "--stat"])
        #expect(composite.stdout.contains("(\"north,A1\" -> \"north,a1\", \"south,B1\" -> \"south,b1\", \"north,A2\" -> \"south,B9\")"), "\(composite)")
        let json = try changeset(paths + ["--id", "region,code", "--format", "json"])
        #expect(json.stdout.contains("\"rekeyed\":{\"records\":3,\"examples\":[{\"old\":[\"north\",\"A1\"],\"new\":[\"north\",\"a1\"]}"), "\(json)")
    }

    /// A field `--ignore` leaves out, or one only NEW has (a schema change,
    /// said once), does not keep a pair apart: they compare as the report does.
    @Test func ignoredAndAddedFieldsDoNotKeepAPairApart() throws {
        let paths = try scratchFiles([
            ("old.csv", "id,name,updated\n1,a,2020\n2,b,2020\n"),
            ("new.csv", "id,name,updated,extra\n01,a,2021,x\n2,b,2020,y\n"),
        ])
        let note = "looks re-keyed: 1 of the 1 deleted record equals an inserted record in every field but the id (\"1\" -> \"01\"); "
            + "each still counts as a deletion and an insertion\n"
        let ignoring = try changeset(paths + ["--id", "id", "--ignore", "updated", "--stat"])
        #expect(ignoring.stdout == "1 inserted, 1 deleted, 0 updated, 0 moved, 1 unchanged\nschema: added extra (2 records)\n" + note, "\(ignoring)")
        let comparing = try changeset(paths + ["--id", "id", "--stat"])
        #expect(!comparing.stdout.contains("re-keyed"), "\(comparing)")
    }

    /// Nothing deleted, or no pair equal but for the id: no note (and a
    /// value changed besides the key is an ordinary deletion and insertion).
    @Test func noNoteWithoutAPairEqualButForTheId() throws {
        let paths = try scratchFiles([
            ("old.csv", "id,name,v\n1,a,1\n2,b,2\n3,c,3\n"),
            ("new.csv", "id,name,v\n1,a,1\n20,b,9\n3,c,3\n4,d,4\n"),
        ])
        let changed = try changeset(paths + ["--id", "id"])
        #expect(changed.status == 1 && !changed.stdout.contains("re-keyed"), "\(changed)")
        let json = try changeset(paths + ["--id", "id", "--format", "json"])
        #expect(!json.stdout.contains("rekeyed"), "\(json)")
        let same = try changeset([paths[0], paths[0], "--id", "id"])
        #expect(same.status == 0 && !same.stdout.contains("re-keyed"), "\(same)")
        // Records that are nothing but their id (or only empty cells besides) are no pair: nothing says they are one record.
        let bare = try scratchFiles([("old.json", #"[{"id":1},{"id":3,"note":""}]"#), ("new.json", #"[{"id":2},{"id":4,"note":""}]"#)])
        let onlyIds = try changeset(bare + ["--id", "id", "--stat"])
        #expect(onlyIds.stdout == "2 inserted, 2 deleted, 0 updated, 0 moved, 0 unchanged\n", "\(onlyIds)")
    }
}

/// The key hint without `--id` (issue 34, point 8): it proposed `--id
/// latitude`, a float, and printed it on standard error after 29,026 lines
/// of report. A float never makes a key; integer and text fields named like
/// keys come first; and the text report says it after its summary line.
@Suite struct KeyHintWhereSeenTests {
    /// Universities without `--id`: `latitude` and `longitude` are unique in
    /// both files (floats), `name` too (text), and a few names were
    /// corrected, so the floats share more values between the files than
    /// `name` does (which made `--id latitude` the hint): the hint is `--id
    /// name`, on the report's second line, before the first change.
    @Test func theHintIsNameNotAFloatAndComesFirst() throws {
        var old = "name,city,latitude,longitude,enrollment\n", new = old
        for index in 0..<200 {
            old += "University \(index),City \(index % 7),\(29 + Double(index) / 1000),\(-97 - Double(index) / 997),\(1000 + index)\n"
            new += "University \(index)\(index % 50 == 1 ? " (corrected)" : ""),City \(index % 7),\(29 + Double(index) / 1000),\(-97 - Double(index) / 997),\(1000 + index + (index % 3 == 0 ? 5 : 0))\n"
        }
        let paths = try scratchFiles([("universities-old.csv", old), ("universities-new.csv", new)])
        let hint = "hint: name is unique in both files; records are matched by content without --id, "
            + "so a changed record is a deletion and an insertion: try --id name"
        let text = try changeset(paths)
        #expect(text.status == 1, "\(text)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count > 100 && lines[0] == "70 inserted, 70 deleted, 0 updated, 0 moved, 130 unchanged" && lines[1] == hint, "\(text)")
        #expect(text.stderr.isEmpty && !text.stdout.contains("latitude is unique") && !text.stdout.contains("--id latitude"), "\(text)")
        // --stat, the text report's counts, says it too.
        let stat = try changeset(paths + ["--stat"])
        #expect(stat.stdout == lines[0] + "\n" + hint + "\n" && stat.stderr.isEmpty, "\(stat)")
        // A format for programs keeps its output as it was: the hint goes to standard error.
        let json = try changeset(paths + ["--format", "json"])
        #expect(json.status == 1 && !json.stdout.contains("hint") && json.stderr == "changeset: " + hint + "\n", "\(json)")
        // With the key, no hint; the corrected names that changed nothing else look re-keyed.
        let keyed = try changeset(paths + ["--id", "name", "--stat"])
        #expect(keyed.stdout == "4 inserted, 4 deleted, 66 updated, 0 moved, 130 unchanged\nfields: enrollment 66\n"
            + "  enrollment: numbers changed by 5 at most, 5 on average (66 records)\n"
            + "looks re-keyed: 3 of the 4 deleted records equal an inserted record in every field but the id (\"University 1\" -> "
            + "\"University 1 (corrected)\", \"University 101\" -> \"University 101 (corrected)\", \"University 151\" -> "
            + "\"University 151 (corrected)\"); each still counts as a deletion and an insertion\n" && keyed.stderr.isEmpty, "\(keyed)")
    }

    /// When only floats are unique, none is proposed: a pair of fields that
    /// every record fills is, or nothing.
    @Test func aFloatIsNeverTheHint() throws {
        let paths = try scratchFiles([
            ("old.csv", "lat,lon,kind\n1.5,2.5,a\n1.25,3.5,a\n"),
            ("new.csv", "lat,lon,kind\n1.5,2.5,a\n1.25,3.5,b\n"),
        ])
        let result = try changeset(paths)
        #expect(result.status == 1 && !result.stdout.contains("hint") && result.stderr.isEmpty, "\(result)")
    }

    /// Names like keys come first: `countryCode`, `ISO3`, `user_id`,
    /// `geonameid` before a text field that is unique too; an integer key
    /// with leading zeros (`00123`) is an integer, not a float.
    @Test func fieldsNamedLikeKeysComeFirst() throws {
        for (key, values) in [("countryCode", ["NO", "SE", "DK"]), ("ISO3", ["NOR", "SWE", "DNK"]), ("user_id", ["00123", "00124", "00125"]),
                              ("geonameid", ["1", "2", "3"]), ("RecordKey", ["k1", "k2", "k3"])] {
            let old = "label,\(key),score\n" + values.enumerated().map { "L\($0.offset),\($0.element),0" }.joined(separator: "\n") + "\n"
            let new = "label,\(key),score\n" + values.enumerated().map { "L\($0.offset),\($0.element),\($0.offset == 1 ? 5 : 0)" }.joined(separator: "\n") + "\n"
            let paths = try scratchFiles([("old.csv", old), ("new.csv", new)])
            let result = try changeset(paths + ["--stat"])
            #expect(result.stdout.contains("hint: \(key) and label are unique in both files;") && result.stdout.hasSuffix("try --id \(key)\n"),
                    "\(key): \(result)")
        }
    }
}

/// A merge refuses `--duplicates occurrence`, so its repeated-id error must
/// not advise it (issue 34, point 8): it advises an `--id` unique in each
/// file (the one the comparison finds, when there is one) or removing the
/// repeated record. A diff keeps its own advice.
@Suite struct MergeDuplicateAdviceTests {
    static let files = [
        ("base.csv", "id,date,v\n1,2020,a\n1,2021,b\n2,2020,c\n"),
        ("ours.csv", "id,date,v\n1,2020,a\n1,2021,B\n2,2020,c\n"),
        ("theirs.csv", "id,date,v\n1,2020,a\n1,2021,b\n2,2020,C\n"),
    ]

    @Test func mergeAdvisesOnlyWhatItAccepts() throws {
        let paths = try scratchFiles(Self.files)
        let merge = try changeset(["merge", "--id", "id"] + paths)
        #expect(merge.status == 2 && merge.stdout.isEmpty, "\(merge)")
        #expect(merge.stderr == "changeset: \(paths[0]):3:1: duplicate id \"1\": the record at line 2 has it too; it is the only repeated id. "
            + "A merge matches records by an --id unique in each file: give one (several fields: --id a,b), or remove the repeated record; "
            + "--id id,date is unique in every file\n", "\(merge)")
        #expect(!merge.stderr.contains("--duplicates"), "\(merge)")
        // What it advises, merge accepts.
        let advised = try changeset(["merge", "--id", "id,date"] + paths)
        #expect(advised.status == 0 && advised.stdout == "id,date,v\n1,2020,a\n1,2021,B\n2,2020,C\n", "\(advised)")
        // No field makes the id unique: the advice alone, still no --duplicates.
        let twice = try scratchFiles([("twice.json", "[{\"id\":1,\"v\":\"a\"},{\"id\":1,\"v\":\"a\"}]\n")])[0]
        let bare = try changeset(["merge", "--id", "id", twice, twice, twice])
        #expect(bare.status == 2 && bare.stderr.hasSuffix("give one (several fields: --id a,b), or remove the repeated record\n"), "\(bare)")
    }

    @Test func diffKeepsItsAdvice() throws {
        let paths = try scratchFiles(Self.files)
        let diff = try changeset([paths[0], paths[1], "--id", "id"])
        #expect(diff.status == 2 && diff.stderr.contains("or --duplicates occurrence (the k-th copy matches the k-th) compares them; "
            + "--id id,date is unique in both files"), "\(diff)")
    }
}
