// Reading a rules file: yajl reads the JSON (comments allowed), after
// trailing commas are blanked out (yajl has no option for them); each
// entry is then checked against the options the command takes, and every
// error is placed at the line and column of the name it is about.
extension RulesFile {
    /// Reads a rules file's `bytes`; `source` names it in errors, `folder`
    /// is where its globs start, and `options` are the names it may set.
    package static func parse(_ bytes: [UInt8], source: String, folder: String, options: [RuleOption]) throws(InputError) -> RulesFile {
        let text = blankingTrailingCommas(bytes)
        let document: JSONValueReader.CommentedDocument
        do {
            document = try JSONValueReader.readCommented(text: text)
        } catch {
            throw InputError(source: source, location: location(of: error.offset, in: bytes), message: error.message)
        }
        var keys = KeyPlaces(ends: document.keyEnds, bytes: bytes)
        func fail(_ message: String, at place: InputLocation?) -> InputError {
            InputError(source: source, location: place, message: message)
        }
        guard case .object(let members) = document.value else {
            throw fail("a rules file holds an object, {\"files\": {...}}", at: InputLocation(line: 1, column: 1))
        }
        var entries: [RulesEntry] = []
        // A name given twice would leave one of its two values unused without a word: refused, with both places.
        func once(_ name: String, at place: InputLocation, among seen: inout [String: InputLocation], _ what: String) throws(InputError) {
            if let first = seen[name] {
                throw fail("\(what) is given twice; the first is at line \(first.line), column \(first.column): keep one", at: place)
            }
            seen[name] = place
        }
        var topNames: [String: InputLocation] = [:]
        var globs: [String: InputLocation] = [:]
        for member in members {
            let place = keys.next()
            try once(member.name, at: place, among: &topNames, "\"\(member.name)\"")
            guard member.name == "files" else {
                keys.skip(member.value)
                throw fail("unknown key \"\(member.name)\"; \(NameHint.hint(FieldPath([member.name]), ["files"], kind: "keys"))", at: place)
            }
            guard case .object(let files) = member.value else {
                throw fail("\"files\" holds an object: a glob for each entry, such as {\"*.csv\": {\"id\": \"sku\"}}", at: place)
            }
            for file in files {
                let entryPlace = keys.next()
                try once(file.name, at: entryPlace, among: &globs, "the glob \"\(file.name)\"")
                guard let pattern = PathGlob(file.name) else {
                    throw fail("the glob \"\(file.name)\" names no file; write a file's path from the rules file's folder, "
                               + "folder/** for the files under a folder", at: entryPlace)
                }
                guard case .object(let settings) = file.value else {
                    throw fail("the entry \"\(file.name)\" holds an object of options, such as {\"id\": \"sku\"}, not \(describe(file.value))", at: entryPlace)
                }
                var entry = RulesEntry(pattern: pattern, location: entryPlace, settings: [])
                var settingNames: [String: InputLocation] = [:]
                for setting in settings {
                    let settingPlace = keys.next()
                    keys.skip(setting.value)
                    try once(setting.name, at: settingPlace, among: &settingNames, "\"\(setting.name)\" in the entry \"\(file.name)\"")
                    if let checked = try check(setting, options: options, at: settingPlace, fail: fail) { entry.settings.append(checked) }
                }
                entries.append(entry)
            }
        }
        return RulesFile(source: source, folder: folder, entries: entries)
    }

    private static func check(
        _ member: Value.Member, options: [RuleOption], at place: InputLocation, fail: (String, InputLocation) -> InputError
    ) throws(InputError) -> RulesEntry.Setting? {
        guard let option = options.first(where: { $0.name == member.name }) else {
            let hint = member.name.hasPrefix("-")
                ? "write the option's long name without dashes, as \"\(member.name.drop { $0 == "-" })\""
                : NameHint.hint(FieldPath([member.name]), options.map(\.name), kind: "options a rules file can set")
            throw fail("unknown option \"\(member.name)\"; \(hint)", place)
        }
        let name = "\"\(member.name)\""
        switch (option.takes, member.value) {
        case (.flag, .bool(let on)):
            return on ? RulesEntry.Setting(name: member.name, values: [], isFlag: true, location: place) : nil
        case (.flag, let value):
            throw fail("\(name) is a flag: true or false, not \(describe(value))", place)
        case (.value, .string(let text)), (.value, .number(let text)), (.values, .string(let text)), (.values, .number(let text)):
            return RulesEntry.Setting(name: member.name, values: [text], isFlag: false, location: place)
        case (.value, let value):
            throw fail("\(name) takes one value, a string or a number, not \(describe(value))", place)
        case (.values, .array(let elements)):
            var texts: [String] = []
            for (index, element) in elements.enumerated() {
                switch element {
                case .string(let text), .number(let text): texts.append(text)
                default: throw fail("\(name): element \(index + 1) is \(describe(element)); give strings", place)
                }
            }
            return RulesEntry.Setting(name: member.name, values: texts, isFlag: false, location: place)
        case (.values, let value):
            throw fail("\(name) takes a string or an array of strings, not \(describe(value))", place)
        }
    }

    /// A JSON value's kind, as a message names it.
    private static func describe(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool: "a bool"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    static func location(of offset: Int, in bytes: [UInt8]) -> InputLocation {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        // Characters, not bytes: UTF-8 continuation bytes do not start one.
        let column = 1 + bytes[lineStart..<end].count { $0 & 0xC0 != 0x80 }
        return InputLocation(line: line, column: column)
    }

    /// `bytes` with each comma that only whitespace or comments separate
    /// from a closing `]` or `}` turned into a space: the same length, so
    /// yajl's offsets are the file's. A comma after `[`, `{` or another
    /// comma stays, for yajl to refuse (`[,]` is no list).
    static func blankingTrailingCommas(_ bytes: [UInt8]) -> [UInt8] {
        var text = bytes
        var pendingComma: Int?
        var previous: UInt8 = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\""):
                pendingComma = nil
                previous = byte
                index += 1
                while index < text.count, text[index] != UInt8(ascii: "\"") {
                    index += text[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "/") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "/"):
                while index < text.count, text[index] != 0x0A { index += 1 }
                continue
            case UInt8(ascii: "/") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index + 1 < text.count, !(text[index] == UInt8(ascii: "*") && text[index + 1] == UInt8(ascii: "/")) { index += 1 }
                index += 1
            case UInt8(ascii: ","):
                pendingComma = [UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ",")].contains(previous) ? nil : index
                previous = byte
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let comma = pendingComma { text[comma] = 0x20 }
                pendingComma = nil
                previous = byte
            case 0x20, 0x09, 0x0A, 0x0D:
                break
            default:
                pendingComma = nil
                previous = byte
            }
            index += 1
        }
        return text
    }

    /// The places of the object keys yajl met, handed out in document order.
    private struct KeyPlaces {
        let ends: [Int]
        let bytes: [UInt8]
        var index = 0

        /// Where the next key starts: its opening quote.
        mutating func next() -> InputLocation {
            defer { index += 1 }
            guard index < ends.count else { return InputLocation(line: 1, column: 1) }
            // From the closing quote back to the opening one that no backslash escapes.
            var start = ends[index] - 2
            while start > 0 {
                if bytes[start] == UInt8(ascii: "\"") {
                    var backslashes = 0
                    while start - 1 - backslashes >= 0, bytes[start - 1 - backslashes] == UInt8(ascii: "\\") { backslashes += 1 }
                    if backslashes % 2 == 0 { break }
                }
                start -= 1
            }
            return RulesFile.location(of: max(start, 0), in: bytes)
        }

        /// Passes over the keys inside `value`.
        mutating func skip(_ value: Value) {
            switch value {
            case .object(let members):
                for member in members {
                    index += 1
                    skip(member.value)
                }
            case .array(let elements):
                elements.forEach { skip($0) }
            default:
                break
            }
        }
    }
}
