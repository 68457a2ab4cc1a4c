import Testing
@testable import ChangesetKit

/// The equality rules the fingerprint implements (documented in the man page).
@Suite struct EqualityRuleTests {
    @Test func keyOrderAndWhitespaceNeverMatter() {
        #expect(fingerprint(#"{"a": 1, "b": [1, 2]}"#) == fingerprint(#"{ "b" : [ 1 , 2 ] ,"a":1 }"#))
        #expect(fingerprint(#"{"o": {"x": 1, "y": 2}}"#) == fingerprint(#"{"o": {"y": 2, "x": 1}}"#))
    }

    @Test func arrayOrderMatters() {
        #expect(fingerprint(#"{"a": [1, 2]}"#) != fingerprint(#"{"a": [2, 1]}"#))
    }

    @Test func numbersCompareByExactValue() {
        let one = fingerprint(#"{"n": 1}"#)
        for same in ["1.0", "1e0", "10E-1", "0.1e1", "1.000"] {
            #expect(fingerprint(#"{"n": \#(same)}"#) == one, "\(same)")
        }
        #expect(fingerprint(#"{"n": 100}"#) == fingerprint(#"{"n": 1e2}"#))
        #expect(fingerprint(#"{"n": -0}"#) == fingerprint(#"{"n": 0}"#))
        #expect(fingerprint(#"{"n": 1.000000000000000005}"#) != one)
        // 2^70 and 2^70 + 1 differ although a Double cannot tell them apart.
        #expect(fingerprint(#"{"n": 1180591620717411303424}"#) != fingerprint(#"{"n": 1180591620717411303425}"#))
        #expect(fingerprint(#"{"n": 1e400}"#) != fingerprint(#"{"n": 1e401}"#))
        #expect(fingerprint(#"{"n": 1e400}"#) == fingerprint(#"{"n": 10e399}"#))
        #expect(fingerprint(#"{"n": 1E-999}"#) != fingerprint(#"{"n": 0}"#))
    }

    @Test func typesMatterBetweenJSONFiles() {
        #expect(fingerprint(#"{"n": 1}"#) != fingerprint(#"{"n": "1"}"#))
        #expect(fingerprint(#"{"n": null}"#) != fingerprint(#"{"n": ""}"#))
        #expect(fingerprint(#"{"n": null}"#) != fingerprint(#"{}"#))
        #expect(fingerprint(#"{"n": true}"#) != fingerprint(#"{"n": "true"}"#))
    }

    @Test func textComparisonsMatchCSVCells() {
        // With a CSV side, JSON values compare as the text a cell would hold.
        let csv = csvFingerprint("n,s,b,e\n1.0,x,true,\n")
        #expect(csv == fingerprint(#"{"n": 1, "s": "x", "b": true, "e": null}"#, mode: .text))
        #expect(csv == fingerprint(#"{"n": "1", "s": "x", "b": "true"}"#, mode: .text))
        #expect(csv != fingerprint(#"{"n": 2, "s": "x", "b": true}"#, mode: .text))
        // Text that is not a JSON number stays text: leading zeros, plus signs.
        #expect(csvFingerprint("n\n007\n") != csvFingerprint("n\n7\n"))
        #expect(csvFingerprint("n\n1.50\n") == csvFingerprint("n\n1.5\n"))
    }

    @Test func ignoredOnlyAndSectionFieldsAreLeftOut() {
        let ignoring = RecordOptions(ignore: [FieldPath(["t"]), FieldPath(["m", "at"])])
        #expect(fingerprint(#"{"a": 1, "t": 5, "m": {"at": 1, "b": 2}}"#, options: ignoring)
            == fingerprint(#"{"a": 1, "t": 6, "m": {"at": 9, "b": 2}}"#, options: ignoring))
        #expect(fingerprint(#"{"a": 1, "m": {"b": 2}}"#, options: ignoring)
            != fingerprint(#"{"a": 1, "m": {"b": 3}}"#, options: ignoring))
        let only = RecordOptions(only: [FieldPath(["a"]), FieldPath(["m", "b"])])
        #expect(fingerprint(#"{"a": 1, "z": 1, "m": {"b": 2, "c": 1}}"#, options: only)
            == fingerprint(#"{"a": 1, "z": 2, "m": {"b": 2, "c": 2}}"#, options: only))
        #expect(fingerprint(#"{"a": 1, "m": {"b": 2}}"#, options: only) != fingerprint(#"{"a": 1, "m": {"b": 3}}"#, options: only))
        let sectioned = RecordOptions(section: FieldPath(["cat"]))
        #expect(fingerprint(#"{"a": 1, "cat": "x"}"#, options: sectioned) == fingerprint(#"{"a": 1, "cat": "y"}"#, options: sectioned))
    }

    @Test func fingerprintsAreStableAcrossRuns() {
        // Pinned values: Swift's per-process Hasher would change them every run,
        // and a patch file made by one run must verify in another.
        #expect(StableHash.string("changeset", seed: 0) == 0xDC91_6E40_BCB0_99AA)
        #expect(fingerprint(#"{"id": 1, "name": "x"}"#) == 0xB3FB_4C20_D4EF_AFE5)
    }
}

@Suite struct CanonicalNumberTests {
    @Test(arguments: [
        ("0", "0"), ("-0", "0"), ("-0.0e5", "0"), ("42", "42"), ("-7000", "-7000"), ("1.0", "1"), ("1.50", "1.5"),
        ("100e-2", "1"), ("1e2", "100"), ("1E+2", "100"), ("0.001", "0.001"), ("1e-6", "0.000001"), ("1e-7", "1e-7"),
        ("12.5e-10", "1.25e-9"), ("1e20", "100000000000000000000"), ("1e21", "1e21"), ("123e30", "1.23e32"),
        ("1180591620717411303424", "1180591620717411303424"), ("1e400", "1e400"), ("-4.20e400", "-4.2e400"),
        ("1.000000000000000005", "1.000000000000000005"), ("1E-999", "1e-999"),
        ("1e99999999999999999999", "~1e99999999999999999999"),
    ])
    func canonicalForm(_ input: String, _ expected: String) {
        #expect(CanonicalNumber.canonical(input) == expected)
    }

    @Test(arguments: ["", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x10", "NaN", "Infinity", " 1", "1 ", "--1"])
    func notANumber(_ input: String) {
        #expect(CanonicalNumber.canonical(input) == nil)
    }
}

@Suite struct FieldPathTests {
    @Test func parsesDotsCommasAndEscapes() throws {
        #expect(try FieldPath(parsing: "a.b").components == ["a", "b"])
        #expect(try FieldPath(parsing: #"a\.b"#).components == ["a.b"])
        #expect(try FieldPath.parseList("country,code").map(\.components) == [["country"], ["code"]])
        #expect(try FieldPath.parseList(#"a\,b,c\\d"#).map(\.components) == [["a,b"], [#"c\d"#]])
        #expect(FieldPath(["a.b", "c"]).description == #"a\.b.c"#)
    }

    /// A one-name path is printed as is unless it needs an escape (the quick path), and reads back the same.
    @Test func descriptionsReadBack() throws {
        for name in ["price", " lead", "a.b", "a,b", #"a\b"#, "caf\u{e9}", "trail ", "x y", "", #""""#, " ", #"a""#] {
            let path = FieldPath([name])
            #expect(try FieldPath(parsing: path.description).components == [name], "\(name)")
        }
        #expect(FieldPath(["price"]).description == "price")
        #expect(FieldPath([""]).description == #""""#)
        #expect(FieldPath(["", "x"]).description == #""".x"#)
        #expect(FieldPath([" lead"]).description == #"\ lead"#)
        #expect(FieldPath(["a,b"]).description == #"a\,b"#)
    }

    /// `--id "Country Code, Year"`: spaces around a name are not part of it;
    /// `""` names the empty column (a CSV header cell left blank).
    @Test func namesAreTrimmedAndTheEmptyNameIsTwoQuotes() throws {
        #expect(try FieldPath.parseList("Country Code, Year").map(\.components) == [["Country Code"], ["Year"]])
        #expect(try FieldPath.parseList(" a . b ,c").map(\.components) == [["a", "b"], ["c"]])
        #expect(try FieldPath.parseList(#"\ Year"#).map(\.components) == [[" Year"]])
        #expect(try FieldPath.parseList(#""", id"#).map(\.components) == [[""], ["id"]])
        #expect(try FieldPath(parsing: #"\"\""#).components == [#""""#])
        #expect(throws: FieldPathError.self) { try FieldPath(parsing: " ") }
    }

    @Test func rejectsEmptyNames() {
        #expect(throws: FieldPathError.self) { try FieldPath(parsing: "a..b") }
        #expect(throws: FieldPathError.self) { try FieldPath.parseList("a,") }
        #expect(throws: FieldPathError.self) { try FieldPath(parsing: #"a\"#) }
    }
}

@Suite struct CanonicalFastPathTests {
    /// The quick check may say "not sure", but never "canonical" for a number whose canonical text differs.
    @Test func quickCheckAgreesWithTheFullRule() {
        var inputs = ["0", "-0", "7", "-7", "10", "100000000000000000000", "1000000000000000000000", "12345678901234567890123",
                      "0.5", "-0.5", "0.50", "44.89", "12.50", "0.000001", "0.0000001", "-0.000001", "1.0", "1e2", "1.5e3", "01", "-", "1."]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let integer = Bool.random(using: &random) ? "0" : String(Int.random(in: 1...999_999, using: &random))
            let fraction = String((0..<Int.random(in: 0...8, using: &random)).map { _ in "0001234567".randomElement(using: &random)! })
            inputs.append((Bool.random(using: &random) ? "-" : "") + integer + (fraction.isEmpty ? "" : "." + fraction))
        }
        for input in inputs {
            let quick = Array(input.utf8).withSpan { CanonicalNumber.isCanonicalLiteral($0) }
            if quick { #expect(CanonicalNumber.canonical(input) == input, "\(input)") }
        }
        for sure in ["0", "7", "-7", "44.89", "0.5", "0.000001", "12345678901234567890"] {
            #expect(Array(sure.utf8).withSpan { CanonicalNumber.isCanonicalLiteral($0) }, "\(sure)")
        }
    }

    /// The shortcut for decimals with trailing zeros (`44.80`) gives what the
    /// general path gives, on every literal it takes, and takes the usual ones.
    @Test func decimalsWithTrailingZerosTakeTheShortcutToTheSameText() {
        var random = SplitMix(seed: 21)
        var inputs = ["44.80", "3.00", "-0.50", "-1.0", "10.0", "100.00", "0.0", "-0.0", "0.000010", "0.0000010", "0.00000010",
                      "123456789012345.10", "1234567890123456.10",
                      "1000000000000000000000.0", "100000000000000000000.00", "-1000000000000000000000000.50", "01.50", "1.", ".50", "1.0e3", "1.50x", "-", "-.0"]
        func digits(_ count: Int) -> String { String((0..<count).map { _ in "0123456789".randomElement(using: &random)! }) }
        for _ in 0..<50000 {
            let integer = Int.random(in: 0...3, using: &random) == 0 ? "0" : digits(Int.random(in: 0...18, using: &random))
            let fraction = String(repeating: "0", count: Int.random(in: 0...7, using: &random)) + digits(Int.random(in: 0...4, using: &random))
                + String(repeating: "0", count: Int.random(in: 0...3, using: &random))
            let exponent = Int.random(in: 0...9, using: &random) == 0 ? "e" + String(Int.random(in: -9...9, using: &random)) : ""
            inputs.append((Bool.random(using: &random) ? "-" : "") + integer + "." + fraction + exponent)
        }
        var taken = 0
        for input in inputs {
            Array(input.utf8).withSpan { text in
                var shortcut: [UInt8] = [], general: [UInt8] = []
                let generalIsNumber = CanonicalNumber.canonicalizeAnyLiteral(text, into: &general)
                if CanonicalNumber.canonicalizeDecimalWithTrailingZeros(text, into: &shortcut) {
                    taken += 1
                    #expect(generalIsNumber && shortcut == general, "\(input): \(String(decoding: shortcut, as: UTF8.self))")
                }
                var both: [UInt8] = []
                #expect(CanonicalNumber.canonicalize(text, into: &both) == generalIsNumber && (!generalIsNumber || both == general), "\(input)")
            }
        }
        for usual in ["44.80", "3.00", "-0.50", "10.0", "0.0"] {
            var output: [UInt8] = []
            #expect(Array(usual.utf8).withSpan { CanonicalNumber.canonicalizeDecimalWithTrailingZeros($0, into: &output) }, "\(usual)")
        }
        #expect(taken > 10000)
    }

    /// "Not a number" must be sure too: such text is hashed as it stands, so a
    /// literal taken for none would break `1.50` = `1.5` in CSV cells.
    @Test func notANumberIsNeverANumber() {
        var inputs = ["", "-", "01", "-01", "00", "1.", "1.e3", ".5", "1904-09-20", "12:30", "1,5", "1e", "1e+", "0x1F", "1.5.1",
                      "2.5e3x", "-a", "+1", "1 ", " 1", "1.50", "1e3", "-0", "0.0", "1E-7", "true"]
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789-+.eE a")
        for _ in 0..<20000 {
            inputs.append(String((0..<Int.random(in: 0...7, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        }
        for input in inputs {
            let form = Array(input.utf8).withSpan { CanonicalNumber.literalForm($0) }
            let canonical = CanonicalNumber.canonical(input)
            #expect(CanonicalNumber.isNumberLiteral(input) == (canonical != nil), "\(input)")
            switch form {
            case .canonical: #expect(canonical == input, "\(input)")
            case .notANumber: #expect(canonical == nil, "\(input)")
            case .unsure: break  // either: `canonicalize` decides (`1e` is no number, `1e3` is)
            }
        }
    }
}
