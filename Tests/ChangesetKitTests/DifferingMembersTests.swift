import Foundation
import Testing
@testable import ChangesetKit

/// A report reads an updated record's members that differ in text and leaves
/// the rest (`DifferingMemberReader`); it must find exactly the field changes that
/// reading both records whole finds, under every rule and tolerance.
@Suite struct DifferingMembersTests {
    /// OLD and NEW compared from memory, matched by `id` unless `options` say otherwise.
    func compare(_ old: String, _ new: String, format: InputFormat, options: ComparisonOptions = ComparisonOptions()) throws -> Comparison {
        var options = options
        if options.records.id.isEmpty { options.records.id = [FieldPath(["id"])] }
        return try Comparison.run(
            InputFile(name: "old", bytes: InputBytes(copying: Array(old.utf8)), format: format),
            InputFile(name: "new", bytes: InputBytes(copying: Array(new.utf8)), format: format),
            options: options)
    }

    /// Compares OLD and NEW and checks every update both ways.
    /// Returns how many updates were checked and how many took the shortcut.
    @discardableResult
    func checkEveryUpdate(_ old: String, _ new: String, format: InputFormat, options: ComparisonOptions = ComparisonOptions(),
                          _ comment: Comment? = nil) throws -> (updates: Int, shortcuts: Int) {
        let comparison = try compare(old, new, format: format, options: options)
        var shortcuts = 0
        for update in comparison.changeset.updates {
            let oldRow = comparison.oldSections[update.old.section].elements[update.old.item].row
            let newRow = comparison.newSections[update.new.section].elements[update.new.item].row
            let whole = try comparison.fieldChangesReadingWholeRecords(oldRow: oldRow, newRow: newRow)
            #expect(try comparison.fieldChanges(update) == whole, comment ?? "\(old)\n\(new)")
            if try comparison.differingMemberReader.records(oldRow: oldRow, newRow: newRow) != nil { shortcuts += 1 }
        }
        return (comparison.changeset.updates.count, shortcuts)
    }

    @Test func jsonMembersThatKeptTheirTextAreLeftOut() throws {
        let old = #"[{"id":1,"a":1,"b":"x","c":{"d":[1,2]}}, {"id":2, "a" : 2 , "b":"y"}]"#
        let new = #"[{"id":1,"a":1,"b":"z","c":{"d":[1,2]}}, {"b":"y","id":2,"a":3,"e":null}]"#
        let comparison = try compare(old, new, format: .json)
        let first = try #require(try comparison.differingMemberReader.records(oldRow: 0, newRow: 0))
        #expect(first.old == .object([Value.Member(name: "b", value: .string("x"))]))
        #expect(first.new == .object([Value.Member(name: "b", value: .string("z"))]))
        // Reordered members are found by name; a member only NEW has is kept.
        let second = try #require(try comparison.differingMemberReader.records(oldRow: 1, newRow: 1))
        #expect(second.old == .object([Value.Member(name: "a", value: .number("2"))]))
        #expect(second.new == .object([Value.Member(name: "a", value: .number("3")), Value.Member(name: "e", value: .null)]))
        try checkEveryUpdate(old, new, format: .json)
    }

    @Test func csvCellsThatKeptTheirTextAreLeftOut() throws {
        let old = "id,a,b,c\n1,x,\"q\"\"uote\",3\n2,,5,\"7\"\n"
        let new = "b,id,c,a\n\"q\"\"uote\",1,4,x\n5,2,7,\n"
        let comparison = try compare(old, new, format: .csv)
        let first = try #require(try comparison.differingMemberReader.records(oldRow: 0, newRow: 0))
        #expect(first.old == .object([Value.Member(name: "c", value: .number("3"))]))
        #expect(first.new == .object([Value.Member(name: "c", value: .number("4"))]))
        // `"7"` and `7` differ in text, so both are read (and then compare equal).
        let second = try #require(try comparison.differingMemberReader.records(oldRow: 1, newRow: 1))
        #expect(second.old == .object([Value.Member(name: "c", value: .number("7"))]))
        #expect(second.new == .object([Value.Member(name: "c", value: .number("7"))]))
        try checkEveryUpdate(old, new, format: .csv)
    }

    @Test func rawMembersSplitAnObjectAndRefuseWhatIsNotOne() {
        func members(_ text: String) -> [String]? {
            let bytes = Array(text.utf8)
            return bytes.withSpan { buffer in
                JSONValueReader.rawMembers(ofObject: buffer).map { found in
                    found.map { String(decoding: bytes[$0.name], as: UTF8.self) + "=" + String(decoding: bytes[$0.value], as: UTF8.self) }
                }
            }
        }
        #expect(members(#" { "a" : 1 , "b\"c" :"}{" ,"d":[{"e":"]"}],"f":-1.5e3,"g":true} "#)
                == [#"a=1"#, #"b\"c="}{""#, #"d=[{"e":"]"}]"#, "f=-1.5e3", "g=true"])
        #expect(members("{}") == [])
        #expect(members("\r\n{\t}\n") == [])
        // Strings longer than a word, their quotes and escapes at every place in one (crossed eight bytes at a time).
        for padding in 0..<17 {
            let filler = String(repeating: "x", count: padding)
            let name = filler + #"n\"q"# + filler, value = #""\\"# + filler + #"\"}""#
            #expect(members("{\"\(name)\":\(value),\"z\":\"\(filler)\"}") == ["\(name)=\(value)", "z=\"\(filler)\""], "\(padding)")
            #expect(members("{\"\(filler)\":\"\(filler)") == nil, "\(padding)")
        }
        for broken in ["", "[]", "1", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{\"a\":1 \"b\":2}", "{\"a\":[1}", "{\"a\":\"x}", "{} x", "{\"a\":1}}"] {
            #expect(members(broken) == nil, "\(broken)")
        }
    }

    @Test func memberValuesAreReadAsYajlReadsThem() throws {
        for text in ["0", "-0", "1.50", "-12e+3", "true", "false", "null", #""plain""#, #""""#, #""caf\u00e9""#, #""tab\t""#,
                     "\"caf\u{E9}\"", #"[1,"a"]"#, #"{"x":{"y":null}}"#, "1.", "01", "tru", #""open"#] {
            let bytes = Array(text.utf8)
            let direct = bytes.withSpan { try? JSONValueReader.value(ofRawMember: $0) }
            let read = bytes.withSpan { try? JSONValueReader.read($0) }
            #expect(direct == read, "\(text)")
        }
        for name in ["plain", #"esc\"aped"#, #"\u0041B"#, "caf\u{E9}"] {
            let quoted = Array("\"\(name)\"".utf8)
            let expected = try quoted.withSpan { try JSONValueReader.read($0) }
            #expect(try Array(name.utf8).withSpan { Value.string(try JSONValueReader.name(ofRawMember: $0)) } == expected, "\(name)")
        }
    }

    /// A record read again through its members gives what yajl gives it
    /// whole: the same value, or an error both ways.
    @Test func recordsReadThroughTheirMembersAreWhatYajlReads() {
        func agree(_ text: String) {
            let bytes = Array(text.utf8)
            let split = bytes.withSpan { buffer in Result { try JSONValueReader.readRecord(buffer) } }
            let whole = bytes.withSpan { buffer in Result { try JSONValueReader.read(buffer) } }
            switch (split, whole) {
            case let (.success(a), .success(b)): #expect(a == b, "\(text)")
            case (.failure, .failure): break
            default: Issue.record("\(text): \(split) against \(whole)")
            }
        }
        for text in [#"{}"#, #" { "a" : 1 } "#, #"{"caf\u00e9":"x","café":"y"}"#, #"{"a":"\u0000"}"#, "{\"a\":\"\t\"}",
                     "{\"a\u{7F}\":1}", #"{"a":1,"a":2}"#, #"{"a":[1,{"b":null}],"c":{"d":-0.5e-3}}"#, #"[1,2]"#, #""s""#, "7",
                     #"{"a":01}"#, #"{"a":1.}"#, #"{"a":tru}"#, #"{"a":1}x"#, #"{"a" 1}"#, "{\"a\":1\u{0C}}", #"{"a":"\x"}"#] {
            agree(text)
        }
        var random = SplitMix(seed: 21)
        for id in 0..<2000 { agree(jsonRecord(id: id, lines: false, &random)) }
        // As deep as a record may nest (the records array takes a level): read and compared without running out of stack.
        let depth = JSONRecordReader.maximumDepth - 2
        agree(#"{"id":1,"deep":"# + String(repeating: "[", count: depth) + "7" + String(repeating: "]", count: depth) + "}")
    }

    // MARK: - Generated records, checked both ways


    /// Texts for the same few values written several ways, and some others.
    static let jsonValues = [
        "1", "1.0", "1.00", "1e0", "2", "-0", "0", "0.5", "5e-1", #""1""#, #""a""#, #""A""#, #"" a""#, #""\u0061""#, #""caf\u00e9""#,
        "\"caf\u{E9}\"", "true", "false", "null", "[]", "[1,2]", "[2,1]", "[ 1 , 2 ]", #"{"x":1}"#, #"{ "x" : 1.0 }"#,
        #"{"x":1,"y":2}"#, #"{"y":2,"x":1}"#, #"{"x":{"z":"q"}}"#, "{}",
    ]
    static let jsonNames = ["a", "b", "c", "x", #"\u0061"#, "nested", "price"]

    func jsonRecord(id: Int, lines: Bool, _ random: inout SplitMix) -> String {
        var members = ["\"id\":\(id)"]
        var names = Self.jsonNames.shuffled(using: &random)
        // "a" and "\u0061" are one name: a record holds only one of them.
        let spelling = Bool.random(using: &random) ? "a" : #"\u0061"#
        names.removeAll { $0 == spelling }
        for name in names where Int.random(in: 0..<3, using: &random) > 0 {
            let space = (lines ? ["", " ", "\t"] : ["", " ", "\n  "]).randomElement(using: &random)!
            members.append("\(space)\"\(name)\"\(space):\(space)\(Self.jsonValues.randomElement(using: &random)!)")
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// NEW keeps some of OLD's members as they were (text and all), changes some, and drops or adds others.
    func jsonEdit(_ record: String, id: Int, lines: Bool, _ random: inout SplitMix) -> String {
        if Bool.random(using: &random) { return jsonRecord(id: id, lines: lines, &random) }
        let bytes = Array(record.utf8)
        let members = bytes.withSpan { JSONValueReader.rawMembers(ofObject: $0)! }
        var kept = members.map { String(decoding: bytes[$0.name.lowerBound - 1 ..< $0.value.upperBound], as: UTF8.self) }
        for index in kept.indices.dropFirst() where Int.random(in: 0..<3, using: &random) == 0 {
            let name = String(decoding: bytes[members[index].name], as: UTF8.self)
            kept[index] = "\"\(name)\":\(Self.jsonValues.randomElement(using: &random)!)"
        }
        if kept.count > 2 && Bool.random(using: &random) { kept.remove(at: Int.random(in: 1..<kept.count, using: &random)) }
        if Bool.random(using: &random) { kept.append(#""extra":"e""#) }
        if Bool.random(using: &random) { kept = [kept[0]] + kept.dropFirst().shuffled(using: &random) }
        return "{" + kept.joined(separator: ",") + "}"
    }

    static func ruleVariants(nested: Bool) -> [(String, ComparisonOptions)] {
        var ignoring = ComparisonOptions()
        ignoring.records.ignore = [FieldPath(["b"])] + (nested ? [FieldPath(["nested", "x"])] : [])
        var only = ComparisonOptions()
        only.records.only = [FieldPath(["a"]), FieldPath(["price"])] + (nested ? [FieldPath(["nested", "x"])] : [])
        var tolerant = ComparisonOptions()
        tolerant.tolerance = ValueTolerance(all: .init(absolute: Decimal(string: "0.6")), ignoreCase: true, ignoreWhitespace: true)
        var renamed = ComparisonOptions()
        // NEW calls OLD's `price` (JSON) and `x` (CSV) otherwise; the other variants see a schema change.
        renamed.records.renames = [nested ? Rename(old: FieldPath(["price"]), new: FieldPath(["cost"])) : Rename(old: FieldPath(["x"]), new: FieldPath(["ex"]))]
        return [("plain", ComparisonOptions()), ("ignore", ignoring), ("only", only), ("tolerance", tolerant), ("rename", renamed)]
    }

    @Test(arguments: [JSONLayoutCase.array, .lines])
    func generatedJSONRecordsGiveTheSameChanges(layout: JSONLayoutCase) throws {
        var random = SplitMix(seed: layout == .array ? 11 : 12)
        var total = (updates: 0, shortcuts: 0)
        for round in 0..<12 {
            let lines = layout == .lines
            let olds = (0..<40).map { jsonRecord(id: $0, lines: lines, &random) }
            let news = olds.enumerated().map { jsonEdit($1, id: $0, lines: lines, &random).replacingOccurrences(of: #""price""#, with: #""cost""#) }
            let (old, new) = layout == .array
                ? ("[" + olds.joined(separator: ",\n") + "]", "[" + news.joined(separator: ",\n") + "]")
                : (olds.joined(separator: "\n"), news.joined(separator: "\n"))
            for (name, options) in Self.ruleVariants(nested: true) {
                let checked = try checkEveryUpdate(old, new, format: layout == .array ? .json : .ndjson, options: options, "round \(round), \(name)")
                total.updates += checked.updates
                total.shortcuts += checked.shortcuts
            }
        }
        // Every variant but the renames takes the shortcut, so most updates did.
        #expect(total.updates > 1000)
        #expect(total.shortcuts > total.updates / 2)
    }

    enum JSONLayoutCase: CaseIterable { case array, lines }

    static let csvCells = ["1", "1.0", "1.00", "2", "0.5", "-0", "", #""""#, "a", #""a""#, "A", " a", #""a,b""#, #""q""x""#, "caf\u{E9}", "true"]

    @Test func generatedCSVRowsGiveTheSameChanges() throws {
        var random = SplitMix(seed: 13)
        var total = (updates: 0, shortcuts: 0)
        let names = ["a", "b", "c", "price", "x"]
        for round in 0..<12 {
            // NEW's header reorders OLD's, and may drop a column or add one.
            var newNames = names.shuffled(using: &random)
            if Bool.random(using: &random) { newNames.removeAll { $0 == "b" } }
            if Bool.random(using: &random) { newNames.append("extra") }
            let oldHeader = ["id"] + names
            let newHeader = newNames.map { $0 == "x" ? "ex" : $0 } + ["id"]
            var oldRows: [[String: String]] = []
            var newRows: [[String: String]] = []
            for id in 0..<40 {
                var row = ["id": String(id)]
                for name in names + ["extra"] { row[name] = Self.csvCells.randomElement(using: &random)! }
                oldRows.append(row)
                for name in row.keys.sorted() where name != "id" && Int.random(in: 0..<3, using: &random) == 0 {
                    row[name] = Self.csvCells.randomElement(using: &random)!
                }
                newRows.append(row)
            }
            func text(_ header: [String], _ rows: [[String: String]]) -> String {
                ([header.joined(separator: ",")] + rows.map { row in header.map { row[$0 == "ex" ? "x" : $0]! }.joined(separator: ",") })
                    .joined(separator: "\n") + "\n"
            }
            for (name, options) in Self.ruleVariants(nested: false) {
                let checked = try checkEveryUpdate(text(oldHeader, oldRows), text(newHeader, newRows), format: .csv, options: options,
                                                   "round \(round), \(name)")
                total.updates += checked.updates
                total.shortcuts += checked.shortcuts
            }
        }
        #expect(total.updates > 1000)
        #expect(total.shortcuts > total.updates / 2)
    }
}
