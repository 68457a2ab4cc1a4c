import Foundation

/// One change stream (`changeset OLD NEW --format ndjson`) read back: its
/// header, schema and layout lines, its changes (exact values, number
/// spellings kept, as `Value` keeps them) and its end line, checked: a
/// stream without its end line (cut), one whose digest or change count
/// does not match (edited), one of another release or stream form, and a
/// line that is not a stream line are refused with an `InputError` at the
/// file, line and column. The whole stream is held in memory.
package struct ChangeStreamReader: Sendable {
    /// The stream as its errors name it (its path, `<stdin>`, or a label).
    package let name: String
    /// The header's inputs, ids and section.
    package private(set) var old = InputSummary(name: "", format: .json, records: 0)
    package private(set) var new = InputSummary(name: "", format: .json, records: 0)
    package private(set) var id: [FieldPath] = []
    package private(set) var section: FieldPath?
    /// The header's rules and facts; `options` without `kinds` and `show`.
    package private(set) var facts = ChangeStreamFacts()
    /// `kinds` in the header's options: the stream holds only these kinds.
    package private(set) var kinds: [Change.Kind]?
    /// The schema line's changes and the line itself with its record counts left out (nil: none).
    package private(set) var schema = SchemaChanges()
    package private(set) var schemaShape: String?
    /// The layout line's changes and its text (nil: none).
    package private(set) var layout = FileLayoutChanges()
    package private(set) var layoutLine: String?
    /// The changes, in the stream's order, each with its 1-based line.
    package private(set) var changes: [Change] = []
    package private(set) var changeLines: [Int] = []
    /// The end line's counts (the per-field ones are left to `Summary.countFields`).
    package private(set) var counts = Summary()
    /// The end line's keyed arrays, each with the update it was first met in.
    package private(set) var keyedArrays: [(array: KeyedArray, firstUpdate: Int)] = []

    /// Reads the stream at `path` (`-`: standard input; `.gz`/`.zst`
    /// decompressed), naming it `name` in errors (by default its path).
    package init(path: String, name: String? = nil) throws {
        let input = try InputBytes.contents(of: path, name: name)
        try self.init(bytes: try input.copy(0..<input.count), name: name ?? (path == "-" ? InputFile.standardInputName : path))
    }

    /// Reads a stream held in `bytes`, named `name` in errors.
    package init(bytes: [UInt8], name: String) throws {
        self.name = name
        var lines: [ArraySlice<UInt8>] = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { throw failure(1, [.text("an empty file is no change stream: make one with ")] + Self.streamMaker) }
        var digest = ChangeStreamDigest()
        var ended = false
        for (offset, slice) in lines.enumerated() {
            let number = offset + 1
            let line = Array(slice)
            guard !ended else { throw failure(number, "a line after the stream's end line: the stream was edited") }
            let value = try parse(line, number)
            guard case .string(let kind)? = value.member(at: ["kind"]) else { throw failure(number, "not a change stream line: it has no \"kind\"") }
            if number == 1 {
                guard kind == "stream" else {
                    throw failure(1, [.text("not a change stream: its first line is no stream header (make one with ")] + Self.streamMaker + [.text(")")])
                }
                try readHeader(value, number)
                digest.add(line: line + [0x0A], isChange: false)
                continue
            }
            switch kind {
            case "stream":
                throw failure(number, "a second stream header: two streams joined into one file are read as two files")
            case "schema":
                guard changes.isEmpty, schemaShape == nil, layoutLine == nil else { throw failure(number, "a schema line out of its place (after the header)") }
                try readSchema(value, number)
                digest.add(line: line + [0x0A], isChange: false)
            case "layout":
                guard changes.isEmpty, layoutLine == nil else { throw failure(number, "a layout line out of its place (after the header and schema lines)") }
                layout = try Self.layout(value, failure: { failure(number, $0) })
                layoutLine = String(decoding: line, as: UTF8.self)
                digest.add(line: line + [0x0A], isChange: false)
            case "end":
                // The counts before the digest member are digested too.
                var counted = digest
                if let member = line.lastRange(of: ChangeStreamDigest.endLineDigestMember) {
                    counted.add(line: Array(line[..<member.lowerBound]), isChange: false)
                }
                try readEnd(value, number, digest: counted)
                ended = true
            default:
                guard Change.Kind(rawValue: kind) != nil else { throw failure(number, "not a change stream line: \"\(kind)\" is no kind of line") }
                changes.append(try Self.change(value, line: line, sectioned: section != nil, failure: { failure(number, $0) }))
                changeLines.append(number)
                digest.add(line: line + [0x0A], isChange: true)
            }
        }
        guard ended else {
            throw failure(lines.count, "the stream is cut: it has no end line (the run that wrote it stopped, or the file was cut)")
        }
    }

    /// An error at line `line`, column 1.
    private func failure(_ line: Int, _ message: String, column: Int = 1) -> InputError {
        InputError(source: name, location: InputLocation(line: line, column: column), message: message)
    }

    /// An error at line `line`, column 1, naming settings.
    private func failure(_ line: Int, _ parts: [MessagePart]) -> InputError {
        InputError(source: name, location: InputLocation(line: line, column: 1), parts: parts)
    }

    /// How a change stream is made, in the library's words or the command's.
    static let streamMaker: [MessagePart] = [.alternative(library: "the output format .ndjson", command: "changeset OLD NEW --format ndjson")]

    /// The line as a JSON value; an error at the last character yajl read
    /// (the one it stopped at), found by reading the line again.
    private func parse(_ line: [UInt8], _ number: Int) throws -> Value {
        do {
            return try JSONValueReader.read(text: line.span)
        } catch {
            var column = 1
            do {
                _ = try JSONValueReader.readCommented(text: line)
            } catch {
                column = max(1, String(decoding: line[..<min(error.offset, line.count)], as: UTF8.self).unicodeScalars.count)
                throw self.failure(number, "not a change stream line: \(error.message)", column: column)
            }
            throw self.failure(number, "not a change stream line: \(error)", column: column)
        }
    }

    private mutating func readHeader(_ header: Value, _ number: Int) throws {
        func fail(_ message: String) -> InputError { failure(number, message) }
        guard case .number(let form)? = header.member(at: ["stream"]), Int(form) == ChangeStreamFacts.formatVersion else {
            throw fail("a stream of another form (\(header.member(at: ["stream"])?.jsonText ?? "none")); this changeset reads form \(ChangeStreamFacts.formatVersion)")
        }
        guard case .string(let release)? = header.member(at: ["changeset"]), release == ChangesetRelease.versionLine else {
            throw fail("a stream from \(header.member(at: ["changeset"])?.jsonText ?? "an unknown release"); this is \(ChangesetRelease.versionLine): "
                + "make the stream again with it")
        }
        old = try Self.input(header.member(at: ["old"]), fail)
        new = try Self.input(header.member(at: ["new"]), fail)
        guard case .array(let ids)? = header.member(at: ["id"]) else { throw fail("the header has no \"id\"") }
        id = try ids.map { try FieldPath(parsing: try Self.string($0, fail)) }
        switch header.member(at: ["section"]) {
        case .string(let text)?: section = try FieldPath(parsing: text)
        case .null?: section = nil
        default: throw fail("the header has no \"section\"")
        }
        guard case .object(var options)? = header.member(at: ["options"]) else { throw fail("the header has no \"options\"") }
        if let kinds = options.first(where: { $0.name == "kinds" }) {
            guard case .array(let names) = kinds.value else { throw fail("the header's \"kinds\" is not a list") }
            self.kinds = try names.map { name in
                guard let kind = Change.Kind(rawValue: try Self.string(name, fail)) else { throw fail("the header's \"kinds\" names no kind of change") }
                return kind
            }
        }
        if let show = options.first(where: { $0.name == "show" }), case .array(let names) = show.value {
            facts.show = try names.map { try Self.string($0, fail) }
        }
        options.removeAll { $0.name == "kinds" || $0.name == "show" }
        facts.options = Value.object(options).jsonText
        guard case .string(let modeName)? = header.member(at: ["options", "mode"]), let mode = ComparisonMode(streamName: modeName) else {
            throw fail("the header's options name no comparison mode")
        }
        facts.mode = mode
        if case .object? = header.member(at: ["fingerprints"]) {
            guard case .string(let oldSum)? = header.member(at: ["fingerprints", "old"]), let oldValue = UInt64(oldSum, radix: 16),
                  case .string(let newSum)? = header.member(at: ["fingerprints", "new"]), let newValue = UInt64(newSum, radix: 16)
            else { throw fail("the header's fingerprints are not two 16-digit hex numbers") }
            facts.fingerprints = (oldValue, newValue)
        }
        if case .array(let names)? = header.member(at: ["keyless"]) { facts.keyless = try names.map { try Self.string($0, fail) } }
        if case .object? = header.member(at: ["keyHint"]) {
            guard case .array(let keys)? = header.member(at: ["keyHint", "keys"]), case .bool(let checkedAll)? = header.member(at: ["keyHint", "checkedAll"])
            else { throw fail("the header's keyHint is not keys and checkedAll") }
            facts.keyHint = KeyHint(keys: try keys.map { key in
                guard case .array(let names) = key else { throw fail("a key of the header's keyHint is not a list") }
                return try names.map { try Self.string($0, fail) }
            }, checkedAll: checkedAll)
        }
    }

    private mutating func readSchema(_ line: Value, _ number: Int) throws {
        func fail(_ message: String) -> InputError { failure(number, message) }
        func fields(_ value: Value?) throws -> [SchemaField] {
            guard case .array(let entries)? = value else { return [] }
            return try entries.map { SchemaField(path: try FieldPath(parsing: try Self.string($0.member(at: ["path"]), fail)), records: try Self.int($0.member(at: ["records"]), fail)) }
        }
        schema.added = try fields(line.member(at: ["added"]))
        schema.removed = try fields(line.member(at: ["removed"]))
        schema.ignoredAdded = try fields(line.member(at: ["ignored", "added"]))
        schema.ignoredRemoved = try fields(line.member(at: ["ignored", "removed"]))
        if case .array(let renames)? = line.member(at: ["renamed"]) {
            schema.renamed = try renames.map {
                Rename(old: try FieldPath(parsing: try Self.string($0.member(at: ["old"]), fail)), new: try FieldPath(parsing: try Self.string($0.member(at: ["new"]), fail)))
            }
        }
        if case .array(let suggestions)? = line.member(at: ["suggested"]) {
            schema.suggestedRenames = try suggestions.map {
                RenameSuggestion(old: try FieldPath(parsing: try Self.string($0.member(at: ["old"]), fail)), new: try FieldPath(parsing: try Self.string($0.member(at: ["new"]), fail)),
                                 compared: try Self.int($0.member(at: ["compared"]), fail), equal: try Self.int($0.member(at: ["equal"]), fail))
            }
        }
        // What must agree between parts: the fields and renames, not how many records hold them.
        func names(_ fields: [SchemaField]) -> String { fields.map(\.path.description).joined(separator: ",") }
        schemaShape = [names(schema.added), names(schema.removed), names(schema.ignoredAdded), names(schema.ignoredRemoved),
                       schema.renamed.map(\.argument).joined(separator: ",")].joined(separator: "|")
    }

    private mutating func readEnd(_ end: Value, _ number: Int, digest: ChangeStreamDigest) throws {
        func fail(_ message: String) -> InputError { failure(number, message) }
        guard case .string(let written)? = end.member(at: ["digest"]), written == digest.hex else {
            throw fail("the stream was edited: its digest does not match its lines")
        }
        guard try Self.int(end.member(at: ["changes"]), fail) == changes.count else {
            throw fail("the stream was edited: its end line counts \(end.member(at: ["changes"])?.jsonText ?? "no") change lines, and it holds \(changes.count)")
        }
        func count(_ path: String...) throws -> Int { try Self.int(end.member(at: ["summary"] + path), fail) }
        counts.inserted = try count("inserted")
        counts.deleted = try count("deleted")
        counts.updated = try count("updated")
        counts.moved = try count("moved")
        counts.changed = try count("changed")
        counts.unchanged = try count("unchanged")
        counts.schema = try count("schema")
        counts.oldCount = try count("oldRecords")
        counts.newCount = try count("newRecords")
        if section != nil {
            counts.sectionsInserted = try count("sections", "inserted")
            counts.sectionsDeleted = try count("sections", "deleted")
            counts.sectionsMoved = try count("sections", "moved")
        }
        if case .object? = end.member(at: ["summary", "rekeyed"]) {
            counts.rekeyed = try count("rekeyed", "records")
            if case .array(let examples)? = end.member(at: ["summary", "rekeyed", "examples"]) {
                counts.rekeyedExamples = try examples.map {
                    RekeyedRecord(old: try Self.id($0.member(at: ["old"]), fail) ?? [], new: try Self.id($0.member(at: ["new"]), fail) ?? [])
                }
            }
        }
        if case .array(let arrays)? = end.member(at: ["summary", "keyedArrays"]) {
            keyedArrays = try arrays.map { entry in
                let keyed = KeyedArray(array: try Self.string(entry.member(at: ["array"]), fail),
                                       key: try FieldPath.parseList(try Self.string(entry.member(at: ["key"]), fail)),
                                       records: try Self.int(entry.member(at: ["records"]), fail))
                return (keyed, try Self.int(entry.member(at: ["firstUpdate"]), fail))
            }
        }
    }

    // MARK: Values

    static func string(_ value: Value?, _ fail: (String) -> InputError) throws -> String {
        guard case .string(let text)? = value else { throw fail("expected a string, found \(value?.jsonText ?? "none"): the stream was edited") }
        return text
    }

    static func int(_ value: Value?, _ fail: (String) -> InputError) throws -> Int {
        guard case .number(let text)? = value, let number = Int(text) else {
            throw fail("expected a whole number, found \(value?.jsonText ?? "none"): the stream was edited")
        }
        return number
    }

    static func id(_ value: Value?, _ fail: (String) -> InputError) throws -> [String]? {
        switch value {
        case .null?: return nil
        case .string(let text)?: return [text]
        case .array(let parts)?: return try parts.map { try string($0, fail) }
        default: throw fail("an id was expected: \(value?.jsonText ?? "nothing") is none")
        }
    }

    static func input(_ value: Value?, _ fail: (String) -> InputError) throws -> InputSummary {
        guard let value, let format = InputFormat(rawValue: try string(value.member(at: ["format"]), fail)) else { throw fail("the header's inputs are not file, format and records") }
        return InputSummary(name: try string(value.member(at: ["file"]), fail), format: format, records: try int(value.member(at: ["records"]), fail))
    }

    static func layout(_ line: Value, failure fail: (String) -> InputError) throws -> FileLayoutChanges {
        var layout = FileLayoutChanges()
        if case .object? = line.member(at: ["lineEndings"]) {
            func counts(_ name: String) throws -> LineEndings {
                LineEndings(lf: try int(line.member(at: ["lineEndings", name, "lf"]), fail), crlf: try int(line.member(at: ["lineEndings", name, "crlf"]), fail),
                            cr: try int(line.member(at: ["lineEndings", name, "cr"]), fail))
            }
            layout.lineEndings = LayoutChange(old: try counts("oldCounts"), new: try counts("newCounts"))
        }
        func flag(_ name: String) -> LayoutChange<Bool>? {
            guard case .bool(let old)? = line.member(at: [name, "old"]), case .bool(let new)? = line.member(at: [name, "new"]) else { return nil }
            return LayoutChange(old: old, new: new)
        }
        layout.byteOrderMark = flag("byteOrderMark")
        layout.finalNewline = flag("finalNewline")
        if case .array(let old)? = line.member(at: ["columnOrder", "old"]), case .array(let new)? = line.member(at: ["columnOrder", "new"]) {
            layout.columnOrder = ColumnOrderChange(old: try old.map { try string($0, fail) }, new: try new.map { try string($0, fail) })
        }
        return layout
    }

    /// A change line read back into the `Change` it was written from.
    static func change(_ value: Value, line: [UInt8], sectioned: Bool, failure fail: (String) -> InputError) throws -> Change {
        let kind = Change.Kind(rawValue: try string(value.member(at: ["kind"]), fail))!
        // A position's numbers are outside the digest (a job may rewrite them): checked here instead.
        func place(_ side: String, sectionChange: Bool) throws -> RecordPlace? {
            guard let object = value.member(at: [side]) else { return nil }
            guard case .object(let members) = object,
                  members.allSatisfy({ ["index", "line"].contains($0.name) || ($0.name == "section" && sectioned && !sectionChange) }) else {
                throw fail("\"\(side)\" is no position (an object of index, line and, in sections, section): the stream was edited")
            }
            let index = try int(object.member(at: ["index"]), fail)
            guard index >= 0 else { throw fail("\"\(side)\" has index \(index), below 0: the stream was edited") }
            guard !sectionChange else { return RecordPlace(index: index) }
            var section: String?
            if sectioned, case .string(let name)? = object.member(at: ["section"]) { section = name }
            let line = try object.member(at: ["line"]).map { try int($0, fail) }
            if let line, line < 1 { throw fail("\"\(side)\" has line \(line), below 1: the stream was edited") }
            return RecordPlace(section: section, index: index, line: line)
        }
        if kind.isSectionChange {
            var section: String?
            if case .string(let name)? = value.member(at: ["section"]) { section = name }
            return Change(kind: kind, section: section, old: try place("old", sectionChange: true), new: try place("new", sectionChange: true))
        }
        let id = try Self.id(value.member(at: ["id"]), fail)
        var change: Change
        if let record = recordText(in: line) {
            change = Change(kind: kind, id: id, old: try place("old", sectionChange: false), new: try place("new", sectionChange: false), recordJSON: record)
        } else {
            change = Change(kind: kind, id: id, old: try place("old", sectionChange: false), new: try place("new", sectionChange: false))
        }
        if case .object(let shown)? = value.member(at: ["show"]) {
            // null is a value; a field the record lacks is listed in "absent".
            var absent = Set<String>()
            if case .array(let names)? = value.member(at: ["absent"]) { absent = Set(try names.map { try string($0, fail) }) }
            change.context = try shown.map { member in
                (try FieldPath(parsing: member.name), absent.contains(member.name) ? nil : member.value)
            }
        }
        if case .array(let fields)? = value.member(at: ["fields"]) {
            change.fields = try fields.map { try fieldChange($0, fail) }
        }
        return change
    }

    /// The `record` member's JSON text, as written (the record's own bytes, no `Value` built).
    static func recordText(in line: [UInt8]) -> [UInt8]? {
        var members = TopLevelMembers(line)
        guard members.open() else { return nil }
        while let (name, start) = members.nextMember() {
            guard let end = members.skipValue() else { return nil }
            if name == "record" { return Array(line[start..<end]) }
        }
        return nil
    }

    static func fieldChange(_ value: Value, _ fail: (String) -> InputError) throws -> FieldChange {
        let path = try FieldPath(parsing: try string(value.member(at: ["path"]), fail))
        var elements: [FieldChange.ElementIndex] = []
        if case .string(let pointer)? = value.member(at: ["pointer"]) {
            elements = try elementIndices(pointer, path: path, fail)
        }
        var move: FieldChange.ElementMove?
        if let to = value.member(at: ["movedTo"]) { move = .to(try int(to, fail)) }
        if let from = value.member(at: ["movedFrom"]) { move = .from(try int(from, fail)) }
        var change = FieldChange(path: path, old: value.member(at: ["old"]), new: value.member(at: ["new"]), elements: elements, move: move)
        if case .array(let inside)? = value.member(at: ["inside"]) { change.inside = try inside.map { try fieldChange($0, fail) } }
        return change
    }

    /// The array positions of a change's pointer (`/items/3/price` with path
    /// `items.price`: one, at depth 1): its tokens are the path's names with
    /// positions among them; a token that is the path's next name is taken
    /// for the name.
    static func elementIndices(_ pointer: String, path: FieldPath, _ fail: (String) -> InputError) throws -> [FieldChange.ElementIndex] {
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
        var depth = 0
        var elements: [FieldChange.ElementIndex] = []
        for (position, token) in tokens.enumerated() {
            let namesLeft = path.components.count - depth, tokensLeft = tokens.count - position
            if depth < path.components.count && token == path.components[depth] && (tokensLeft == namesLeft || Int(token) == nil) {
                depth += 1
            } else if let index = Int(token) {
                elements.append(FieldChange.ElementIndex(depth: depth, index: index))
            } else if depth < path.components.count && token == path.components[depth] {
                depth += 1
            } else {
                throw fail("the pointer \(pointer) does not follow the path \(path)")
            }
        }
        return elements
    }
}
