/// How a JSON snapshot writes its records, learnt from its own bytes, so
/// that a record written into it (inserted by a patch, or merged from two
/// edits) looks like its neighbours and a plain text diff of the file shows
/// only what changed: pretty-printed with the file's indentation (spaces or
/// tabs, any width), its separator after a name (`:` or `: `), on one line
/// with its separator between members (`,` or `, `), and non-ASCII
/// characters escaped (`\u00e9`, as Python's `json.dumps` writes) or not.
/// Each is voted on over the sampled records, not taken from the first: a
/// first record of one member shows no separator between members.
///
/// A record that has a version in the file already is not written from
/// scratch: `text(of:frame:depth:)` keeps that version's bytes and replaces
/// only the members whose values changed (at any depth of nested objects).
package struct JSONStyle: Sendable, Equatable {
    /// The line break between lines of a record ("\n" or "\r\n").
    package var lineBreak = "\n"
    /// One level of indentation in records that span lines; nil when
    /// records are written on one line (NDJSON always).
    package var indent: String?
    /// Between a member's name and its value.
    package var nameSeparator = ":"
    /// Between members or elements written on one line.
    package var inlineSeparator = ","
    /// Characters past ASCII written as `\u` escapes.
    package var escapesNonASCII = false
    /// Hex digits of those escapes in upper case.
    package var uppercaseHex = false

    package init() {}

    /// How many bytes of records `learn` looks at: enough for a few records'
    /// style, bounded so that a huge record costs nothing.
    static let sampleSize = 1 << 16

    /// What a file showed of its style; the rest is the defaults, which
    /// another version of the file (the other side of a merge) may know better.
    package struct Known: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let lineBreak = Known(rawValue: 1)
        /// Indentation and separators (a record with members was seen).
        package static let members = Known(rawValue: 2)
        /// Escaping (a character past ASCII was seen).
        package static let escaping = Known(rawValue: 4)
    }

    /// What `learn` saw of the file.
    package var known: Known = []

    /// This style, with what it does not know taken from `other`.
    package func completed(by other: JSONStyle) -> JSONStyle {
        var style = self
        if !known.contains(.lineBreak) && other.known.contains(.lineBreak) { style.lineBreak = other.lineBreak }
        if !known.contains(.members) && other.known.contains(.members) {
            (style.indent, style.nameSeparator, style.inlineSeparator) = (other.indent, other.nameSeparator, other.inlineSeparator)
        }
        if !known.contains(.escaping) && other.known.contains(.escaping) {
            (style.escapesNonASCII, style.uppercaseHex) = (other.escapesNonASCII, other.uppercaseHex)
        }
        style.known.formUnion(other.known)
        return style
    }

    /// The style of the records in `sample` (a snapshot's first records'
    /// text, each one in full or cut), and of its line breaks in `around`
    /// (the bytes before and after them).
    package static func learn(records sample: [[UInt8]], around: [UInt8], oneRecordPerLine: Bool) -> JSONStyle {
        var style = JSONStyle()
        for bytes in [around] + sample {
            guard let newline = bytes.firstIndex(of: 0x0A) else { continue }
            if newline > 0 && bytes[newline - 1] == 0x0D { style.lineBreak = "\r\n" }
            style.known.insert(.lineBreak)
            break
        }
        var sawRawNonASCII = false, sawEscapedNonASCII = false, sawHexLetter: Bool?
        // Votes over every sampled record, not its first: a first record of one
        // member, or one whose arrays are all empty, shows no separator.
        var nameSeparators: [String: Int] = [:], inlineSeparators: [String: Int] = [:], indents: [String: Int] = [:]
        for text in sample {
            // Escapes and raw bytes past ASCII, outside and inside strings alike (names too).
            var index = 0
            while index < text.count {
                let byte = text[index]
                if byte >= 0x80 { sawRawNonASCII = true }
                if byte == 0x5C, index + 1 < text.count {
                    if text[index + 1] == 0x75, index + 5 < text.count {
                        let hex = text[(index + 2)...(index + 5)]
                        if let code = UInt32(String(decoding: hex, as: UTF8.self), radix: 16), code >= 0x80 {
                            sawEscapedNonASCII = true
                            if sawHexLetter == nil, let letter = hex.first(where: { $0 >= 0x41 }) { sawHexLetter = letter < 0x61 }
                        }
                    }
                    index += 2
                    continue
                }
                index += 1
            }
            countSeparators(in: text, names: &nameSeparators, inline: &inlineSeparators)
            guard let members = JSONValueReader.rawMembers(ofObject: text.span), let first = members.first else { continue }
            style.known.insert(.members)
            if text.contains(0x0A) && !oneRecordPerLine {
                // One level: the first member's line is indented that much more than the closing brace's.
                let memberIndent = indentation(ofLineAt: first.name.lowerBound - 1, in: text)
                let closingIndent = indentation(ofLineAt: text.count - 1, in: text)
                if let memberIndent, let closingIndent, memberIndent.count > closingIndent.count, memberIndent.starts(with: closingIndent) {
                    indents[String(decoding: memberIndent.dropFirst(closingIndent.count), as: UTF8.self), default: 0] += 1
                } else if let memberIndent, !memberIndent.isEmpty {
                    indents[String(decoding: memberIndent, as: UTF8.self), default: 0] += 1
                }
            }
        }
        func mostCommon(_ votes: [String: Int]) -> String? {
            votes.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        }
        if let separator = mostCommon(nameSeparators) { style.nameSeparator = separator }
        if let separator = mostCommon(inlineSeparators) { style.inlineSeparator = separator }
        style.indent = mostCommon(indents)
        style.escapesNonASCII = sawEscapedNonASCII && !sawRawNonASCII
        if sawEscapedNonASCII || sawRawNonASCII { style.known.insert(.escaping) }
        style.uppercaseHex = sawHexLetter ?? false
        return style
    }

    /// The spaces and tabs that start the line holding `position`, if only
    /// spaces and tabs come before it there (nil when the line starts before
    /// `text` does or holds something else first).
    static func indentation(ofLineAt position: Int, in text: [UInt8]) -> ArraySlice<UInt8>? {
        var start = position
        while start > 0 && text[start - 1] != 0x0A { start -= 1 }
        guard start > 0 else { return nil }
        var end = start
        while end < position && (text[end] == 0x20 || text[end] == 0x09) { end += 1 }
        guard end == position else { return nil }
        return text[start..<end]
    }

    /// Counts, outside strings, the text between a name and its value and
    /// between two members or elements on one line (`,` or `, `; white space
    /// before the comma too): the separators `text` writes.
    static func countSeparators(in text: [UInt8], names: inout [String: Int], inline: inout [String: Int]) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var index = 0
        var inString = false
        while index < text.count {
            let byte = text[index]
            if inString {
                if byte == 0x5C { index += 2; continue }
                if byte == 0x22 { inString = false }
                index += 1
                continue
            }
            if byte == 0x22 { inString = true; index += 1; continue }
            guard byte == 0x2C || byte == 0x3A else { index += 1; continue }
            var start = index
            while start > 0 && isSpace(text[start - 1]) { start -= 1 }
            var end = index + 1
            while end < text.count && isSpace(text[end]) { end += 1 }
            // Only between two tokens on one line: a line break after it is layout, not a separator.
            if start > 0, end < text.count, text[start - 1] != 0x0A, text[start - 1] != 0x0D, text[end] != 0x0A, text[end] != 0x0D {
                let separator = String(decoding: text[start..<end], as: UTF8.self)
                if byte == 0x2C { inline[separator, default: 0] += 1 } else { names[separator, default: 0] += 1 }
            }
            index = end
        }
    }

    /// The indentation unit's name in a note: "tabs", "4 spaces".
    package static func describe(indent: String) -> String {
        if !indent.isEmpty && indent.allSatisfy({ $0 == "\t" }) { return indent.count == 1 ? "tabs" : "\(indent.count) tabs" }
        if !indent.isEmpty && indent.allSatisfy({ $0 == " " }) { return indent.count == 1 ? "1 space" : "\(indent.count) spaces" }
        return "\"" + indent.map { $0 == "\t" ? "\\t" : String($0) }.joined() + "\""
    }

    /// `text` (JSON, or an indentation when `wholeLine`) with the
    /// indentation of every line moved from one unit to another, level by
    /// level: the leading `from`s of a line become as many `to`s, what
    /// follows them stays. Lines of JSON text start between tokens (a string
    /// cannot hold a raw line break), so no value changes. The first line of
    /// `text` (not `wholeLine`) starts where the caller puts it and is left alone.
    package static func converted(_ text: String, fromUnit: String, toUnit: String, wholeLine: Bool = false) -> String {
        guard fromUnit != toUnit, !fromUnit.isEmpty else { return text }
        let bytes = Array(text.utf8), from = Array(fromUnit.utf8), to = Array(toUnit.utf8)
        guard wholeLine || bytes.contains(0x0A) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        var atLineStart = wholeLine
        while index < bytes.count {
            if atLineStart {
                atLineStart = false
                while bytes[index...].starts(with: from) {
                    result.append(contentsOf: to)
                    index += from.count
                }
                continue
            }
            let byte = bytes[index]
            result.append(byte)
            index += 1
            if byte == 0x0A { atLineStart = true }
        }
        return String(decoding: result, as: UTF8.self)
    }

    // MARK: Writing

    /// `value` written in this style, its first line at indentation `depth`
    /// (the text of the line it starts on up to it).
    package func text(of value: Value, depth: String) -> String {
        var output = ""
        write(value, depth: depth, to: &output)
        return output
    }

    func write(_ value: Value, depth: String, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            writeContainer("[", "]", count: elements.count, depth: depth, to: &output) { index, inner, output in
                write(elements[index], depth: inner, to: &output)
            }
        case .object(let members):
            writeContainer("{", "}", count: members.count, depth: depth, to: &output) { index, inner, output in
                writeString(members[index].name, to: &output)
                output += nameSeparator
                write(members[index].value, depth: inner, to: &output)
            }
        }
    }

    private func writeContainer(
        _ open: String, _ close: String, count: Int, depth: String, to output: inout String,
        item: (Int, String, inout String) -> Void
    ) {
        output += open
        guard count > 0 else { return output += close }
        if let indent {
            let inner = depth + indent
            for index in 0..<count {
                output += (index == 0 ? "" : ",") + lineBreak + inner
                item(index, inner, &output)
            }
            output += lineBreak + depth
        } else {
            for index in 0..<count {
                if index > 0 { output += inlineSeparator }
                item(index, depth, &output)
            }
        }
        output += close
    }

    /// A string literal: what JSON must escape, and past ASCII what the file escapes.
    func writeString(_ text: String, to output: inout String) {
        guard escapesNonASCII, text.utf8.contains(where: { $0 >= 0x80 }) else { return Value.writeJSONString(text, to: &output) }
        var plain = ""
        Value.writeJSONString(text, to: &plain)
        for scalar in plain.unicodeScalars {
            guard scalar.value >= 0x80 else {
                output.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16, uppercase: uppercaseHex)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
    }

    /// The text of a record whose value is `value`, written where `frame` (a
    /// version of the record, as some file holds it, indented at
    /// `frameDepth`) stood: where `value` is an object and so is the frame,
    /// the frame's bytes are kept and only the members whose values differ
    /// are written again (nested objects alike), each in this style; members
    /// added go where `value` places them, with the frame's separators.
    /// Anything else is written whole. `donors` are other versions of the
    /// record (another side of a merge): a member equal to a donor's is
    /// copied from the donor, as that file writes it.
    package func text(of value: Value, frame: [UInt8]?, frameDepth: String, depth: String, donors: [([UInt8], String)] = []) -> String {
        if let frame, let spliced = {
            if case .array = value { return spliceArray(value, into: frame, frameDepth: frameDepth, depth: depth, donors: donors) }
            return splice(value, into: frame, frameDepth: frameDepth, depth: depth, donors: donors)
        }() {
            return spliced
        }
        if let copied = copy(value, from: donors, depth: depth) { return copied }
        return text(of: value, depth: depth)
    }

    /// A donor's text of `value`, when a donor holds exactly that value.
    private func copy(_ value: Value, from donors: [([UInt8], String)], depth: String) -> String? {
        for (donor, donorDepth) in donors {
            let same = (try? JSONValueReader.read(donor.span)) == value
            if same { return JSONStyle.reindented(String(decoding: donor, as: UTF8.self), from: donorDepth, to: depth) }
        }
        return nil
    }

    private func splice(_ value: Value, into frame: [UInt8], frameDepth: String, depth: String, donors: [([UInt8], String)]) -> String? {
        guard case .object(let targets) = value, let raw = JSONValueReader.rawMembers(ofObject: frame.span) else { return nil }
        guard let frameMembers = try? raw.map({ try JSONValueReader.member($0, in: frame.span) }) else { return nil }
        // The frame's member of a name (the last, when a name repeats, as
        // a reader keeps it): a short scan for the few members records
        // usually have, a dictionary for many.
        var frameIndexByName: [ExactTextKey: Int]?
        func frameIndex(_ name: String) -> Int? {
            guard frameMembers.count > 16 else { return frameMembers.lastIndex { ExactText.same($0.name, name) } }
            if frameIndexByName == nil {
                var index = [ExactTextKey: Int](minimumCapacity: frameMembers.count)
                for (position, member) in frameMembers.enumerated() { index[ExactTextKey(member.name)] = position }
                frameIndexByName = index
            }
            return frameIndexByName![ExactTextKey(name)]
        }
        // The donors' members, likewise, for a member whose value only a donor holds.
        let donorMembers: [(members: [(Value.Member, [UInt8])], depth: String)] = donors.compactMap { donor, donorDepth in
            guard let raw = JSONValueReader.rawMembers(ofObject: donor.span),
                  let members = try? raw.map({ (try JSONValueReader.member($0, in: donor.span), Array(donor[$0.value])) }) else { return nil }
            return (members, donorDepth + (indent ?? ""))
        }
        // Where each member's line starts: one level in from the frame, as the frame indents its members.
        let memberDepth = raw.first.flatMap { JSONStyle.indentation(ofLineAt: $0.name.lowerBound - 1, in: frame) }
            .map { String(decoding: $0, as: UTF8.self) }
            .map { JSONStyle.reindented($0, from: frameDepth, to: depth, wholeLine: true) } ?? depth + (indent ?? "")
        let frameMemberDepth = raw.first.flatMap { JSONStyle.indentation(ofLineAt: $0.name.lowerBound - 1, in: frame) }
            .map { String(decoding: $0, as: UTF8.self) } ?? frameDepth + (indent ?? "")

        func bytes(_ range: Range<Int>) -> String { String(decoding: frame[range], as: UTF8.self) }
        func reindent(_ text: String) -> String { JSONStyle.reindented(text, from: frameDepth, to: depth) }

        var pieces: [(frameIndex: Int?, text: String)] = []
        for target in targets {
            if let index = frameIndex(target.name) {
                let member = raw[index]
                let head = bytes((member.name.lowerBound - 1)..<member.value.lowerBound)
                let valueText: String
                if frameMembers[index].value == target.value {
                    valueText = reindent(bytes(member.value))
                } else if frameMembers[index].value.isContainer(like: target.value) {
                    let nestedDonors = donorMembers.compactMap { donor in
                        donor.members.first { ExactText.same($0.0.name, target.name) }.map { ($0.1, donor.depth) }
                    }
                    valueText = text(of: target.value, frame: Array(frame[member.value]), frameDepth: frameMemberDepth, depth: memberDepth, donors: nestedDonors)
                } else {
                    valueText = memberValue(target, donors: donorMembers, depth: memberDepth)
                }
                pieces.append((index, reindent(head) + valueText))
            } else {
                var head = ""
                writeString(target.name, to: &head)
                head += raw.first.map { bytes(($0.name.upperBound + 1)..<$0.value.lowerBound) } ?? nameSeparator
                pieces.append((nil, head + memberValue(target, donors: donorMembers, depth: memberDepth)))
            }
        }
        // The frame's own bytes between members, where the members stand as they did.
        let opening = bytes(0..<(raw.first.map { $0.name.lowerBound - 1 } ?? frame.count - 1))
        let closing = bytes((raw.last?.value.upperBound ?? frame.count - 1)..<frame.count)
        func gap(after index: Int) -> String { bytes(raw[index].value.upperBound..<(raw[index + 1].name.lowerBound - 1)) }
        guard !pieces.isEmpty else { return "{}" }
        guard !raw.isEmpty else {
            // An empty frame has no separators to keep: the style's.
            return text(of: value, depth: depth)
        }
        // With one member, the frame shows no separator: on its lines, or as this file writes one line.
        let onlySeparator = raw.count > 1 ? gap(after: 0) : frame.contains(0x0A) ? "," + lineBreak + frameMemberDepth : inlineSeparator
        return reindent(opening) + SeparatorChoice.joined(pieces, count: raw.count, gap: { reindent(gap(after: $0)) }, otherwise: reindent(onlySeparator))
            + reindent(closing)
    }

    /// The text of an array whose value is `value`, written where `frame`
    /// (a version of it) stood, as `splice` writes an object: the frame's
    /// elements that `value` keeps (a longest common subsequence, see
    /// `ElementAlignment`) are copied as they are, with the frame's bytes
    /// between them; an element changed in place that is an object or array
    /// in both is spliced in turn; the others are written in this style, on
    /// one line when the frame is. `donors` are other versions of the array:
    /// an element not kept from the frame that a donor holds as it is, is
    /// the donor's text; one changed in place takes the donor's element
    /// paired with it (found the same way) as its donor. Nil when the frame
    /// is not an array with elements (there is no layout to keep).
    private func spliceArray(_ value: Value, into frame: [UInt8], frameDepth: String, depth: String, donors: [([UInt8], String)] = []) -> String? {
        guard case .array(let targets) = value, let raw = JSONValueReader.rawElements(ofArray: frame.span), !raw.isEmpty,
            let frameValues = try? raw.map({ try JSONValueReader.read(frame.span.extracting($0)) })
        else { return nil }
        guard !targets.isEmpty else { return "[]" }
        let targetHashes = targets.map { $0.contentHash(mode: .typed) }
        /// Each target's source in `values`: kept, or changed in place (paired in order between two kept ones).
        func sources(in values: [Value]) -> [(index: Int, kept: Bool)?] {
            let matches = ElementAlignment(
                oldHashes: values.map { $0.contentHash(mode: .typed) }, newHashes: targetHashes, same: { values[$0] == targets[$1] }
            ).matches()
            var source = [(index: Int, kept: Bool)?](repeating: nil, count: targets.count)
            var (valuesNext, targetNext) = (0, 0)
            for match in matches + [(old: values.count, new: targets.count)] {
                for offset in 0..<min(match.old - valuesNext, match.new - targetNext) {
                    source[targetNext + offset] = (valuesNext + offset, false)
                }
                if match.new < targets.count { source[match.new] = (match.old, true) }
                (valuesNext, targetNext) = (match.old + 1, match.new + 1)
            }
            return source
        }
        let source = sources(in: frameValues)
        // Read only when some element is not the frame's.
        let donorElements: [(text: [UInt8], raw: [Range<Int>], depth: String, source: [(index: Int, kept: Bool)?])] =
            source.allSatisfy({ $0?.kept == true }) ? [] : donors.compactMap { donor, donorDepth in
                guard let raw = JSONValueReader.rawElements(ofArray: donor.span), !raw.isEmpty,
                      let values = try? raw.map({ try JSONValueReader.read(donor.span.extracting($0)) }) else { return nil }
                let elementDepth = JSONStyle.indentation(ofLineAt: raw[0].lowerBound, in: donor)
                    .map { String(decoding: $0, as: UTF8.self) } ?? donorDepth + (indent ?? "")
                return (donor, raw, elementDepth, sources(in: values))
            }
        func bytes(_ range: Range<Int>) -> String { String(decoding: frame[range], as: UTF8.self) }
        func reindent(_ text: String) -> String { JSONStyle.reindented(text, from: frameDepth, to: depth) }
        let oneLine = !frame.contains(0x0A)
        let frameElementDepth = JSONStyle.indentation(ofLineAt: raw[0].lowerBound, in: frame)
            .map { String(decoding: $0, as: UTF8.self) } ?? frameDepth + (indent ?? "")
        let elementDepth = JSONStyle.reindented(frameElementDepth, from: frameDepth, to: depth, wholeLine: true)
        var inline = self
        inline.indent = nil
        if oneLine, raw.count > 1 {
            // A file whose records span lines shows no one-line separator but here, between these elements.
            let between = frame[raw[0].upperBound..<raw[1].lowerBound]
            if between.filter({ $0 == 0x2C }).count == 1 { inline.inlineSeparator = String(decoding: between, as: UTF8.self) }
        }
        let pieces: [(frameIndex: Int?, text: String)] = targets.enumerated().map { position, target in
            let frameIndex = source[position]?.index
            if let (index, kept) = source[position], kept { return (index, reindent(bytes(raw[index]))) }
            var nestedDonors: [([UInt8], String)] = []
            for donor in donorElements {
                guard let (index, kept) = donor.source[position] else { continue }
                let text = Array(donor.text[donor.raw[index]])
                // An array on one line stays on one line.
                if oneLine && (text.contains(0x0A) || text.contains(0x0D)) { continue }
                // A donor's element as it is, moved to where this one stands.
                if kept { return (frameIndex, JSONStyle.reindented(String(decoding: text, as: UTF8.self), from: donor.depth, to: elementDepth)) }
                nestedDonors.append((text, donor.depth))
            }
            let style = oneLine ? inline : self
            if let index = frameIndex, frameValues[index].isContainer(like: target) {
                return (index, style.text(of: target, frame: Array(frame[raw[index]]), frameDepth: frameElementDepth, depth: elementDepth, donors: nestedDonors))
            }
            return (frameIndex, style.text(of: target, frame: nil, frameDepth: elementDepth, depth: elementDepth, donors: nestedDonors))
        }
        func gap(after index: Int) -> String { bytes(raw[index].upperBound..<raw[index + 1].lowerBound) }
        let onlySeparator = raw.count > 1 ? gap(after: 0) : oneLine ? inlineSeparator : "," + lineBreak + frameElementDepth
        return reindent(bytes(0..<raw[0].lowerBound))
            + SeparatorChoice.joined(pieces, count: raw.count, gap: { reindent(gap(after: $0)) }, otherwise: reindent(onlySeparator))
            + reindent(bytes(raw[raw.count - 1].upperBound..<frame.count))
    }

    /// A member's value as a donor holds it (when one holds exactly that), else written in this style.
    private func memberValue(_ member: Value.Member, donors: [(members: [(Value.Member, [UInt8])], depth: String)], depth: String) -> String {
        for donor in donors {
            if let found = donor.members.first(where: { $0.0 == member }) {
                return JSONStyle.reindented(String(decoding: found.1, as: UTF8.self), from: donor.depth, to: depth)
            }
        }
        return text(of: member.value, depth: depth)
    }

    /// `text` (JSON whose lines after the first are indented from `old`)
    /// indented from `new` instead. Every line break in JSON text is
    /// whitespace between tokens (a string cannot hold one raw), so lines
    /// can be moved without changing any value. `wholeLine`: `text` is an
    /// indentation itself.
    package static func reindented(_ text: String, from old: String, to new: String, wholeLine: Bool = false) -> String {
        guard old != new else { return text }
        if wholeLine { return text.hasPrefix(old) ? new + text.dropFirst(old.count) : text }
        // Bytes, not Characters: "\r\n" is one Character, and would hide its line feed.
        let bytes = Array(text.utf8), oldBytes = Array(old.utf8), newBytes = Array(new.utf8)
        guard bytes.contains(0x0A) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            result.append(byte)
            index += 1
            if byte == 0x0A && bytes[index...].starts(with: oldBytes) {
                result.append(contentsOf: newBytes)
                index += oldBytes.count
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// Which bytes separate two items (records of a file, members of an
/// object) written in a new order: the file's own where it had the two
/// side by side, else the separator before (or after) one of them, else a
/// typical one. So a file keeps its blank lines, its line breaks and its
/// indentation wherever its items keep their neighbours.
package enum SeparatorChoice {
    /// The original separator to use, as the index of the item it follows;
    /// nil for a typical one. `after` and `before`: the two items' places in
    /// the original (nil for a new item); `count`: the original's items.
    package static func gap(before: Int?, after: Int?, count: Int) -> Int? {
        if let after, let before, before == after + 1 { return after }
        if let before, before > 0 { return before - 1 }
        if let after, after + 1 < count { return after }
        // After the last item: the separator before it, the file's last.
        if let after, after > 0 { return after - 1 }
        return nil
    }

    /// `pieces` (each with its place in the original, nil for a new one)
    /// joined by the original's separators as `gap(before:after:count:)`
    /// picks them (`gap(i)`: the one after item `i`), else by `otherwise`.
    package static func joined(_ pieces: [(frameIndex: Int?, text: String)], count: Int, gap: (Int) -> String, otherwise: String) -> String {
        var output = ""
        for (position, piece) in pieces.enumerated() {
            if position > 0 {
                output += Self.gap(before: piece.frameIndex, after: pieces[position - 1].frameIndex, count: count).map(gap) ?? otherwise
            }
            output += piece.text
        }
        return output
    }
}

extension Value {
    /// Both objects, or both arrays: a version of `other` whose layout a writer can keep.
    fileprivate func isContainer(like other: Value) -> Bool {
        switch (self, other) {
        case (.object, .object), (.array, .array): true
        default: false
        }
    }
}
