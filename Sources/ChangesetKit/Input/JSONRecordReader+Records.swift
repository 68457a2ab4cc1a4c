internal import CYajl
import Foundation

// The JSON reader's record building: where values may stand (the layout's
// checks), records opened and closed, members named, values hashed into the
// record's fingerprint, the id and section read.
extension JSONRecordReader {
    // MARK: Structure

    enum Kind: String {
        case object = "an object", array = "an array", string = "a string", number = "a number"
        case trueValue = "true", falseValue = "false", null = "null"
    }

    /// Checks that a value may stand where it is, and opens a record when it is one.
    /// Returns the role the value (if a container) takes, or nil after an error.
    func beginValue(_ kind: Kind) -> Role? {
        guard let parent = frames.last else {
            switch (layout, kind) {
            case (.array, .array): return .recordArray
            case (.lines, .object): return beginRecord()
            case (.nested, .object): return .pathStep(depth: 0)
            default:
                return misplaced(kind, expected: layout == .lines ? "a record object on each line" : expectedTopLevel)
            }
        }
        switch parent.role {
        case .record: return .record
        case .recordArray:
            return kind == .object ? beginRecord() : misplaced(kind, expected: "a record object in the array")
        case .pathStep(let depth):
            guard parent.pendingNameIsPathStep, case .nested(let path) = layout else { return .outside }
            let last = depth + 1 == path.components.count
            switch (last, kind) {
            case (true, .array):
                sawRecordsArray = true
                return .recordArray
            case (false, .object): return .pathStep(depth: depth + 1)
            default:
                let prefix = FieldPath(Array(path.components.prefix(depth + 1)))
                return misplaced(kind, expected: last ? "an array of records at \"\(prefix)\"" : "an object at \"\(prefix)\"")
            }
        case .outside: return .outside
        }
    }

    func misplaced(_ kind: Kind, expected: String) -> Role? {
        guard let token = currentTokenStart() else { return nil }
        var message: [MessagePart] = [.text("expected \(expected), found \(kind.rawValue)")]
        if layout == .array && frames.isEmpty && kind == .object {
            message += [.text(" (use "), .setting(.recordsAt), .text(" to name the array inside it, or .ndjson for one record per line)")]
        }
        _ = cancel(message, at: location(of: token))
        return nil
    }

    func beginRecord() -> Role? {
        guard let token = currentTokenStart() else { return nil }
        recordStart = token.offset
        recordMark = token
        if layout == .lines && token.line <= previousRecordEndLine {
            _ = cancel("a second record on one line (NDJSON holds one record per line)", at: recordLocation)
            return nil
        }
        for index in idParts.indices { idParts[index] = nil }
        hasOneID = false
        idHash = nil
        sectionName = nil
        return .record
    }

    /// The deepest nesting of arrays and objects accepted. Reading itself has
    /// no limit, but changed records are shown through recursive code; a
    /// clean error beats a stack overflow, and real data is far shallower.
    package static let maximumDepth = 1000

    func openContainer(isObject: Bool) -> Int32 {
        if frames.count >= JSONRecordReader.maximumDepth {
            guard let token = currentTokenStart() else { return 0 }
            return cancel(
                "arrays and objects nest deeper than \(JSONRecordReader.maximumDepth) levels here, more than changeset supports",
                at: location(of: token))
        }
        guard let role = beginValue(isObject ? .object : .array) else { return 0 }
        var node = FieldRules.none
        var filtered = false
        var isRoot = false
        if case .record = role {
            if let parent = frames.last, case .record = parent.role {
                if parent.isObject {
                    if !checkKeyField(parent.pendingNode, kind: isObject ? .object : .array) { return 0 }
                    node = parent.pendingNode
                    filtered = rules.isFiltered(node, parentFiltered: parent.filtered)
                }
            } else {
                isRoot = true
                node = rules.isEmpty ? FieldRules.none : FieldRules.root
                filtered = rules.onlyMode
            }
        }
        if case .recordArray = role { recordsArrayStart = callbackOffset - 1 }
        frames.append(Frame(
            isObject: isObject, role: role,
            hash: isObject ? 0 : ValueHasher.arrayStart(),
            node: node, filtered: filtered, namesStart: memberNames.count, isRecordRoot: isRoot))
        return 1
    }

    /// An id or section field must hold a scalar.
    func checkKeyField(_ node: Int32, kind: Kind) -> Bool {
        guard let role = rules.role(node), role.idComponent >= 0 || role.isSection else { return true }
        guard let token = currentTokenStart() else { return false }
        let what = role.isSection
            ? "section field \"\(options.section?.description ?? "")\""
            : "id field \"\(options.id[role.idComponent])\""
        _ = cancel("the \(what) is \(kind.rawValue); it must be a string or a number", at: location(of: token))
        return false
    }

    func closeContainer() -> Int32 {
        lastValueEnd = callbackOffset
        let frame = frames.removeLast()
        if frame.isRecordRoot && frame.isObject {
            schema.endRecord(memberCount: memberNames.count - frame.namesStart) { Array(memberNames.elements[frame.namesStart...]) }
        }
        memberNames.removeAll(from: frame.namesStart)
        if !manyNames.isEmpty { manyNames[frames.count] = nil }
        if case .recordArray = frame.role { builder.setContainerRange(recordsArrayStart..<callbackOffset) }
        guard case .record = frame.role else { return 1 }
        let hash = frame.isObject
            ? ValueHasher.objectEnd(frame.hash, count: frame.count)
            : ValueHasher.arrayEnd(frame.hash, count: frame.count)
        if frame.isRecordRoot { return endRecord(fingerprint: hash) }
        // An object --only filters that holds none of the named fields carries no value.
        deliver(hash, isEmpty: frame.filtered && frame.count == 0, isObject: frame.isObject)
        return 1
    }

    func endRecord(fingerprint: UInt64) -> Int32 {
        let end = callbackOffset
        if let problem = scanUpTo(end, acceptedByYajl: true) {
            failure = problem
            return 0
        }
        if layout == .lines {
            if lineNow != recordMark.line {
                return cancel("a record must end on the line it starts on (NDJSON holds one record per line)", at: recordLocation)
            }
            previousRecordEndLine = lineNow
        }
        for (index, part) in idParts.enumerated() where idParts.count == 1 ? !hasOneID : part == nil {
            let path = options.id[index]
            // Other records may have it: then the name is right and this record lacks it.
            let hint = schema.names.contains { ExactText.same($0, path.flatName) } ? "" : "; " + NameHint.hint(path, schema.names)
            return cancel([.text("the record has no \"\(path)\" field (the "), .setting(.id), .text(")\(hint)")], at: recordLocation)
        }
        builder.sizeAfterFirstRecords(endingAt: end, inputSize: expectedInputSize)
        do {
            if idParts.count == 1 {
                try oneID.withBytes { key in
                    try builder.append(
                        keyText: key, keyHash: idHash, section: sectionName, fingerprint: fingerprint,
                        range: recordStart..<end, line: recordMark.line, location: recordLocation)
                }
            } else {
                try builder.append(
                    key: RecordTableBuilder.key(idParts.map { $0! }), keyHash: idHash,
                    section: sectionName, fingerprint: fingerprint,
                    range: recordStart..<end, line: recordMark.line, location: recordLocation)
            }
        } catch {
            failure = error as? InputError
            budgetSpent = error as? RecordBudget.Exceeded
            return 0
        }
        return 1
    }

    /// Adds a finished value inside a record to the container that holds it.
    @inline(__always)
    func deliver(_ hash: UInt64, isEmpty: Bool, isObject: Bool) {
        let top = frames.count - 1
        if frames[top].isObject {
            let node = frames[top].pendingNode
            guard !isEmpty, rules.isCompared(node, inFilteredObject: frames[top].filtered, valueIsObject: isObject) else { return }
        }
        frames[top].add(hash)
    }

    /// A scalar value; `literal` is a number's or string's bytes (empty for
    /// the others); `isCanonical`, a number the lexer knows is in canonical form.
    func scalar(_ kind: Kind, _ value: ValueHasher.ScalarHash, literal: Span<UInt8>, isCanonical: Bool = false) -> Int32 {
        lastValueEnd = callbackOffset
        guard let parent = frames.last, case .record = parent.role else {
            guard beginValue(kind) != nil else { return 0 }
            return 1
        }
        if parent.isRecordRoot && parent.isObject && (kind == .null || value.isEmpty) {
            schema.noValue(parent.pendingName)
        }
        if parent.isObject, let role = rules.role(parent.pendingNode), role.idComponent >= 0 || role.isSection {
            if !role.isSection && idParts.count == 1 && (kind == .number || kind == .string) {
                return oneIDScalar(kind, value, literal: literal, isCanonical: isCanonical)
            }
            let value: String? = switch kind {
            case .null: nil
            case .trueValue: "true"
            case .falseValue: "false"
            case .number: ScalarText.fromNumber(literal, scratch: &scratch)
            case .string: ScalarText.fromText(literal)
            case .object, .array: nil  // containers never come here
            }
            if role.isSection {
                sectionName = value
            }
            if role.idComponent >= 0 {
                guard let value else {
                    guard let token = currentTokenStart() else { return 0 }
                    return cancel("the id field \"\(options.id[role.idComponent])\" is null", at: location(of: token))
                }
                if value.isEmpty, options.mode.isText {
                    guard let token = currentTokenStart() else { return 0 }
                    return cancel("the id field \"\(options.id[role.idComponent])\" is empty", at: location(of: token))
                }
                if idParts.count == 1 {
                    oneID.removeAll()
                    oneID.append(contentsOf: value)
                    keyOneID()
                } else {
                    idParts[role.idComponent] = value
                }
            }
        }
        deliver(value.hash, isEmpty: value.isEmpty, isObject: false)
        return 1
    }

    /// `scalar` for a one-part id that is a number or a string, its text
    /// copied from the token into `oneID` (a number's in canonical form, as
    /// `ScalarText.fromNumber` gives it; a string's bytes are valid UTF-8,
    /// or the scanner, or the own lexer, refuses the record before it is added).
    private func oneIDScalar(_ kind: Kind, _ value: ValueHasher.ScalarHash, literal: Span<UInt8>, isCanonical: Bool) -> Int32 {
        oneID.removeAll()
        if kind == .number, !isCanonical, CanonicalNumber.literalForm(literal) != .canonical,
           CanonicalNumber.canonicalize(literal, into: &scratch) {
            oneID.append(scratch.span)
        } else {
            oneID.append(literal)
        }
        if oneID.isEmpty, options.mode.isText {
            guard let token = currentTokenStart() else { return 0 }
            return cancel("the id field \"\(options.id[0])\" is empty", at: location(of: token))
        }
        keyOneID()
        deliver(value.hash, isEmpty: value.isEmpty, isObject: false)
        return 1
    }

    /// `oneID` holds the record's id: its key hashed, the key index's slot asked for.
    private func keyOneID() {
        hasOneID = true
        if indexesKeys { idHash = oneID.withBytes { builder.hashPrefetchingSlot(key: $0) } }
    }

    /// The options' fields that some record has (see `RecordTable.fieldsFound`).
    var fieldsFound: [FieldPath] {
        var found = seenNodes.indices.flatMap { seenNodes[$0] ? rules.namedPaths(Int32($0)) : [] }
        for rename in options.renames where renamesApplied.contains(Array(rename.new.components.last!.utf8)) {
            found.append(rename.new)
        }
        return found
    }

    func memberName(_ bytes: Span<UInt8>) -> Int32 {
        if hasRenames, let frame = frames.last, case .record = frame.role, let old = rules.renamedName(bytes, in: frame.node) {
            // --rename: the new side's member is read as the old one, everywhere.
            renamesApplied.insert(bytes.array)
            return resolvedMemberName(old.span)
        }
        return resolvedMemberName(bytes)
    }

    @inline(__always)
    func resolvedMemberName(_ bytes: Span<UInt8>) -> Int32 {
        let top = frames.count - 1
        let start = frames[top].namesStart
        if frames[top].isRecordRoot {
            // The usual case: the member the records before had at this place.
            let position = memberNames.count - start
            if let known = recordMemberNames.entry(at: position, named: bytes) {
                memberNames.append(known.hash)
                frames[top].expect(name: known.hash, node: known.node)
                schema.member(at: position, nameHash: known.hash, name: bytes)
                return 1
            }
        }
        let nameHash = ValueHasher.name(bytes)
        var duplicate = false
        if memberNames.count - start < 16 {
            let names = memberNames.elements
            var index = start
            while index < names.count && names[index] != nameHash { index += 1 }
            duplicate = index < names.count
        } else {
            if manyNames[top] == nil { manyNames[top] = Set(memberNames.elements[start...]) }
            duplicate = !manyNames[top]!.insert(nameHash).inserted
        }
        if duplicate {
            guard let token = currentTokenStart() else { return 0 }
            let name = bytes.decoded
            let renamed = hasRenames && options.renames.contains { $0.old.components.last == name }
            return cancel([.text("duplicate member name \"\(TerminalText.datum(name))\" in an object")]
                          + (renamed ? [.text(", after "), .setting(.rename), .text(" read one member as the other")] : []),
                          at: location(of: token))
        }
        memberNames.append(nameHash)
        frames[top].pendingName = nameHash
        switch frames[top].role {
        case .record:
            let node = rules.child(of: frames[top].node, name: bytes)
            frames[top].pendingNode = node
            // Read before writing: a write to the array costs a uniqueness check per member.
            if node >= 0 && !seenNodes[Int(node)] { seenNodes[Int(node)] = true }
            if frames[top].isRecordRoot {
                let position = memberNames.count - start - 1
                schema.member(at: position, nameHash: nameHash, name: bytes)
                recordMemberNames.record(.init(hash: nameHash, node: node), at: position, named: bytes)
            }
        case .pathStep(let depth):
            if case .nested(let path) = layout {
                frames[top].pendingNameIsPathStep = path.components[depth].withBytes { $0.sameBytes(as: bytes) }
                if !frames[top].pendingNameIsPathStep && pathNeighbours.count < 64 {
                    pathNeighbours.append(FieldPath(Array(path.components.prefix(depth)) + [bytes.decoded]))
                }
            }
        default: break
        }
        return 1
    }
}
