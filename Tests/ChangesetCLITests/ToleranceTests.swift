import Foundation
import Testing

/// `--tolerance`, `--relative-tolerance`, `--ignore-case`, `--ignore-whitespace`:
/// what counts as a change, on exact decimals.
@Suite struct ToleranceTests {
    static let countries = SchemaChangeTests.countries + ["--stat"]

    @Test func valuesEqualUnderTheRulesAreUnchangedEverywhere() throws {
        let exact = try changeset(Self.countries)
        // `180` -> `180.0` too: between two CSV files a cell's text is its value.
        #expect(exact.stdout.hasPrefix("1 inserted, 1 deleted, 5 updated, 0 moved, 4 unchanged\n"), "\(exact)")
        let byValue = try changeset(Self.countries + ["--numbers-by-value"])
        #expect(byValue.stdout.hasPrefix("1 inserted, 1 deleted, 4 updated, 0 moved, 5 unchanged\n"), "\(byValue)")
        // 652230 -> 652230.0000001 is float noise; 14000000 -> 14200000 is not.
        let absolute = try changeset(Self.countries + ["--tolerance", "0.001"])
        #expect(absolute.stdout.contains("fields: capital 2, area 1, name 1\n"), "\(absolute)")
        let perField = try changeset(Self.countries + ["--tolerance", "area=0.001", "--ignore-case", "--ignore-whitespace"])
        #expect(perField.stdout.hasPrefix("1 inserted, 1 deleted, 2 updated, 0 moved, 7 unchanged\n"), "\(perField)")
        #expect(perField.stdout.contains("fields: area 1, name 1\n"), "\(perField)")
        // 2% of 14200000 covers the change of 200000.
        let relative = try changeset(Self.countries + ["--relative-tolerance", "0.02"])
        #expect(relative.stdout.contains("fields: capital 2, name 1\n"), "\(relative)")
        // The invisible U+200F is a real change: no rule hides it.
        let all = try changeset(SchemaChangeTests.countries + ["--relative-tolerance", "0.02", "--ignore-case", "--ignore-whitespace"])
        #expect(all.stdout.contains(#"name: "Albania" -> "Albania\u200F""#), "\(all)")
        let gate = try changeset(SchemaChangeTests.countries + ["-q", "--tolerance", "area=0.001", "--ignore-case", "--ignore-whitespace", "--assert", "updated <= 2"])
        #expect(gate.status == 0, "\(gate)")
    }

    @Test func exactDecimalsAtTheBoundaryAndHugeNumbers() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try #"[{"id":1,"p":1.000,"q":1e400,"r":[1.0,"A "]}]"#.write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try #"[{"id":1,"p":1.005,"q":1e401,"r":[1.004,"a"]}]"#.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let result = try changeset(["old.json", "new.json", "--id", "id", "--tolerance", "0.005", "--ignore-case", "--ignore-whitespace"], in: scratch)
        // |1.005 - 1.000| is exactly 0.005 (no binary rounding); 1e400 and 1e401 stay different.
        #expect(result.stdout == "0 inserted, 0 deleted, 1 updated, 0 moved, 0 unchanged\nfields: q 1\nupdated  id 1  at 0, line 1\n  q: 1e400 -> 1e401\n", "\(result)")
        let tight = try changeset(["old.json", "new.json", "--id", "id", "--tolerance", "p=0.004", "--stat"], in: scratch)
        #expect(tight.stdout.contains("fields: p 1, q 1, r 1\n"), "\(tight)")
        // A patch carries every difference, so it is made without the tolerance (ReplayRefusesHiddenChangesTests).
        let patch = try changeset(["old.json", "new.json", "--id", "id", "--format", "patch", "-o", "p.patch"], in: scratch)
        #expect(patch.status == 1 && patch.stderr.isEmpty, "\(patch)")
        let applied = try changeset(["apply", "old.json", "p.patch", "-o", "rebuilt.json"], in: scratch)
        #expect(applied.status == 0, "\(applied)")
        let same = try changeset(["rebuilt.json", "new.json", "--id", "id", "-q"], in: scratch)
        #expect(same.status == 0, "\(same)")
    }

    @Test func badTolerancesAreUsageErrors() throws {
        for (arguments, message) in [
            (["--tolerance=-1"], #"invalid --tolerance "-1": write a number of 0 or more, or FIELD=NUMBER"#),
            (["--relative-tolerance", "x"], #"invalid --relative-tolerance "x": write a number of 0 or more, or FIELD=NUMBER"#),
            (["--tolerance", "aera=1"], #"--tolerance "aera": no record of countries/old.csv or countries/new.csv has this field; did you mean "area"?"#),
        ] {
            let result = try changeset(SchemaChangeTests.countries + arguments)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
            #expect(result.stderr.hasPrefix("changeset: \(message)\n"), "\(result)")
        }
    }

    @Test func aToleranceNeverEqualsNumbersADecimalCannotHold() throws {
        let directory = try scratchDirectory(holding: [
            "n1.json": #"[{"id":1,"a":12345678901234567890123456789012345678901234567890,"b":0.12345678901234567890123456789012345678901,"c":1E-130}]"#,
            "n2.json": #"[{"id":1,"a":12345678901234567890123456789012345678901234567899,"b":0.12345678901234567890123456789012345678909,"c":1E-130}]"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try changeset(["n1.json", "n2.json", "--id", "id", "--tolerance", "0", "--stat"], in: directory)
        #expect(result.stdout.contains("fields: a 1, b 1\n"), "\(result)")
    }
}
