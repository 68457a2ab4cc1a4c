import Foundation
import Testing

/// A wrong key is said as such, with what would be right: the field a typo
/// meant, the delimiter a one-column header hides, and how many ids repeat.
@Suite struct KeyHelpTests {
    @Test func aMistypedIdSuggestsTheFieldInJSONAsInCSV() throws {
        let json = try changeset(FormatTests.catalog.dropLast() + ["idd"])
        #expect(json.status == 2 && json.stderr.hasSuffix(#"the record has no "idd" field (the --id); did you mean "id"?"# + "\n"), "\(json)")
        let csv = try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "idd"])
        #expect(csv.status == 2 && csv.stderr.hasSuffix(#"no "idd" column for --id; did you mean "id"?"# + "\n"), "\(csv)")
        let far = try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "isbn"])
        #expect(far.status == 2 && far.stderr.contains("the columns are: id, title, author"), "\(far)")
    }

    @Test func aHeaderThatIsOneColumnSuggestsItsSeparator() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("sku;name\n1;a\n".utf8).write(to: scratch.appendingPathComponent("semi.csv"))
        try Data("sku\tname\n1\ta\n".utf8).write(to: scratch.appendingPathComponent("tabs.csv"))
        let semi = try changeset(["semi.csv", "semi.csv", "--id", "sku"], in: scratch)
        #expect(semi.status == 2 && semi.stderr.contains(#"the header is one column, "sku;name": if the fields are separated by ';', give --delimiter ';'"#), "\(semi)")
        #expect(try changeset(["semi.csv", "semi.csv", "--id", "sku", "--delimiter", ";"], in: scratch).status == 0)
        let tabs = try changeset(["tabs.csv", "tabs.csv", "--id", "sku"], in: scratch)
        #expect(tabs.status == 2 && tabs.stderr.contains("if the fields are separated by tabs, give --input-format tsv"), "\(tabs)")
        #expect(try changeset(["tabs.csv", "tabs.csv", "--id", "sku", "--input-format", "tsv"], in: scratch).status == 0)
    }

    @Test func aRepeatedIdSaysHowManyRepeatAndWhatWouldDo() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A country code is no key for a list of cities: 2 codes repeat, in 5 of 6 rows.
        try Data("country,city\nNO,Oslo\nSE,Lund\nNO,Bergen\nFI,Oulu\nSE,Malmo\nSE,Umea\n".utf8).write(to: scratch.appendingPathComponent("cities.csv"))
        let wrong = try changeset(["cities.csv", "cities.csv", "--id", "country"], in: scratch)
        #expect(wrong.status == 2, "\(wrong)")
        #expect(wrong.stderr == "changeset: cities.csv:4:1: duplicate id \"NO\": the record at line 2 has it too; 2 ids repeat, in 5 of the 6 records. "
            + "An --id that is unique (several fields: --id a,b) or --duplicates occurrence (the k-th copy matches the k-th) compares them; "
            + "--id country,city is unique in both files\n", "\(wrong)")
        #expect(try changeset(["cities.csv", "cities.csv", "--id", "country,city"], in: scratch).status == 0)
        #expect(try changeset(["cities.csv", "cities.csv", "--id", "country", "--duplicates", "occurrence"], in: scratch).status == 0)
    }

    /// NEW's ids are checked as its records are matched (it has no key index
    /// of its own): a repeat in NEW is the same error as in OLD, whether OLD
    /// has the id, lacks it, or has no records at all (regression: an empty
    /// OLD let a repeated id in NEW through as two insertions), and it comes
    /// before a complaint about the options.
    @Test func aRepeatedIdInNewIsAnErrorWhateverOldHolds() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("[]".utf8).write(to: scratch.appendingPathComponent("empty.json"))
        try Data(#"[{"id": 1, "v": "a"}, {"id": 2, "v": "b"}]"#.utf8).write(to: scratch.appendingPathComponent("old.json"))
        try Data("[{\"id\": 1, \"v\": \"a\"},\n{\"id\": 1, \"v\": \"b\"}]".utf8).write(to: scratch.appendingPathComponent("twice-known.json"))
        try Data("[{\"id\": 7, \"v\": \"a\"},\n{\"id\": 7, \"v\": \"b\"}]".utf8).write(to: scratch.appendingPathComponent("twice-new.json"))
        for (old, new) in [("empty.json", "twice-known.json"), ("old.json", "twice-known.json"), ("old.json", "twice-new.json")] {
            let result = try changeset([old, new, "--id", "id"], in: scratch)
            #expect(result.status == 2 && result.stderr.hasPrefix("changeset: \(new):2:1: duplicate id "), "\(old) \(new): \(result)")
            let typo = try changeset([old, new, "--id", "id", "--ignore", "vv"], in: scratch)
            #expect(typo.status == 2 && typo.stderr.hasPrefix("changeset: \(new):2:1: duplicate id "), "\(old) \(new): \(typo)")
        }
    }
}

/// Without `--id`, a key that would say more is suggested: by the text
/// report after its counts, on standard error with the other formats;
/// matching by content and the exit status stay as they are.
@Suite struct KeyHintTests {
    @Test func aFieldUniqueInBothFilesIsSuggested() throws {
        let result = try changeset(["cities/old.csv", "cities/new.csv", "--stat"])
        #expect(result.status == 1 && result.stdout.hasPrefix("1055 inserted, 1066 deleted, 0 updated"), "\(result)")
        // The text report says it after the counts (it was on standard error, after the report).
        #expect(result.stderr.isEmpty && result.stdout.split(separator: "\n")[1] == "hint: geonameid and name are unique in both files; records are matched by content without --id, "
            + "so a changed record is a deletion and an insertion: try --id geonameid", "\(result)")
        // With the key, the same files say what changed.
        let keyed = try changeset(["cities/old.csv", "cities/new.csv", "--id", "geonameid", "--stat"])
        #expect(keyed.stderr.isEmpty && keyed.stdout.hasPrefix("20 inserted, 31 deleted, 1035 updated"), "\(keyed)")
        // A name that sounds like a key comes first.
        let catalog = try changeset(["catalog/old.json", "catalog/new.json", "--stat"])
        #expect(catalog.stdout.contains("hint: id, title and author are unique in both files") && catalog.stdout.contains("try --id id\n"), "\(catalog)")
    }

    /// No one field is unique, but a pair is: the pair is the hint; and a
    /// repeated id that no field of both files makes unique gets no composite.
    @Test func aPairOfFieldsIsSuggestedWhenNoOneFieldIsUnique() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("year,country,value\n2020,NO,1\n2020,SE,1\n2021,NO,2\n".utf8).write(to: scratch.appendingPathComponent("old.csv"))
        try Data("year,country,value\n2020,NO,1\n2020,SE,1\n2021,NO,3\n2021,SE,1\n".utf8).write(to: scratch.appendingPathComponent("new.csv"))
        let result = try changeset(["old.csv", "new.csv"], in: scratch)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.isEmpty && result.stdout.split(separator: "\n")[1] == "hint: the pair year,country is unique in both files; records are matched by content without --id, "
            + "so a changed record is a deletion and an insertion: try --id year,country", "\(result)")
        let keyed = try changeset(["old.csv", "new.csv", "--id", "year,country", "--stat"], in: scratch)
        #expect(keyed.stdout.hasPrefix("1 inserted, 0 deleted, 1 updated"), "\(keyed)")
        // --id year repeats; year,country is unique in both, year,value in neither.
        let repeated = try changeset(["old.csv", "new.csv", "--id", "year"], in: scratch)
        #expect(repeated.status == 2 && repeated.stderr.hasSuffix("; --id year,country is unique in both files\n"), "\(repeated)")
        // A name a terminal would act on is never suggested.
        try Data("\u{1B}]0;t\u{07},v\n1,a\n2,a\n".utf8).write(to: scratch.appendingPathComponent("escape-old.csv"))
        try Data("\u{1B}]0;t\u{07},v\n1,a\n3,a\n".utf8).write(to: scratch.appendingPathComponent("escape-new.csv"))
        let escape = try changeset(["escape-old.csv", "escape-new.csv"], in: scratch)
        #expect(escape.status == 1 && escape.stderr.isEmpty, "\(escape)")
        // Found by review: a field whose value changed (pop) would pair fewer records than one that stays (country).
        try Data("name,pop,country\nParis,1,France\nParis,2,USA\nLyon,2,France\nLyon,3,USA\n".utf8).write(to: scratch.appendingPathComponent("cities-old.csv"))
        try Data("name,pop,country\nParis,1,France\nParis,2,USA\nLyon,5,France\nLyon,3,USA\n".utf8).write(to: scratch.appendingPathComponent("cities-new.csv"))
        let cities = try changeset(["cities-old.csv", "cities-new.csv", "--id", "name"], in: scratch)
        #expect(cities.status == 2 && cities.stderr.hasSuffix("compares them; --id name,country is unique in both files\n"), "\(cities)")
        try Data("k,v\n1,a\n1,a\n".utf8).write(to: scratch.appendingPathComponent("twins.csv"))
        let twins = try changeset(["twins.csv", "twins.csv", "--id", "k"], in: scratch)
        #expect(twins.status == 2 && twins.stderr.hasSuffix("compares them\n"), "\(twins)")
    }

    @Test func noHintWhenNothingIsUniqueOrNothingWasInsertedOrDeletedOrQuiet() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Every column repeats somewhere (or is empty): nothing to suggest.
        try Data("a,b\n1,x\n1,y\n2,\n".utf8).write(to: scratch.appendingPathComponent("o.csv"))
        try Data("a,b\n1,x\n1,z\n2,\n".utf8).write(to: scratch.appendingPathComponent("n.csv"))
        let none = try changeset(["o.csv", "n.csv"], in: scratch)
        #expect(none.status == 1 && none.stderr.isEmpty, "\(none)")
        let same = try changeset(["cities/old.csv", "cities/old.csv"])
        #expect(same.status == 0 && same.stderr.isEmpty, "\(same)")
        let quiet = try changeset(["cities/old.csv", "cities/new.csv", "-q"])
        #expect(quiet.status == 1 && quiet.stderr.isEmpty && quiet.stdout.isEmpty, "\(quiet)")
    }
}

/// A `--records-at` path the document does not have suggests the path its
/// names come closest to, one name's typo at a time.
@Suite struct RecordsAtHintTests {
    @Test func aMistypedRecordsPathSuggestsTheOneThere() throws {
        for (typo, meant) in [("data.item", "data.items"), ("dta.items", "data.items")] {
            let result = try changeset(["nested/old.json", "nested/new.json", "--id", "sku", "--records-at", typo])
            #expect(result.status == 2 && result.stderr.hasSuffix("the document has no \"\(typo)\" array of records; did you mean \"\(meant)\"?\n"), "\(result)")
        }
        let far = try changeset(["nested/old.json", "nested/new.json", "--id", "sku", "--records-at", "zzz"])
        #expect(far.status == 2 && far.stderr.hasSuffix("the document has no \"zzz\" array of records\n"), "\(far)")
    }
}

extension KeyHintTests {
    /// Past the sample, the hint says it looked at the first records only.
    @Test func theKeyHintLooksAtASample() throws {
        let rows = (0..<10_050).map { "\($0),v\($0 % 7)" }
        let directory = try scratchDirectory(holding: ["a.csv": "k,v\n" + rows.joined(separator: "\n") + "\n", "b.csv": "k,v\n" + rows.dropLast().joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try changeset(["a.csv", "b.csv", "--stat"], in: directory)
        #expect(result.stdout.contains("\nhint: k is unique in both files (in the first 10,000 records of each)"), "\(result)")
    }
}
