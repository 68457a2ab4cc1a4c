extension Summary {
    /// Fills in the per-field part of the counts from the updated records'
    /// field changes, one array per updated record, in the report's order:
    /// `fieldCounts`, `transitions`, `typeOnlyFields`, and the type-only
    /// (`mode` typed) and respelled-number (`mode` cellText) updates with
    /// their examples. One pass; a comparison and a report read back from
    /// change streams (`ChangeStreamReport`) both count this way, so the
    /// two agree to the byte.
    package mutating func countFields(of updates: [[FieldChange]], mode: ComparisonMode) {
    // Per field: how many updated records changed it, and its transitions
    // in bounded memory (a top-k, not a map of every value); one lookup a change.
    // Updates that only change types: compared by text, every field would be equal.
    if mode == .typed {
        let typeOnly = updates.filter { fields in
            !fields.isEmpty && fields.allSatisfy { Value.changesOnlyType($0.old, $0.new) }
        }
        typeOnlyUpdates = typeOnly.count
        typeOnlyExample = typeOnly.first?.first
    }
    // Updates that only respell numbers: compared by value, every field would be equal.
    if mode == .cellText {
        let respelled = updates.filter { fields in
            !fields.isEmpty && fields.allSatisfy { Value.respellsNumber($0.old, $0.new) }
        }
        respelledNumberUpdates = respelled.count
        respelledNumberExample = respelled.first?.first
    }
    // Per field, the records that changed it (once each, however many
    // of its array's elements changed) and its transitions: a field's
    // own, and its array elements' apart (`tags[]: inserted "x"`), the
    // common case found with one lookup of the path.
    var slotOfPath: [FieldPath: Int] = [:]
    var fields: [(path: FieldPath, records: Int, lastUpdate: Int, own: Int)] = []
    // Per field, the records whose every change of it was only of a type
    // (what --loose-types would count as none): counted per field, since
    // a field's records may have changed other fields too and so be no
    // type-only update. `now`: whether this update's changes of the field are so far.
    let countsTypes = mode == .typed
    var typeOnly: [(records: Int, example: FieldChange?, now: Bool)] = []
    var touched: [Int] = []
    var slotOfPattern: [String: Int] = [:]
    var counters: [(path: FieldPath, pattern: String?, counter: FieldTransitionCounter)] = []
    // An element transition counts once a record, however many of its elements made it.
    struct ElementTransition: Hashable { var counter: Int; var old: UInt64; var new: UInt64 }
    var elementTransitions = Set<ElementTransition>()
    for (number, update) in updates.enumerated() {
        elementTransitions.removeAll(keepingCapacity: true)
        touched.removeAll(keepingCapacity: true)
        for field in update {
            let slot: Int
            if let known = slotOfPath[field.path] {
                slot = known
            } else {
                slot = fields.count
                slotOfPath[field.path] = slot
                fields.append((field.path, 0, -1, -1))
                typeOnly.append((0, nil, false))
            }
            if fields[slot].lastUpdate != number {
                fields[slot].records += 1
                fields[slot].lastUpdate = number
                if countsTypes {
                    touched.append(slot)
                    typeOnly[slot].now = true
                }
            }
            if countsTypes && typeOnly[slot].now && !Value.changesOnlyType(field.old, field.new) { typeOnly[slot].now = false }
            let counter: Int
            if field.elements.isEmpty {
                if fields[slot].own < 0 {
                    fields[slot].own = counters.count
                    counters.append((field.path, nil, FieldTransitionCounter()))
                }
                counter = fields[slot].own
            } else {
                let pattern = field.elementPattern
                if let known = slotOfPattern[pattern] {
                    counter = known
                } else {
                    counter = counters.count
                    slotOfPattern[pattern] = counter
                    counters.append((field.path, pattern, FieldTransitionCounter()))
                }
            }
            if !field.elements.isEmpty {
                let transition = ElementTransition(
                    counter: counter, old: field.old?.contentHash(mode: .typed) ?? 0, new: field.new?.contentHash(mode: .typed) ?? 0)
                guard elementTransitions.insert(transition).inserted else { continue }
            }
            counters[counter].counter.add(field)
        }
        for slot in touched where typeOnly[slot].now {
            typeOnly[slot].records += 1
            if typeOnly[slot].example == nil { typeOnly[slot].example = update.first { $0.path == fields[slot].path } }
        }
    }
    let typeOnlyOfPath = Dictionary(uniqueKeysWithValues: fields.indices.map { (fields[$0].path, typeOnly[$0]) })
    fields.sort {
        $0.records != $1.records ? $0.records > $1.records : $0.path.description.unicodeScalars.lexicographicallyPrecedes($1.path.description.unicodeScalars)
    }
    fieldCounts = fields.map { FieldCount(path: $0.path, records: $0.records) }
    typeOnlyFields = fields.compactMap { field in
        typeOnlyOfPath[field.path].flatMap { counted in
            counted.example.map { TypeOnlyField(path: field.path, records: counted.records, example: $0) }
        }
    }
    // In the fields' order, a field's own transitions before its elements'.
    var elementCounters: [FieldPath: [Int]] = [:]
    for (slot, counter) in counters.enumerated() where counter.pattern != nil { elementCounters[counter.path, default: []].append(slot) }
    transitions = fields.flatMap { field in
        ((field.own >= 0 ? [field.own] : []) + (elementCounters[field.path] ?? []))
            .compactMap { counters[$0].counter.transitions(of: field.path, elementPattern: counters[$0].pattern) }
    }
    }
}
