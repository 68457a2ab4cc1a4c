import Foundation
import PropertyBased
import Testing
@testable import ChangesetKit

/// The merge law that says a writer keeps a file as it is: merging with a
/// side that did not change gives the other side, byte for byte, whatever
/// the file's layout. Snapshots are generated in many layouts (pretty-printed
/// with spaces or tabs, escaped or raw non-ASCII, CRLF, one record a line,
/// NDJSON, CSV quoted minimally or throughout, with or without a final line
/// break) by a printer written here, apart from the one under test.
@Suite struct SnapshotWriterTests {
    /// A reproducible stream of choices from one seed (SplitMix64).
    struct Choices {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        mutating func flip() -> Bool { next(2) == 1 }
    }

    /// How the generated files are written.
    struct Layout: CustomStringConvertible {
        enum Kind { case pretty, oneALine, ndjson, csv }
        var kind: Kind
        var indent = "    "
        var lineBreak = "\n"
        var escapesNonASCII = false
        var finalLineBreak = true
        var quotesEveryField = false
        var nameSeparator = ": "
        var inlineSeparator = ", "
        /// JSON records inside a document, at `items` (`--records-at items`).
        var inDocument = false

        var description: String {
            (inDocument ? "document, " : "") + "\(kind) indent \(indent.debugDescription) break \(lineBreak.debugDescription) escapes \(escapesNonASCII) "
                + "final \(finalLineBreak) quotes \(quotesEveryField) \(nameSeparator.debugDescription) \(inlineSeparator.debugDescription)"
        }

        static func random(_ choices: inout Choices) -> Layout {
            var layout = Layout(kind: [.pretty, .oneALine, .ndjson, .csv][choices.next(4)])
            layout.indent = ["  ", "    ", "\t"][choices.next(3)]
            layout.lineBreak = choices.flip() ? "\r\n" : "\n"
            layout.escapesNonASCII = choices.flip()
            layout.finalLineBreak = choices.flip()
            layout.quotesEveryField = choices.flip()
            if choices.flip() { (layout.nameSeparator, layout.inlineSeparator) = (":", ",") }
            layout.inDocument = (layout.kind == .pretty || layout.kind == .oneALine) && choices.flip()
            return layout
        }

        func string(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where scalar.value >= 0x80 && escapesNonASCII:
                    for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }

        func json(_ value: Value, depth: String) -> String {
            switch value {
            case .null: return "null"
            case .bool(let flag): return flag ? "true" : "false"
            case .number(let text): return text
            case .string(let text): return string(text)
            case .array(let elements):
                guard !elements.isEmpty else { return "[]" }
                if kind == .pretty {
                    return "[" + elements.map { lineBreak + depth + indent + json($0, depth: depth + indent) }.joined(separator: ",") + lineBreak + depth + "]"
                }
                return "[" + elements.map { json($0, depth: depth) }.joined(separator: inlineSeparator) + "]"
            case .object(let members):
                guard !members.isEmpty else { return "{}" }
                if kind == .pretty {
                    return "{" + members.map { lineBreak + depth + indent + string($0.name) + nameSeparator + json($0.value, depth: depth + indent) }
                        .joined(separator: ",") + lineBreak + depth + "}"
                }
                return "{" + members.map { string($0.name) + nameSeparator + json($0.value, depth: depth) }.joined(separator: inlineSeparator) + "}"
            }
        }

        func csvField(_ text: String) -> String {
            quotesEveryField || text.contains(where: { $0 == "," || $0 == "\"" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }

        /// The file: records are objects with the same members (`id`, `name`,
        /// `n`, `tags`, `where`); in a document, at its member `items`.
        func file(_ records: [Value], document: Value? = nil) -> String {
            let end = finalLineBreak ? lineBreak : ""
            if inDocument, case .object(let members)? = document {
                let wrapped = Value.object(members.map { $0.name == "items" ? Value.Member(name: "items", value: .array(records)) : $0 })
                return json(wrapped, depth: "") + end
            }
            switch kind {
            case .pretty:
                guard !records.isEmpty else { return "[]" + end }
                return "[" + records.map { lineBreak + indent + json($0, depth: indent) }.joined(separator: ",") + lineBreak + "]" + end
            case .oneALine:
                guard !records.isEmpty else { return "[]" + end }
                return "[" + records.map { lineBreak + json($0, depth: "") }.joined(separator: ",") + lineBreak + "]" + end
            case .ndjson:
                return records.map { json($0, depth: "") }.joined(separator: lineBreak) + (records.isEmpty ? "" : end)
            case .csv:
                let header = ["id", "name", "n"].map(csvField).joined(separator: ",")
                let rows = records.map { record -> String in
                    guard case .object(let members) = record else { return "" }
                    return members.prefix(3).map { member in
                        switch member.value {
                        case .string(let text): csvField(text)
                        case .number(let text): csvField(text)
                        default: csvField("")
                        }
                    }.joined(separator: ",")
                }
                return ([header] + rows).joined(separator: lineBreak) + end
            }
        }

        var format: InputFormat {
            switch kind {
            case .pretty, .oneALine: .json
            case .ndjson: .ndjson
            case .csv: .csv
            }
        }
    }

    static func record(id: Int, _ choices: inout Choices) -> Value {
        let names = ["Zürich", "Łódź", "plain", "São Paulo", "a \"quoted\" one", "comma, inside", "🚀 launch"]
        return .object([
            .init(name: "id", value: .number("\(id)")),
            .init(name: "name", value: .string(names[choices.next(names.count)])),
            .init(name: "n", value: .number("\(choices.next(1000))")),
            .init(name: "tags", value: .array((0..<choices.next(3)).map { .string(["x", "ÿ", "z"][$0]) })),
            .init(name: "where", value: choices.flip() ? .object([]) : .object([.init(name: "lat", value: .number("\(choices.next(90)).5"))])),
        ])
    }

    /// A document around the records (`items`), like a datapackage.json's,
    /// and an edit of it: `created` changed, licenses named or given
    /// another path, a member added.
    static func documents(_ choices: inout Choices) -> (base: Value, edited: Value) {
        let licenses: [Value] = (0..<choices.next(3)).map { index in
            .object([.init(name: "title", value: .string("Licence \(index)")), .init(name: "path", value: .string("http://l/\(index)"))])
        }
        func document(created: String, licenses: [Value], extra: [Value.Member]) -> Value {
            .object([.init(name: "name", value: .string("pkg")), .init(name: "created", value: .string(created)),
                     .init(name: "licenses", value: .array(licenses)), .init(name: "items", value: .null)] + extra)
        }
        let base = document(created: "2024-01-01", licenses: licenses, extra: [])
        var edited = licenses
        for index in edited.indices {
            guard case .object(var members) = edited[index] else { continue }
            switch choices.next(3) {
            case 0: members.insert(.init(name: "name", value: .string("L-\(index)")), at: 0)
            case 1: members[1].value = .string("https://l/\(index)")
            default: break
            }
            edited[index] = .object(members)
        }
        let extra: [Value.Member] = choices.flip() ? [.init(name: "version", value: .number("2.50"))] : []
        return (base, document(created: choices.flip() ? "2024-02-0\(choices.next(9) + 1)" : "2024-01-01", licenses: edited, extra: extra))
    }

    /// BASE's records and an edit of them: values changed, records deleted, inserted and moved.
    static func snapshots(seed: Int) -> (layout: Layout, base: [Value], edited: [Value]) {
        var choices = Choices(state: UInt64(bitPattern: Int64(seed)))
        let layout = Layout.random(&choices)
        let base = (0..<choices.next(9)).map { record(id: $0, &choices) }
        var edited = base
        for _ in 0..<choices.next(5) {
            switch choices.next(4) {
            case 0 where !edited.isEmpty: edited.remove(at: choices.next(edited.count))
            case 1: edited.insert(record(id: 100 + choices.next(50), &choices), at: choices.next(edited.count + 1))
            case 2 where !edited.isEmpty:
                let index = choices.next(edited.count)
                guard case .object(var members) = edited[index], case .number(let id) = members[0].value else { break }
                members = Array(Self.record(id: Int(id)!, &choices).objectMembers)
                edited[index] = .object(members)
            case 3 where edited.count > 1:
                let moved = edited.remove(at: choices.next(edited.count))
                edited.insert(moved, at: choices.next(edited.count + 1))
            default: break
            }
        }
        // Ids stay unique (an insert may repeat one).
        var seen = Set<String>()
        edited = edited.filter { record in
            guard case .object(let members) = record, case .number(let id) = members[0].value else { return false }
            return seen.insert(id).inserted
        }
        return (layout, base, edited)
    }

    static func snapshot(_ text: String, _ name: String, format: InputFormat, recordsAt: FieldPath? = nil) throws -> Snapshot {
        let input = InputFile(name: name, bytes: InputBytes(copying: Array(text.utf8)), format: format)
        var options = RecordOptions(id: [FieldPath(["id"])], recordsAt: recordsAt, mode: format.isJSON ? .typed : .text)
        options.appliesRenames = true
        return Snapshot(input: input, records: try input.readRecords(options, delimiter: UInt8(ascii: ",")), delimiter: UInt8(ascii: ","))
    }

    static func merged(_ base: String, _ ours: String, _ theirs: String, format: InputFormat, recordsAt: FieldPath? = nil) throws -> String {
        var options = MergeOptions()
        options.records.id = [FieldPath(["id"])]
        options.records.recordsAt = recordsAt
        options.records.mode = format.isJSON ? .typed : .text
        let merge = try DatasetMerge(
            base: snapshot(base, "base", format: format, recordsAt: recordsAt), ours: snapshot(ours, "ours", format: format, recordsAt: recordsAt),
            theirs: snapshot(theirs, "theirs", format: format, recordsAt: recordsAt), options: options)
        var output = ""
        try MergeWriter(merge).write(to: &output)
        return output
    }

    @Test func mergingWithAnUnchangedSideGivesTheOtherSideByteForByte() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...Int.max)) { seed in
            let (layout, baseRecords, editedRecords) = Self.snapshots(seed: seed)
            // The document around the records (when there is one) is edited too.
            var choices = Choices(state: UInt64(bitPattern: Int64(seed)) ^ 0xD0C)
            let documents = Self.documents(&choices)
            let base = layout.file(baseRecords, document: documents.base), edited = layout.file(editedRecords, document: documents.edited)
            let recordsAt = layout.inDocument ? FieldPath(["items"]) : nil
            let theirsChanged = try Self.merged(base, base, edited, format: layout.format, recordsAt: recordsAt)
            #expect(Array(theirsChanged.utf8) == Array(edited.utf8), "seed \(seed), \(layout), THEIRS changed:\n\(base)\n---\n\(edited)\n---\n\(theirsChanged)")
            let oursChanged = try Self.merged(base, edited, base, format: layout.format, recordsAt: recordsAt)
            #expect(Array(oursChanged.utf8) == Array(edited.utf8), "seed \(seed), \(layout), OURS changed:\n\(oursChanged)")
        }
    }
}

private extension Value {
    var objectMembers: [Member] {
        if case .object(let members) = self { members } else { [] }
    }
}
