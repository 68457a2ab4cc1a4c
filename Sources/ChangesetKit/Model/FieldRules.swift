/// The part a named field plays: id component, section, ignored, compared.
struct FieldRole: Equatable {
    /// Index into `--id`'s list, or -1.
    var idComponent = -1
    var isSection = false
    var ignored = false
    /// Named by `--only` itself.
    var only = false
    /// An ancestor of a field named by `--only` (an object to look inside).
    var onlyBelow = false
}

/// Which fields count, and as what: the one place the `--id`, `--section`,
/// `--ignore`, `--only` and `--rename` rules live. The readers ask it at each
/// member while they fingerprint records, and the field-level comparison asks
/// it for each path (`verdict`), so a fingerprint differs exactly when the
/// field-level changes are not empty (before a report leaves out the fields
/// only one schema has, `schemaOnly`, and applies a tolerance).
///
/// The named paths form a trie over member names, so a streaming reader can
/// tell at each member what it is without building paths. A name in
/// `--ignore` or `--only` may be a glob pattern (`*` any run of characters,
/// `?` one character, `[abc]`, `[a-z]`, `[!x]` one of a set), matched against
/// one member name at a time: `UNTERM*` matches top-level names, `translations.*`
/// every member of `translations`. A name without those characters matches itself.
package struct FieldRules: Sendable {
    struct Node: Sendable {
        var children: [(name: [UInt8], node: Int32)] = []
        var globs: [(pattern: GlobPattern, node: Int32)] = []
        var role = FieldRole()
        /// `--rename OLD=NEW` inside this object: NEW's name bytes to OLD's.
        var renames: [(new: [UInt8], old: [UInt8])] = []
    }

    private(set) var nodes: [Node] = [Node()]
    /// The option text each named node stands for (`--ignore` patterns and the like), for `FieldCheck`.
    private(set) var namedPaths: [Int32: [FieldPath]] = [:]
    let onlyMode: Bool
    /// Top-level fields only one snapshot's schema has: reported once as
    /// schema changes, never per record (report comparisons only).
    var schemaOnly: Set<ExactTextKey> = []

    static let root: Int32 = 0
    static let none: Int32 = -1

    enum Verdict: Sendable { case include, skip, lookInside }

    /// `flat`: a CSV record is in play, whose column `a.b` is the path `a.b`,
    /// so every path is matched as one name. `renames`: applied by the reader
    /// of the new side only (`RecordOptions.renames`).
    package init(_ options: RecordOptions, flat: Bool = false) {
        func components(_ path: FieldPath) -> [String] { flat ? [path.flatName] : path.components }
        onlyMode = !options.only.isEmpty
        for (index, path) in options.id.enumerated() { update(components(path), glob: false) { $0.idComponent = index } }
        if let section = options.section { update(components(section), glob: false) { $0.isSection = true } }
        for path in options.ignore { update(components(path), glob: true, named: path) { $0.ignored = true } }
        for path in options.only {
            update(components(path), glob: true, named: path) { $0.only = true }
            var walk = FieldRules.root
            for name in components(path).dropLast() {
                walk = existingChild(of: walk, name: name, glob: true)
                nodes[Int(walk)].role.onlyBelow = true
            }
        }
        for noted in options.notedFields { update(components(noted.path), glob: false, named: noted.path) { _ in } }
        for rename in options.renames {
            // The old name is a field like any other (so the old side's reader
            // notes it); in its object, the new name is read as the old one.
            let oldNames = components(rename.old)
            let newNames = components(rename.new)
            update(oldNames, glob: false, named: rename.old) { _ in }
            guard options.appliesRenames else { continue }
            let parent = update(Array(oldNames.dropLast()), glob: false) { _ in }
            nodes[Int(parent)].renames.append((Array(newNames.last!.utf8), Array(oldNames.last!.utf8)))
        }
        mergePatternsIntoNames()
    }

    /// A member finds its exact name before any pattern, so a name some other
    /// option also spells out (`--only 'pri*' --tolerance price=0.01`) takes
    /// on the roles of the sibling patterns that match it. (What is named
    /// below a pattern stays with the pattern.)
    private mutating func mergePatternsIntoNames() {
        for index in nodes.indices where !nodes[index].globs.isEmpty {
            for child in nodes[index].children {
                let name = String(decoding: child.name, as: UTF8.self)
                for glob in nodes[index].globs where glob.pattern.matches(name) {
                    let pattern = nodes[Int(glob.node)].role
                    nodes[Int(child.node)].role.ignored = nodes[Int(child.node)].role.ignored || pattern.ignored
                    nodes[Int(child.node)].role.only = nodes[Int(child.node)].role.only || pattern.only
                    nodes[Int(child.node)].role.onlyBelow = nodes[Int(child.node)].role.onlyBelow || pattern.onlyBelow
                    namedPaths[child.node, default: []] += namedPaths[glob.node] ?? []
                }
            }
        }
    }

    /// True when no field is named at all: the readers can skip all lookups.
    var isEmpty: Bool { nodes.count == 1 && nodes[0].renames.isEmpty }

    @discardableResult
    private mutating func update(_ names: [String], glob: Bool, named: FieldPath? = nil, _ change: (inout FieldRole) -> Void) -> Int32 {
        var node = FieldRules.root
        for name in names { node = existingChild(of: node, name: name, glob: glob) }
        change(&nodes[Int(node)].role)
        if let named { namedPaths[node, default: []].append(named) }
        return node
    }

    /// The child named (or, for a pattern, written) `name`, created if new.
    private mutating func existingChild(of node: Int32, name: String, glob: Bool) -> Int32 {
        if glob, GlobPattern.isPattern(name) {
            if let existing = nodes[Int(node)].globs.first(where: { $0.pattern.text == name }) { return existing.node }
            nodes.append(Node())
            let created = Int32(nodes.count - 1)
            nodes[Int(node)].globs.append((GlobPattern(name), created))
            return created
        }
        let bytes = Array(name.utf8)
        if let existing = nodes[Int(node)].children.first(where: { $0.name == bytes }) { return existing.node }
        nodes.append(Node())
        let created = Int32(nodes.count - 1)
        nodes[Int(node)].children.append((bytes, created))
        return created
    }

    func child(of node: Int32, name: [UInt8]) -> Int32 {
        child(of: node, name: name.span)
    }

    /// The node of member `name` inside the object at `node`, or `none`:
    /// an exact name first, then the first pattern that matches.
    @inline(__always)
    func child(of node: Int32, name: Span<UInt8>) -> Int32 {
        guard node >= 0 else { return FieldRules.none }
        let entry = nodes[Int(node)]
        for child in entry.children where child.name.count == name.count {
            if child.name.span.sameBytes(as: name) { return child.node }
        }
        if !entry.globs.isEmpty {
            let text = name.decoded
            for glob in entry.globs where glob.pattern.matches(text) { return glob.node }
        }
        return FieldRules.none
    }

    /// `--rename`: the old name a member named `name` of the object at `node` is read as, if any.
    func renamedName(_ name: Span<UInt8>, in node: Int32) -> [UInt8]? {
        guard node >= 0 else { return nil }
        for rename in nodes[Int(node)].renames where rename.new.count == name.count {
            if rename.new.span.sameBytes(as: name) { return rename.old }
        }
        return nil
    }

    @inline(__always)
    func role(_ node: Int32) -> FieldRole? {
        node >= 0 ? nodes[Int(node)].role : nil
    }

    /// The options' paths a node stands for, if any (see `FieldCheck`).
    func namedPaths(_ node: Int32) -> [FieldPath] {
        node >= 0 ? namedPaths[node] ?? [] : []
    }

    /// Does a member whose value is at `node` count towards equality? Objects
    /// on the way to an `--only` field count, filtered, when `filtered` is set.
    /// The section field never counts: a changed section is a move, not an update.
    @inline(__always)
    func isCompared(_ node: Int32, inFilteredObject filtered: Bool, valueIsObject: Bool) -> Bool {
        let role = self.role(node)
        if let role, role.ignored || role.isSection { return false }
        guard filtered else { return true }
        guard let role else { return false }
        return role.only || (role.onlyBelow && valueIsObject)
    }

    /// Is a member's object value itself filtered by `--only`?
    func isFiltered(_ node: Int32, parentFiltered: Bool) -> Bool {
        guard parentFiltered, let role = role(node) else { return false }
        return !role.only
    }

    /// Whether `--ignore` or `--only` leave the field at `path` out of the
    /// comparison (the id and section fields never are): a schema change of
    /// such a field is listed as ignored, not counted as a difference.
    func leavesOut(_ path: [String]) -> Bool {
        var node = FieldRules.root
        var filtered = onlyMode
        for (depth, name) in path.enumerated() {
            let child = self.child(of: node, name: Array(name.utf8))
            let role = self.role(child)
            if let role, role.isSection || role.idComponent >= 0 { return false }
            if let role, role.ignored { return true }
            if depth == path.count - 1 {
                guard filtered else { return false }
                guard let role else { return true }
                return !(role.only || role.onlyBelow)
            }
            filtered = isFiltered(child, parentFiltered: filtered)
            node = child
        }
        return false
    }

    /// What the field-level comparison does with the field at `path`: the
    /// same walk the readers make, member by member.
    func verdict(_ path: [String]) -> Verdict {
        var node = FieldRules.root
        var filtered = onlyMode
        for (depth, name) in path.enumerated() {
            // The name's own UTF-8, not an Array of it: this runs for each field of each changed record.
            let child = name.withBytes { self.child(of: node, name: $0) }
            if depth == 0 && schemaOnly.contains(ExactTextKey(name)) { return .skip }
            let role = self.role(child)
            if let role, role.ignored || role.isSection { return .skip }
            if depth == path.count - 1 {
                guard filtered else { return .include }
                guard let role else { return .skip }
                return role.only ? .include : role.onlyBelow ? .lookInside : .skip
            }
            filtered = isFiltered(child, parentFiltered: filtered)
            node = child
        }
        return .include
    }
}

/// A shell-style pattern for one member name: `*`, `?`, `[set]`, `[!set]`,
/// `[a-z]`. Matched on Unicode scalars.
struct GlobPattern: Sendable {
    let text: String
    private let scalars: [Unicode.Scalar]

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    static func isPattern(_ name: String) -> Bool {
        name.contains("*") || name.contains("?") || name.contains("[")
    }

    func matches(_ name: String) -> Bool {
        let subject = Array(name.unicodeScalars)
        // Iterative matching with one backtrack point for the last `*`: linear for typical patterns.
        var p = 0, s = 0
        var starP = -1, starS = 0
        while s < subject.count {
            if p < scalars.count {
                switch scalars[p] {
                case "*":
                    starP = p
                    starS = s
                    p += 1
                    continue
                case "?":
                    p += 1
                    s += 1
                    continue
                case "[":
                    if let (matched, next) = matchSet(at: p, subject[s]) {
                        if matched {
                            p = next
                            s += 1
                            continue
                        }
                    } else if subject[s] == "[" {
                        // An unclosed `[` is an ordinary character.
                        p += 1
                        s += 1
                        continue
                    }
                default:
                    if scalars[p] == subject[s] {
                        p += 1
                        s += 1
                        continue
                    }
                }
            }
            guard starP >= 0 else { return false }
            p = starP + 1
            starS += 1
            s = starS
        }
        while p < scalars.count && scalars[p] == "*" { p += 1 }
        return p == scalars.count
    }

    /// Matches `character` against the set starting at `start` (`[`);
    /// returns whether it matched and where the pattern goes on, or nil when
    /// the set is not closed.
    private func matchSet(at start: Int, _ character: Unicode.Scalar) -> (Bool, Int)? {
        var index = start + 1
        var negated = false
        if index < scalars.count && (scalars[index] == "!" || scalars[index] == "^") {
            negated = true
            index += 1
        }
        var matched = false
        var first = true
        while index < scalars.count && (scalars[index] != "]" || first) {
            first = false
            if index + 2 < scalars.count && scalars[index + 1] == "-" && scalars[index + 2] != "]" {
                if scalars[index].value <= character.value && character.value <= scalars[index + 2].value { matched = true }
                index += 3
            } else {
                if scalars[index] == character { matched = true }
                index += 1
            }
        }
        guard index < scalars.count else { return nil }
        return (matched != negated, index + 1)
    }
}
