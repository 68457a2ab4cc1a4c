/// The part a field plays for the readers: id component, section, ignored, compared.
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

/// The fields named by `--id`, `--section`, `--ignore` and `--only`, as a trie
/// over member names, so a streaming reader can tell at each member what it is
/// without building paths.
struct FieldTrie {
    struct Node {
        var children: [(name: [UInt8], node: Int32)] = []
        var role = FieldRole()
    }

    private(set) var nodes: [Node] = [Node()]
    let onlyMode: Bool
    let idCount: Int

    static let root: Int32 = 0
    static let none: Int32 = -1

    init(_ options: RecordOptions) {
        onlyMode = !options.only.isEmpty
        idCount = options.id.count
        for (index, path) in options.id.enumerated() { update(path) { $0.idComponent = index } }
        if let section = options.section { update(section) { $0.isSection = true } }
        for path in options.ignore { update(path) { $0.ignored = true } }
        for path in options.only {
            update(path) { $0.only = true }
            var node = FieldTrie.root
            for name in path.components.dropLast() {
                node = child(of: node, name: Array(name.utf8))
                nodes[Int(node)].role.onlyBelow = true
            }
        }
    }

    /// True when no field is named at all: the readers can skip all lookups.
    var isEmpty: Bool { nodes.count == 1 }

    private mutating func update(_ path: FieldPath, _ change: (inout FieldRole) -> Void) {
        var node = FieldTrie.root
        for name in path.components {
            let bytes = Array(name.utf8)
            if let existing = nodes[Int(node)].children.first(where: { $0.name == bytes }) {
                node = existing.node
            } else {
                nodes.append(Node())
                let created = Int32(nodes.count - 1)
                nodes[Int(node)].children.append((bytes, created))
                node = created
            }
        }
        change(&nodes[Int(node)].role)
    }

    func child(of node: Int32, name: [UInt8]) -> Int32 {
        name.withUnsafeBytes { child(of: node, name: $0) }
    }

    /// The node of member `name` inside the object at `node`, or `none`.
    @inline(__always)
    func child(of node: Int32, name: UnsafeRawBufferPointer) -> Int32 {
        guard node >= 0 else { return FieldTrie.none }
        for entry in nodes[Int(node)].children where entry.name.count == name.count {
            if entry.name.withUnsafeBytes({ $0.elementsEqual(name) }) { return entry.node }
        }
        return FieldTrie.none
    }

    @inline(__always)
    func role(_ node: Int32) -> FieldRole? {
        node >= 0 ? nodes[Int(node)].role : nil
    }

    /// Does a member whose value is at `node` count towards equality? Objects
    /// on the way to an `--only` field count, filtered, when `filtered` is set.
    /// The section field never counts: a changed section is a move, not an update.
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

    /// The role a CSV column plays: CSV has no nesting, so a path matches the
    /// column whose name is the path's names joined by dots (`meta.key`).
    static func columnRole(_ column: String, options: RecordOptions) -> FieldRole {
        var role = FieldRole()
        if let index = options.id.firstIndex(where: { $0.flatName == column }) { role.idComponent = index }
        if options.section?.flatName == column { role.isSection = true }
        if options.ignore.contains(where: { $0.flatName == column }) { role.ignored = true }
        if options.only.contains(where: { $0.flatName == column }) { role.only = true }
        return role
    }
}
