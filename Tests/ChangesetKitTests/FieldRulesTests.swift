import PropertyBased
import Testing
@testable import ChangesetKit

/// `FieldRules` is the one place the --ignore/--only/--section/--rename
/// rules live: the readers' fingerprints and the field-level comparison both
/// follow it, so they must agree.
@Suite struct FieldRulesTests {
    static let scalars = ["1", "1.0", "2", "\"x\"", "\"X\"", "\"\"", "null", "true", "[1,2]", "[2,1]", "[{\"p\":1}]", "[{\"p\":2,\"q\":\"x\"},3]", "{\"p\":1}", "{\"p\":1,\"q\":\"x\"}", "{\"q\":\"y\"}"]
    /// A record: for each of the members a, b, c, d, absent (-1) or one of the scalars.
    static let record = Gen.int(in: -1...(scalars.count - 1)).array(of: 4...4)
    /// Rules: index into a list of option sets.
    static let ruleSets: [RecordOptions] = {
        func path(_ text: String) -> FieldPath { try! FieldPath(parsing: text) }
        return [
            RecordOptions(),
            RecordOptions(ignore: [path("a")]),
            RecordOptions(ignore: [path("d.p")]),
            RecordOptions(ignore: [path("[ab]")]),
            RecordOptions(only: [path("b")]),
            RecordOptions(only: [path("d.q"), path("a")]),
            RecordOptions(only: [path("d.*")]),
            RecordOptions(section: path("c")),
            RecordOptions(section: path("c"), ignore: [path("d")], only: [path("a"), path("d"), path("b")]),
        ]
    }()

    static func json(_ record: [Int]) -> String {
        let members = zip(["a", "b", "c", "d"], record).filter { $0.1 >= 0 }.map { "\"\($0.0)\":\(scalars[$0.1])" }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func value(_ json: String) throws -> Value {
        try Array(json.utf8).withSpan { try JSONValueReader.read($0) }
    }

    @Test func fingerprintsDifferExactlyWhenFieldChangesDo() async {
        await propertyCheck(count: 600, input: Self.record, Self.record, Gen.int(in: 0...(Self.ruleSets.count - 1)), Gen.bool) { old, new, rules, textMode in
            var options = Self.ruleSets[rules]
            options.mode = textMode ? .text : .typed
            let oldJSON = Self.json(old)
            let newJSON = Self.json(new)
            guard let oldPrint = fingerprint(oldJSON, mode: options.mode, options: options),
                let newPrint = fingerprint(newJSON, mode: options.mode, options: options)
            else {
                // A section field holding an object or array is refused by the reader: nothing to compare.
                #expect(options.section != nil)
                return
            }
            let changes = FieldChange.between(try Self.value(oldJSON), try Self.value(newJSON), rules: FieldRules(options), mode: options.mode)
            #expect((oldPrint != newPrint) == !changes.isEmpty,
                    "\(oldJSON) vs \(newJSON), rules \(rules), \(options.mode): fingerprints \(oldPrint == newPrint ? "equal" : "differ"), changes \(changes)")
        }
    }

    /// Found by the property above: `--only d.q` with `d` a number on both
    /// sides compared `d` whole at field level while the fingerprint left it
    /// out; and an object `d` holding none of the named fields counted as a
    /// value in the fingerprint. Neither has a named field: no change.
    @Test func onlyInsideAFieldThatIsNotAnObjectComparesNothing() throws {
        let options = RecordOptions(only: [FieldPath(["d", "q"])])
        for (old, new) in [(#"{"d":1}"#, #"{"d":2}"#), (#"{"d":{"p":1}}"#, #"{"d":1}"#), (#"{"d":{}}"#, #"{}"#)] {
            #expect(fingerprint(old, options: options) == fingerprint(new, options: options), "\(old) vs \(new)")
            #expect(FieldChange.between(try Self.value(old), try Self.value(new), rules: FieldRules(options), mode: .typed).isEmpty)
        }
        let changed = FieldChange.between(try Self.value(#"{"d":{"q":1}}"#), try Self.value(#"{"d":1}"#), rules: FieldRules(options), mode: .typed)
        #expect(changed == [FieldChange(path: FieldPath(["d", "q"]), old: .number("1"), new: nil)])
        #expect(fingerprint(#"{"d":{"q":1}}"#, options: options) != fingerprint(#"{"d":1}"#, options: options))
    }

    @Test func globPatterns() {
        #expect(GlobPattern("UNTERM*").matches("UNTERM English Short"))
        #expect(!GlobPattern("UNTERM*").matches("unterm"))
        #expect(GlobPattern("a?c").matches("abc") && !GlobPattern("a?c").matches("ac"))
        #expect(GlobPattern("[ab]*").matches("bx") && !GlobPattern("[ab]*").matches("cx"))
        #expect(GlobPattern("[!ab]").matches("c") && !GlobPattern("[!ab]").matches("a"))
        #expect(GlobPattern("x[0-9]").matches("x7") && !GlobPattern("x[0-9]").matches("xa"))
        #expect(GlobPattern("*.*").matches("a.b") && !GlobPattern("*.*").matches("ab"))
        #expect(GlobPattern("[*]").matches("*") && !GlobPattern("[*]").matches("a"))
        #expect(GlobPattern("a*b*c").matches("aXXbYYc") && !GlobPattern("a*b*c").matches("aXXbYY"))
    }
}

/// The schema the readers collect: top-level names in order of first
/// appearance, with how many records hold a value for each.
@Suite struct SchemaCollectorTests {
    @Test func namesAndValueCountsOverRecordsOfChangingShape() {
        let records = [
            #"{"a":1,"b":2}"#, #"{"a":1,"b":2}"#, #"{"a":1,"b":null}"#,  // regular, then a null
            #"{"b":2,"a":1}"#,                                            // same names, other order
            #"{"a":1,"b":2,"c":3}"#, #"{"a":1,"b":2,"c":3}"#,            // a new field
            #"{"a":1}"#, #"{}"#, #"{"d":{"x":null},"a":null}"#,           // fewer, none, nested
            #"{"a":1,"b":2}"#,
        ]
        let table = read("[" + records.joined(separator: ",") + "]", options: RecordOptions()).table!
        #expect(table.schema == ["a", "b", "c", "d"])
        #expect(table.schemaValueCounts == [8, 6, 2, 1])
        let text = read("[" + records.joined(separator: ",") + "]", options: RecordOptions(mode: .text)).table!
        #expect(text.schemaValueCounts == [8, 6, 2, 1])
        let csv = read("a,b,c\n1,,3\n,,3\n1,2,\n", format: .csv, options: RecordOptions(mode: .text)).table!
        #expect(csv.schema == ["a", "b", "c"] && csv.schemaValueCounts == [2, 1, 2])
    }
}

/// `FieldChange.between` scans small objects' members and builds
/// dictionaries for large ones (`MembersByName`); both give the changed
/// fields in the old object's member order, then the new-only ones, and
/// both take the first member of a repeated name.
@Suite struct FieldChangeMemberLookupTests {
    func object(_ members: [(String, Value)]) -> Value {
        .object(members.map { Value.Member(name: $0.0, value: $0.1) })
    }

    @Test(arguments: [3, 40])
    func smallAndLargeObjectsGiveTheSameChanges(fillers: Int) {
        let filler = (0..<fillers).map { ("f\($0)", Value.number("\($0)")) }
        let old = object([("b", .string("x")), ("gone", .bool(true)), ("a", .number("1")), ("same", .null)] + filler)
        let new = object(filler + [("a", .number("2")), ("same", .null), ("added", .string("y")), ("b", .string("z"))])
        let changes = FieldChange.between(old, new, rules: FieldRules(RecordOptions()), mode: .typed)
        #expect(changes == [
            FieldChange(path: FieldPath(["b"]), old: .string("x"), new: .string("z")),
            FieldChange(path: FieldPath(["gone"]), old: .bool(true), new: nil),
            FieldChange(path: FieldPath(["a"]), old: .number("1"), new: .number("2")),
            FieldChange(path: FieldPath(["added"]), old: nil, new: .string("y")),
        ])
    }

    /// A library user can build an object with a name twice (the readers reject one).
    @Test(arguments: [3, 40])
    func aRepeatedNameComparesItsFirstMembers(fillers: Int) {
        let filler = (0..<fillers).map { ("f\($0)", Value.number("\($0)")) }
        let old = object(filler + [("a", .number("1")), ("a", .number("2"))])
        let same = object(filler + [("a", .number("1")), ("a", .number("3"))])
        let changed = object(filler + [("a", .number("4"))])
        #expect(FieldChange.between(old, same, rules: FieldRules(RecordOptions()), mode: .typed).isEmpty)
        #expect(FieldChange.between(old, changed, rules: FieldRules(RecordOptions()), mode: .typed).map(\.path) == [FieldPath(["a"]), FieldPath(["a"])])
    }
}
