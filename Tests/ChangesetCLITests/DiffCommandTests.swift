import Foundation
import Testing

@Suite struct DiffCommandTests {
    static let formats = ["json", "ndjson", "csv", "tsv"]

    @Test(arguments: formats)
    func diffsTheCatalogFixtures(format: String) throws {
        let result = try changeset(["catalog/old.\(format)", "catalog/new.\(format)", "--id", "id"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        try expectGolden(result.stdout, "catalog-\(format).txt")
    }

    @Test func sectionsAcrossFormats() throws {
        let result = try changeset(["catalog/old.json", "catalog/new.csv", "--id", "id", "--section", "category"])
        #expect(result.status == 1, "\(result)")
        try expectGolden(result.stdout, "catalog-json-csv-sections.txt")
    }

    @Test func sameFileTwiceIsNoDifference() throws {
        for format in Self.formats {
            let result = try changeset(["catalog/old.\(format)", "catalog/old.\(format)", "--id", "id"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "0 inserted, 0 deleted, 0 updated, 0 moved, 7 unchanged\n", "\(result)")
        }
    }

    @Test func sameDataInAnotherFormatIsNoDifference() throws {
        let result = try changeset(["catalog/old.ndjson", "catalog/old.csv", "--id", "id"])
        #expect(result.status == 0, "\(result)")
    }

    @Test func standardInputIsDash() throws {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("catalog/old.json"))
        let result = try changeset(["-", "catalog/new.json", "--id", "id", "--stat"], input: data)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == """
            1 inserted, 1 deleted, 3 updated, 1 moved, 3 unchanged
            fields: category 1, in_stock 1, pages 1, price 1
              pages: numbers changed by 1 at most, 1 on average (1 record)
              price: numbers changed by 0.5 at most, 0.5 on average (1 record)

            """, "\(result)")
    }

    @Test func quietPrintsNothing() throws {
        let result = try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "id", "--quiet"])
        #expect(result.status == 1 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
    }

    /// Each malformed fixture: exit 2, the exact message on stderr, nothing on stdout.
    @Test func badInputExitsTwoWithALocatedMessage() throws {
        let cases = try String(contentsOf: fixtures.appendingPathComponent("errors/cases.tsv"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(cases.count >= 50)
        for line in cases {
            let fields = line.split(separator: "\t").map(String.init)
            let options = fields[1].split(separator: " ").map(String.init)
            // The bad file as the new side, against a good one: the error names the bad file.
            let good = fields[0].hasSuffix(".csv") || fields[0].hasSuffix(".tsv") ? "../catalog/old.csv" : "../catalog/old.json"
            let goodSide = options.contains("--records-at") ? fields[0] : good
            let result = try changeset([goodSide, fields[0]] + options, in: fixtures.appendingPathComponent("errors"))
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderr == "changeset: \(fields[2])\n", "\(result)")
        }
    }

    @Test func missingFileIsTrouble() throws {
        let result = try changeset(["catalog/nope.json", "catalog/new.json", "--id", "id"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "changeset: catalog/nope.json: cannot open: No such file or directory\n", "\(result)")
    }

    @Test func usageErrorsExitTwo() throws {
        for arguments in [["catalog/old.json"], ["catalog/old.json", "catalog/new.json", "--bogus"],
                          ["catalog/old.json", "catalog/new.json", "--duplicates", "sometimes"],
                          ["catalog/old.json", "catalog/new.json", "--id", "a..b"],
                          ["catalog/old.csv", "catalog/new.csv", "--delimiter", ";;"]] {
            let result = try changeset(arguments)
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderr.hasPrefix("changeset: ") || result.stderr.hasPrefix("Error: "), "\(result)")
        }
    }

    @Test func helpAndVersionExitZero() throws {
        let help = try changeset(["--help"])
        #expect(help.status == 0 && help.stdout.contains("--id"), "\(help)")
        let version = try changeset(["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty, "\(version)")
    }
}

extension DiffCommandTests {
    @Test func sortSectionsOrdersSectionsByValue() throws {
        // By first appearance: fiction, science, fantasy; by value: fantasy, fiction, science.
        let byValue = try changeset(FormatTests.catalog + ["--section", "category", "--sort-sections", "--format", "batch"])
        #expect(byValue.stdout.contains(#""deleted": [[2,1],[2,2]]"#), "\(byValue)")
        let byAppearance = try changeset(FormatTests.catalog + ["--section", "category", "--format", "batch"])
        #expect(byAppearance.stdout.contains(#""deleted": [[1,1],[1,2]]"#), "\(byAppearance)")
    }

    @Test func standardInputIsNamedInErrors() throws {
        let result = try changeset(["-", "catalog/new.json", "--id", "id"], input: Data(#"[{"id":1}"#.utf8))
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "changeset: <stdin>:1:10: unexpected end of input; expected more JSON\n", "\(result)")
    }
}

extension DiffCommandTests {
    @Test func standardInputForBothSidesIsAUsageError() throws {
        let result = try changeset(["-", "-", "--id", "id"], input: Data("[]".utf8))
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.hasPrefix("changeset: OLD and NEW cannot both be standard input (-)\n"), "\(result)")
    }

    @Test func noArgumentsPrintsTheUsage() throws {
        let result = try changeset([])
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("USAGE: changeset [diff] <old> <new> [<options>]"), "\(result)")
        #expect(result.stderr.contains("--id <field>"), "\(result)")
    }

    @Test func helpAndVersion() throws {
        let help = try changeset(["help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: changeset [diff] <old> <new>"), "\(help)")
        let applyHelp = try changeset(["help", "apply"])
        #expect(applyHelp.status == 0 && applyHelp.stdout.contains("USAGE: changeset apply <base> <patch>"), "\(applyHelp)")
        for arguments in [["--version"], ["diff", "--version"], ["apply", "--version"]] {
            let version = try changeset(arguments)
            #expect(version.status == 0 && version.stdout == "changeset 0.1.0\n", "\(version)")
        }
    }

    @Test func negativeCountsAndUnusableDelimitersAreRefusedWithAReason() throws {
        let width = try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "id", "--width", "-1"])
        #expect(width.status == 2 && width.stderr.hasPrefix("changeset: --width must be 0 (no limit) or at least 8, not -1\n"), "\(width)")
        let limit = try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "id", "--format", "html", "--limit", "-5"])
        #expect(limit.status == 2 && limit.stderr.hasPrefix("changeset: --limit must be 0 or more, not -5\n"), "\(limit)")
        let quote = try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "id", "--delimiter", "\""])
        #expect(quote.status == 2 && quote.stderr.hasPrefix("changeset: --delimiter cannot be \", CSV's quote character\n"), "\(quote)")
    }
}
