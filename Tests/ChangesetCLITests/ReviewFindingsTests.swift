import Foundation
import Testing

/// Findings of a review of the reviewing features, each kept fixed.
@Suite struct ReviewFindingsTests {
    func scratch(_ files: [String: String]) throws -> URL {
        let directory = try scratchDirectory()
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    /// `--show` takes a renamed field by either name, in old and new records alike.
    @Test func shownFieldsFollowARename() throws {
        let directory = try scratch(["m1.csv": "id,name,v\n1,a,1\n2,b,2\n3,c,3\n", "m2.csv": "id,title,v\n1,a,1\n2,b,5\n4,d,4\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["title", "name"] {
            let result = try changeset(["m1.csv", "m2.csv", "--id", "id", "--rename", "name=title", "--show", name], in: directory)
            #expect(result.status == 1, "\(result)")
            for expected in ["deleted  id 3  at 2, line 4  \(name): \"c\"", "inserted id 4  at 2, line 4  \(name): \"d\"", "updated  id 2  at 1, line 3  \(name): \"b\""] {
                #expect(result.stdout.contains(expected), "\(name): \(result.stdout)")
            }
        }
    }

    /// A CSV column with a dot in its name, against nested JSON and on its own.
    @Test func shownFieldsFindDottedColumns() throws {
        let directory = try scratch([
            "c1.csv": "id,addr.city,v\n1,Oslo,1\n2,Bergen,2\n",
            "n2.json": #"[{"id":1,"addr":{"city":"Oslo"},"v":1},{"id":2,"addr":{"city":"Bergen"},"v":3}]"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let mixed = try changeset(["c1.csv", "n2.json", "--id", "id", "--show", "addr.city"], in: directory)
        #expect(mixed.stdout.contains("addr.city: \"Bergen\"\n"), "\(mixed)")
        let csv = try changeset(["c1.csv", "c1.csv", "--id", "id", "--show", "addr.city"], in: directory)
        #expect(csv.status == 0, "\(csv)")
    }

    @Test func nestedShownFieldsAreCheckedAndPatternsStayTopLevel() throws {
        let directory = try scratch(["j1.json": #"[{"id":1,"addr":{"city":"Oslo"}}]"#, "j2.json": #"[{"id":1,"addr":{"city":"Olso"}}]"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try changeset(["j1.json", "j2.json", "--id", "id", "--show", "addr.nope"], in: directory)
        #expect(missing.status == 2 && missing.stderr.contains(#"--show "addr.nope": no record of j1.json or j2.json has this field"#), "\(missing)")
        let pattern = try changeset(["j1.json", "j2.json", "--id", "id", "--show", "addr.*"], in: directory)
        #expect(pattern.status == 2 && pattern.stderr.contains("a pattern names top-level fields only"), "\(pattern)")
        let nested = try changeset(["j1.json", "j2.json", "--id", "id", "--show", "addr.city"], in: directory)
        #expect(nested.stdout.contains("updated  id 1  at 0, line 1  addr.city: \"Olso\"\n"), "\(nested)")
    }

    /// Distances each finite whose sum is not: the mean stays finite and the JSON valid.
    @Test func theMeanOfHugeChangesIsFinite() throws {
        let directory = try scratch(["f1.json": #"[{"id":1,"v":0},{"id":2,"v":0}]"#, "f2.json": #"[{"id":1,"v":1.5e308},{"id":2,"v":1.6e308}]"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try changeset(["f1.json", "f2.json", "--id", "id", "--format", "json"], in: directory)
        #expect(try run("jq", ["-c", ".summary.transitions[0].numbers"], input: json.stdout) == #"{"records":2,"largest":1.6e+308,"mean":1.55e+308}"# + "\n", "\(json)")
    }

    /// Suggested command lines can be pasted into a shell.
    @Test func suggestionsQuoteNamesForAShell() throws {
        let directory = try scratch([
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

    /// `--show` values are cut as the format cuts values, whole with `--width 0`.
    @Test func shownValuesFollowTheWidth() throws {
        let long = String(repeating: "x", count: 300)
        let directory = try scratch(["w1.json": #"[{"id":1,"t":"\#(long)","v":1}]"#, "w2.json": #"[{"id":1,"t":"\#(long)","v":2}]"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = try changeset(["w1.json", "w2.json", "--id", "id", "--show", "t", "--width", "0"], in: directory)
        #expect(whole.stdout.contains("t: \"\(long)\"\n"), "\(whole)")
        let cut = try changeset(["w1.json", "w2.json", "--id", "id", "--show", "t"], in: directory)
        #expect(!cut.stdout.contains(long), "\(cut)")
    }

    /// The assertions' list fits in the page's 65,536 characters, before the note that rows were cut.
    @Test func theAssertionListStaysWithinTheMarkdownBudget() throws {
        let count = 3000
        let old = (0..<count).map { #"{"id":\#($0),"v":"\#(String(repeating: "a", count: 60))\#($0)"}"# }
        let new = (0..<count).map { #"{"id":\#($0),"v":"\#(String(repeating: "b", count: 60))\#($0)"}"# }
        let directory = try scratch(["old.json": "[" + old.joined(separator: ",\n") + "]", "new.json": "[" + new.joined(separator: ",\n") + "]"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let asserts = (0..<10).flatMap { ["--assert", "updated <= \($0)"] }
        let page = try changeset(["old.json", "new.json", "--id", "id", "--format", "markdown", "--limit", "0"] + asserts, in: directory)
        #expect(page.status == 1 && page.stdout.utf8.count <= 65_536, "\(page.stdout.utf8.count)")
        let list = try #require(page.stdout.range(of: "**Assertions**"))
        let note = try #require(page.stdout.range(of: "> The report was cut"))
        #expect(list.lowerBound < note.lowerBound)
        #expect(page.stdout.components(separatedBy: "- ❌ failed:").count - 1 == 10)
    }

    /// Past the sample, the hint says it looked at the first records only.
    @Test func theKeyHintLooksAtASample() throws {
        let rows = (0..<10_050).map { "\($0),v\($0 % 7)" }
        let directory = try scratch(["a.csv": "k,v\n" + rows.joined(separator: "\n") + "\n", "b.csv": "k,v\n" + rows.dropLast().joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try changeset(["a.csv", "b.csv", "--stat"], in: directory)
        #expect(result.stdout.contains("\nhint: k is unique in both files (in the first 10,000 records of each)"), "\(result)")
    }
}
