/// One field that differs between the old and new version of a record.
/// A nil side means the field is absent there.
public struct FieldChange: Equatable, Sendable {
    public var path: FieldPath
    public var old: Value?
    public var new: Value?

    public init(path: FieldPath, old: Value?, new: Value?) {
        self.path = path
        self.old = old
        self.new = new
    }

    /// The changed fields, walking nested objects (arrays are compared whole),
    /// in the old record's member order, then fields only the new one has.
    /// With exact `tolerance` it uses the fingerprint's equality, so it agrees
    /// with the readers; a tolerance can only take changes away.
    package static func between(
        _ old: Value, _ new: Value, rules: FieldRules, mode: ComparisonMode, tolerance: ValueTolerance = .exact
    ) -> [FieldChange] {
        var changes: [FieldChange] = []
        collect(old, new, path: [], rules: rules, mode: mode, tolerance: tolerance, into: &changes)
        return changes
    }

    private static func collect(
        _ old: Value, _ new: Value, path: [String], rules: FieldRules, mode: ComparisonMode, tolerance: ValueTolerance,
        into changes: inout [FieldChange]
    ) {
        guard case .object(let oldMembers) = old, case .object(let newMembers) = new else {
            if !tolerance.equal(old, new, path: path, mode: mode) {
                changes.append(FieldChange(path: FieldPath(path), old: old, new: new))
            }
            return
        }
        let byName = MembersByName(old: oldMembers, new: newMembers)
        for name in byName.names {
            let memberPath = path + [name]
            let verdict = rules.verdict(memberPath)
            guard verdict != .skip else { continue }
            let oldValue = byName.old(name)
            let newValue = byName.new(name)
            switch (oldValue, newValue) {
            case let (oldValue?, newValue?):
                if verdict == .lookInside {
                    // Only named fields inside count: a value that is not an object has none.
                    func members(_ value: Value) -> Value { if case .object = value { value } else { .object([]) } }
                    collect(members(oldValue), members(newValue), path: memberPath, rules: rules, mode: mode, tolerance: tolerance, into: &changes)
                } else if case .object = oldValue, case .object = newValue {
                    collect(oldValue, newValue, path: memberPath, rules: rules, mode: mode, tolerance: tolerance, into: &changes)
                } else if !tolerance.equal(oldValue, newValue, path: memberPath, mode: mode) {
                    changes.append(FieldChange(path: FieldPath(memberPath), old: oldValue, new: newValue))
                }
            case (let present?, nil), (nil, let present?):
                // In text comparisons a missing field equals an empty one.
                if mode == .text && tolerance.isEmptyText(present) { continue }
                if verdict == .lookInside, case .object = present {
                    // Only the selected fields inside count.
                    let empty = Value.object([])
                    let (a, b) = oldValue == nil ? (empty, present) : (present, empty)
                    collect(a, b, path: memberPath, rules: rules, mode: mode, tolerance: tolerance, into: &changes)
                    continue
                }
                if verdict == .lookInside { continue }
                changes.append(FieldChange(path: FieldPath(memberPath), old: oldValue, new: newValue))
            case (nil, nil):
                continue
            }
        }
    }
}

/// Two objects' members by name: the first member with each name, and the
/// names in the old object's order, then those only the new one has. A
/// record's object is small, and building two Dictionaries and a Set for
/// each changed record was most of the time spent finding its changed
/// fields; objects of up to `smallCount` members are scanned instead.
private struct MembersByName {
    static let smallCount = 32
    let oldMembers: [Value.Member]
    let newMembers: [Value.Member]
    private let oldByName: [ExactTextKey: Value]
    private let newByName: [ExactTextKey: Value]
    let names: [String]
    private let isSmall: Bool

    init(old: [Value.Member], new: [Value.Member]) {
        oldMembers = old
        newMembers = new
        isSmall = old.count <= MembersByName.smallCount && new.count <= MembersByName.smallCount
        if isSmall {
            oldByName = [:]
            newByName = [:]
            names = old.map(\.name) + new.lazy.map(\.name).filter { name in !old.contains { ExactText.same($0.name, name) } }
        } else {
            oldByName = Dictionary(old.map { (ExactTextKey($0.name), $0.value) }, uniquingKeysWith: { first, _ in first })
            newByName = Dictionary(new.map { (ExactTextKey($0.name), $0.value) }, uniquingKeysWith: { first, _ in first })
            let oldNames = Set(old.map { ExactTextKey($0.name) })
            names = old.map(\.name) + new.map(\.name).filter { !oldNames.contains(ExactTextKey($0)) }
        }
    }

    func old(_ name: String) -> Value? {
        isSmall ? oldMembers.first { ExactText.same($0.name, name) }?.value : oldByName[ExactTextKey(name)]
    }

    func new(_ name: String) -> Value? {
        isSmall ? newMembers.first { ExactText.same($0.name, name) }?.value : newByName[ExactTextKey(name)]
    }
}
