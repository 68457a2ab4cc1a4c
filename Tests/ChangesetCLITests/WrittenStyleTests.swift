import Foundation
import Testing

/// Issue 34, points 5 and 6: what `merge` and `apply` write into a user's
/// file takes that file's style: one indentation unit at every depth (text
/// from THEIRS moved into OURS's), the quoting each CSV column uses, the
/// separators of inline arrays, the indentation of an empty array records go
/// into, and the line ends of the lines around. Each test runs the binary on
/// a small file shaped like the real case, and checks the bytes written.
@Suite struct WrittenStyleTests {
    /// The folder of the first of `paths`.
    func folder(_ paths: [String]) -> URL { URL(fileURLWithPath: paths[0]).deletingLastPathComponent() }

    /// `apply` of the patch from OLD to NEW onto OLD: its output and status.
    func applied(_ old: (String, String), _ new: (String, String), id: String, extra: [String] = []) throws -> CommandResult {
        let paths = try scratchFiles([old, new])
        let directory = folder(paths)
        let patch = try changeset([old.0, new.0, "--id", id, "--format", "patch", "-o", "p.patch"] + extra, in: directory)
        #expect(patch.status <= 1 && patch.stderr.isEmpty, "\(patch)")
        return try changeset(["apply", old.0, "p.patch"], in: directory)
    }

    /// OLD holds one record on one line, so its file shows no line break
    /// and no escaping; NEW, written alike, uses CRLF and escapes past
    /// ASCII. The patch states NEW's layout, and `apply` takes from it what
    /// OLD cannot show: the result is NEW, byte for byte.
    @Test func applyTakesWhatOldCannotShowFromThePatchsStyleLine() throws {
        let old = #"{"id": 1, "n": "a"}"#
        let new = #"{"id": 1, "n": "a"}"# + "\r\n" + #"{"id": 2, "n": "\u0141\u00f3d\u017a"}"#
        let result = try applied(("old.ndjson", old), ("new.ndjson", new), id: "id")
        #expect(result.status == 0, "\(result)")
        #expect(Array(result.stdout.utf8) == Array(new.utf8), "\(result)")
    }

    // MARK: One indentation (point 5)

    /// mledoze 4fd76bdf: THEIRS (tabs) adds a country and edits one; OURS
    /// indents with four spaces. Every line taken from THEIRS is in four spaces.
    @Test func theirsTabIndentedRecordsAreWrittenInOursFourSpaces() throws {
        let base = "[\n    {\n        \"id\": 1,\n        \"name\": \"a\",\n        \"tags\": [\n            \"x\"\n        ]\n    }\n]\n"
        let theirs = "[\n\t{\n\t\t\"id\": 1,\n\t\t\"name\": \"a\",\n\t\t\"tags\": [\n\t\t\t\"x\",\n\t\t\t\"z\"\n\t\t]\n\t},\n"
            + "\t{\n\t\t\"id\": 2,\n\t\t\"name\": \"b\",\n\t\t\"tags\": [\n\t\t\t\"y\"\n\t\t]\n\t}\n]\n"
        // OURS edits too (a side that is BASE byte for byte would give THEIRS whole).
        let ours = base.replacingOccurrences(of: "\"a\"", with: "\"A\"")
        let paths = try scratchFiles([("base.json", base), ("ours.json", ours), ("theirs.json", theirs)])
        let merged = try changeset(["merge", "--id", "id"] + paths)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == "[\n    {\n        \"id\": 1,\n        \"name\": \"A\",\n        \"tags\": [\n            \"x\",\n            \"z\"\n        ]\n    },\n"
            + "    {\n        \"id\": 2,\n        \"name\": \"b\",\n        \"tags\": [\n            \"y\"\n        ]\n    }\n]\n", "\(merged)")
    }

    /// mledoze 2715eab7, the other way: OURS indents with tabs, THEIRS with
    /// four spaces; a record both sides edited is merged field by field.
    @Test func theirsSpaceIndentedRecordsAreWrittenInOursTabs() throws {
        let base = "[\n\t{\n\t\t\"id\": 1,\n\t\t\"name\": \"a\",\n\t\t\"area\": {\n\t\t\t\"km\": 1\n\t\t}\n\t}\n]\n"
        let ours = base.replacingOccurrences(of: "\"a\"", with: "\"A\"")
        let theirs = "[\n    {\n        \"id\": 1,\n        \"name\": \"a\",\n        \"area\": {\n            \"km\": 2,\n            \"mi\": 1\n        }\n    },\n"
            + "    {\n        \"id\": 2,\n        \"name\": \"b\",\n        \"area\": {\n            \"km\": 3\n        }\n    }\n]\n"
        let paths = try scratchFiles([("base.json", base), ("ours.json", ours), ("theirs.json", theirs)])
        let merged = try changeset(["merge", "--id", "id"] + paths)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == "[\n\t{\n\t\t\"id\": 1,\n\t\t\"name\": \"A\",\n\t\t\"area\": {\n\t\t\t\"km\": 2,\n\t\t\t\"mi\": 1\n\t\t}\n\t},\n"
            + "\t{\n\t\t\"id\": 2,\n\t\t\"name\": \"b\",\n\t\t\"area\": {\n\t\t\t\"km\": 3\n\t\t}\n\t}\n]\n", "\(merged)")
        #expect(!merged.stdout.contains("    "))
    }

    /// Two spaces into four: the unit, not only the offset, changes at every depth.
    @Test func theirsTwoSpaceRecordIsWrittenInOursFourSpacesAtEveryDepth() throws {
        let base = "[\n    {\n        \"id\": 1\n    }\n]\n"
        // OURS edits too (a side that is BASE byte for byte would give THEIRS whole).
        let ours = base.replacingOccurrences(of: "\"id\": 1", with: "\"id\": 1,\n        \"x\": true")
        let theirs = "[\n  {\n    \"id\": 1\n  },\n  {\n    \"id\": 2,\n    \"a\": {\n      \"b\": [\n        1\n      ]\n    }\n  }\n]\n"
        let paths = try scratchFiles([("base.json", base), ("ours.json", ours), ("theirs.json", theirs)])
        let merged = try changeset(["merge", "--id", "id"] + paths)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == "[\n    {\n        \"id\": 1,\n        \"x\": true\n    },\n    {\n        \"id\": 2,\n        \"a\": {\n            \"b\": [\n                1\n            ]\n        }\n    }\n]\n", "\(merged)")
    }

    /// THEIRS only re-indented the file (tabs to four spaces): the merge says
    /// the result keeps OURS's layout, and exits as before.
    @Test func aSideThatOnlyReindentedIsNoted() throws {
        let base = "[\n\t{\n\t\t\"id\": 1,\n\t\t\"name\": \"a\"\n\t}\n]\n"
        let ours = base.replacingOccurrences(of: "\"a\"", with: "\"A\"")
        let theirs = "[\n    {\n        \"id\": 1,\n        \"name\": \"a\"\n    }\n]\n"
        let paths = try scratchFiles([("base.json", base), ("ours.json", ours), ("theirs.json", theirs)])
        let merged = try changeset(["merge", "--id", "id"] + paths)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == ours, "\(merged)")
        #expect(merged.stderr.contains("note: THEIRS re-indented the file (tabs -> 4 spaces); the result keeps OURS's layout"), "\(merged)")
        // OURS re-indented (four spaces to tabs), THEIRS changed a record: the result is OURS's layout, and said so.
        let oursPaths = try scratchFiles([("base.json", theirs), ("ours.json", base), ("theirs.json", theirs.replacingOccurrences(of: "\"a\"", with: "\"B\""))])
        let oursMerged = try changeset(["merge", "--id", "id"] + oursPaths)
        #expect(oursMerged.status == 0 && oursMerged.stdout == base.replacingOccurrences(of: "\"a\"", with: "\"B\""), "\(oursMerged)")
        #expect(oursMerged.stderr.contains("note: OURS re-indented the file (4 spaces -> tabs); the result keeps OURS's layout"), "\(oursMerged)")
        // Both re-indented alike: THEIRS's layout is OURS's, nothing of THEIRS to note.
        let bothPaths = try scratchFiles([("base.json", base), ("ours.json", theirs), ("theirs.json", theirs)])
        let bothMerged = try changeset(["merge", "--id", "id"] + bothPaths)
        #expect(bothMerged.status == 0 && bothMerged.stdout == theirs, "\(bothMerged)")
        #expect(!bothMerged.stderr.contains("THEIRS re-indented"), "\(bothMerged)")
        // A side that changed records as well is no re-indentation only: no note.
        let changed = theirs.replacingOccurrences(of: "\"id\": 1,", with: "\"id\": 1,\n        \"x\": 1,")
        let paths2 = try scratchFiles([("base.json", base), ("ours.json", ours), ("theirs.json", changed)])
        let merged2 = try changeset(["merge", "--id", "id"] + paths2)
        #expect(merged2.status == 0 && !merged2.stderr.contains("re-indented"), "\(merged2)")
    }

    // MARK: The rest of the file's style (point 6)

    /// dr5hn's states.csv quotes every cell with a space, in every column
    /// (a column whose first rows have none included): `apply` writes the
    /// rows it changes or adds the same way, byte for byte as the file's writer.
    @Test func csvApplyQuotesCellsWithASpaceAsTheFileDoes() throws {
        let header = "id,name,country_id,country_code,country_name,state_code,type,latitude,longitude\n"
        let old = header
            + "3901,Badakhshan,1,AF,Afghanistan,BDS,,36.73477250,70.81199530\n"
            + "3871,Badghis,1,AF,Afghanistan,BDG,,35.16713390,63.76953840\n"
            + "3875,Daykundi,1,AF,Afghanistan,DAY,,33.66949500,66.04635340\n"
            + "5003,\"Bay of Plenty\",158,NZ,\"New Zealand\",BOP,region,-38.00000000,176.50000000\n"
        let new = header
            + "3901,Badakhshan,1,AF,Afghanistan,BDS,,36.73477250,70.81199531\n"
            + "3871,\"Badghis Province\",1,AF,Afghanistan,BDG,,35.16713390,63.76953840\n"
            + "3875,Daykundi,1,AF,Afghanistan,DAY,,33.66949500,66.04635340\n"
            + "5003,\"Bay of Plenty\",158,NZ,\"New Zealand\",BOP,region,-38.00000000,176.50000000\n"
            + "5004,\"Hawke's Bay\",158,NZ,\"New Zealand\",HKB,\"regional council\",-39.60000000,176.58000000\n"
        let result = try applied(("old.csv", old), ("new.csv", new), id: "id")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == new, "\(result)")
    }

    /// A column the patch adds quotes cells with a space as the file's other
    /// columns do; the rows, written again under the new header, keep theirs.
    @Test func csvApplyQuotesANewColumnAsTheFilesOtherColumns() throws {
        let old = "id,name,country_code\n1,\"Bay of Plenty\",NZ\n2,Daykundi,AF\n"
        let new = "id,name,country_code,country_name\n1,\"Bay of Plenty\",NZ,\"New Zealand\"\n2,Daykundi,AF,Afghanistan\n"
            + "3,\"West Coast\",NZ,\"New Zealand\"\n"
        let result = try applied(("old.csv", old), ("new.csv", new), id: "id")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == new, "\(result)")
    }

    /// The same file merged with a THEIRS written without those quotes: the
    /// rows taken from THEIRS are written in OURS's quoting.
    @Test func csvMergeWritesTheirsRowsInOursQuoting() throws {
        let header = "id,name,country_code,country_name,type\n"
        let base = header + "1,Badghis,AF,Afghanistan,\n2,\"Bay of Plenty\",NZ,\"New Zealand\",region\n"
        let ours = base + "3,\"West Coast\",NZ,\"New Zealand\",region\n"
        let theirs = header + "1,Badghis Province,AF,Afghanistan,\n2,Bay of Plenty,NZ,New Zealand,regional council\n"
        let paths = try scratchFiles([("base.csv", base), ("ours.csv", ours), ("theirs.csv", theirs)])
        let merged = try changeset(["merge", "--id", "id"] + paths)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == header + "1,\"Badghis Province\",AF,Afghanistan,\n2,\"Bay of Plenty\",NZ,\"New Zealand\",\"regional council\"\n"
            + "3,\"West Coast\",NZ,\"New Zealand\",region\n", "\(merged)")
    }

    /// OURS (and BASE) a header alone, so it shows no quoting habit: THEIRS's
    /// rows stand as THEIRS quotes them, the result THEIRS byte for byte.
    @Test func csvMergeIntoAHeaderAloneKeepsTheirsQuoting() throws {
        let header = "id,name,type\n"
        let theirs = header + "1,\"Bay of Plenty\",region\n2,Daykundi,\"regional council\"\n"
        let paths = try scratchFiles([("base.csv", header), ("ours.csv", header), ("theirs.csv", theirs)])
        let merged = try changeset(["merge", "--id", "id"] + paths)
        #expect(merged.status == 0 && merged.stdout == theirs, "\(merged)")
    }

    /// mledoze d60e3c6 through a merge: OURS edits a country's name, THEIRS
    /// adds a language to its one-element array; the merged record's array is
    /// written with the file's `", "`, though its first record shows none.
    @Test func aMergedArrayGrowingFromOneElementTakesTheFilesSeparator() throws {
        let base = "[\n    {\n        \"cca2\": \"AE\",\n        \"name\": \"Emirates\",\n        \"languages\": [\"ar\"]\n    },\n"
            + "    {\n        \"cca2\": \"CH\",\n        \"name\": \"Switzerland\",\n        \"languages\": [\"de\", \"fr\"]\n    }\n]\n"
        let ours = base.replacingOccurrences(of: "\"Emirates\"", with: "\"United Arab Emirates\"")
        let theirs = base.replacingOccurrences(of: "[\"ar\"]", with: "[\"ar\", \"ku\"]")
        let paths = try scratchFiles([("base.json", base), ("ours.json", ours), ("theirs.json", theirs)])
        let merged = try changeset(["merge", "--id", "cca2"] + paths)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == ours.replacingOccurrences(of: "[\"ar\"]", with: "[\"ar\", \"ku\"]"), "\(merged)")
    }

    /// mledoze 29fda86: an inline array that grows from one element is
    /// written with the `", "` the file writes between elements elsewhere.
    @Test func anArrayGrowingFromOneElementTakesTheFilesSeparator() throws {
        let old = "[\n    {\n        \"cca2\": \"AE\",\n        \"languages\": [\"ar\"],\n        \"tld\": [\".ae\"]\n    },\n"
            + "    {\n        \"cca2\": \"CH\",\n        \"languages\": [\"de\", \"fr\", \"it\"],\n        \"tld\": [\".ch\"]\n    }\n]\n"
        let new = old.replacingOccurrences(of: "[\"ar\"]", with: "[\"ar\", \"ku\"]")
        let result = try applied(("old.json", old), ("new.json", new), id: "cca2")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == new, "\(result)")
    }

    /// A first record of one member shows no separator; the file's others
    /// write `, `, and so is a record `apply` inserts.
    @Test func separatorsAreLearntFromMoreThanTheFirstRecord() throws {
        let old = "{\"id\": 1}\n{\"id\": 2, \"name\": \"b\"}\n{\"id\": 3, \"name\": \"c\"}\n"
        let new = old + "{\"id\": 4, \"name\": \"d\"}\n"
        let result = try applied(("old.ndjson", old), ("new.ndjson", new), id: "id")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == new, "\(result)")
    }

    /// Records inserted into an empty top-level array written `[\n]` go on
    /// lines of their own, pretty-printed with two spaces (the default when
    /// the file shows no indentation).
    @Test func anInsertIntoAnEmptyArrayOnLinesIsIndented() throws {
        let new = "[\n  {\n    \"id\": 1,\n    \"name\": \"a\"\n  },\n  {\n    \"id\": 2,\n    \"name\": \"b\"\n  }\n]\n"
        let result = try applied(("old.json", "[\n]\n"), ("new.json", new), id: "id")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == new, "\(result)")
    }

    /// In a document, the empty records array takes the unit the document
    /// indents with (tabs here), one level in from its closing bracket.
    @Test func anInsertIntoAnEmptyArrayTakesTheDocumentsIndentation() throws {
        let old = "{\n\t\"items\": [\n\t]\n}\n"
        let new = "{\n\t\"items\": [\n\t\t{\n\t\t\t\"id\": 1,\n\t\t\t\"name\": \"a\"\n\t\t}\n\t]\n}\n"
        let result = try applied(("old.json", old), ("new.json", new), id: "id", extra: ["--records-at", "items"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == new, "\(result)")
    }

    /// An empty array written `[ ]` on the line of its member, in a document
    /// indented with four spaces: records go one level in from that line.
    @Test func anInsertIntoAnEmptyArrayOnOneLineTakesItsLinesIndentation() throws {
        let old = "{\n    \"meta\": {\n        \"v\": 1\n    },\n    \"items\": [ ]\n}\n"
        let new = "{\n    \"meta\": {\n        \"v\": 1\n    },\n    \"items\": [\n        {\n            \"id\": 1\n        }\n    ]\n}\n"
        let result = try applied(("old.json", old), ("new.json", new), id: "id", extra: ["--records-at", "items"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == new, "\(result)")
        let top = try applied(("old.json", "[ ]\n"), ("new.json", "[\n  {\n    \"id\": 1\n  }\n]\n"), id: "id")
        #expect(top.status == 0 && top.stdout == "[\n  {\n    \"id\": 1\n  }\n]\n", "\(top)")
    }

    /// A CSV file whose first lines end in CRLF and its last in LF: rows
    /// added at the end end in LF, as their neighbours do.
    @Test func csvRowsWrittenAmongLFLinesEndInLF() throws {
        let old = "id,name\r\n1,a\r\n2,b\n3,c\n"
        let new = old + "4,d\n5,e\n"
        let result = try applied(("old.csv", old), ("new.csv", new), id: "id")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == new, "\(result)")
    }

    /// A line the change did not touch keeps its own line end: the last
    /// row ends in CRLF where the row before it ends in LF, and a row added
    /// after it, or between the two, neither takes the other's ending nor
    /// gives its own away (the review found the last row's CRLF turned LF).
    @Test func keptLinesKeepTheirLineEndsWhenRowsGoInBesideThem() throws {
        let old = "id,a\r\n1,x\n2,y\r\n"
        let appended = try applied(("old.csv", old), ("new.csv", old + "3,z\r\n"), id: "id")
        #expect(appended.status == 0 && appended.stdout == old + "3,z\r\n", "\(appended)")
        let between = try applied(("old.csv", old), ("new.csv", "id,a\r\n1,x\n9,w\n2,y\r\n"), id: "id")
        #expect(between.status == 0 && between.stdout == "id,a\r\n1,x\n9,w\n2,y\r\n", "\(between)")
        // Deleting the middle row keeps the first row's own ending.
        let deleted = try applied(("old.csv", "id,a\r\n1,x\n2,y\r\n3,z\n"), ("new.csv", "id,a\r\n1,x\n3,z\n"), id: "id")
        #expect(deleted.status == 0 && deleted.stdout == "id,a\r\n1,x\n3,z\n", "\(deleted)")
        let json = "[\r\n  {\"id\": 1},\n  {\"id\": 2}\r\n]\r\n"
        let jsonAppended = try applied(("old.json", json), ("new.json", "[\r\n  {\"id\": 1},\n  {\"id\": 2},\r\n  {\"id\": 3}\r\n]\r\n"), id: "id")
        #expect(jsonAppended.status == 0 && jsonAppended.stdout == "[\r\n  {\"id\": 1},\n  {\"id\": 2},\r\n  {\"id\": 3}\r\n]\r\n", "\(jsonAppended)")
    }

    /// Merging with a side that is BASE byte for byte gives the other side
    /// byte for byte, even where its lines end both ways (THEIRS's new last
    /// row ends in LF after a CRLF row); a merge that changed OURS too
    /// keeps OURS's kept lines as they end.
    @Test func aMergeWithAnUnchangedSideIsTheOtherEvenWithMixedLineEnds() throws {
        let base = "id,a\r\n1,x\n2,y\r\n"
        let theirs = base + "3,z\n"
        let paths = try scratchFiles([("base.csv", base), ("ours.csv", base), ("theirs.csv", theirs)])
        let unchanged = try changeset(["merge", "--id", "id"] + paths)
        #expect(unchanged.status == 0 && unchanged.stdout == theirs, "\(unchanged)")
        let changed = try scratchFiles([("base.csv", base), ("ours.csv", "id,a\r\n1,x\n2,Y\r\n"), ("theirs.csv", theirs)])
        let both = try changeset(["merge", "--id", "id"] + changed)
        #expect(both.status == 0 && both.stdout == "id,a\r\n1,x\n2,Y\r\n3,z\r\n", "\(both)")
    }

    /// The same in JSON: a record that spans lines, inserted among LF lines
    /// of a file whose first lines end in CRLF, has LF line ends.
    @Test func jsonRecordWrittenAmongLFLinesHasLFLineEnds() throws {
        let old = "[\r\n  {\r\n    \"id\": 1\r\n  },\n  {\n    \"id\": 2\n  }\n]\n"
        let new = "[\r\n  {\r\n    \"id\": 1\r\n  },\n  {\n    \"id\": 2\n  },\n  {\n    \"id\": 3\n  }\n]\n"
        let result = try applied(("old.json", old), ("new.json", new), id: "id")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == new, "\(result)")
    }
}
