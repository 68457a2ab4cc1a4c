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
    // in bounded memory (a top-k, not a map of every value).
    // Updates that only change types (mode typed): compared by text, every
    // field would be equal. Updates that only respell numbers (mode
    // cellText): compared by value, every field would be equal. Each
    // update's changes are asked only until one says no.
    let countsTypes = mode == .typed, countsRespellings = mode == .cellText
    var typeOnlyUpdateCount = 0, respelledUpdateCount = 0
    var firstTypeOnlyUpdate: FieldChange?, firstRespelledUpdate: FieldChange?
    // Per field, the records that changed it (once each, however many
    // of its array's elements changed) and its transitions: a field's
    // own, and its array elements' apart (`tags[]: inserted "x"`).
    var slotOfPath: [FieldPath: Int] = [:]
    var fields: [(path: FieldPath, records: Int, lastUpdate: Int, own: Int)] = []
    // Records mostly change the same fields in the same order: the slot
    // that followed each slot last time (-1: none yet), and the slot an
    // update began with, are guessed first, then the path is found by
    // the bytes of its names (`PathSlots`); `slotOfPath` has the last word.
    var pathSlots = PathSlots()
    var followingSlot: [Int] = []
    var firstSlot = -1
    // Per field, the records whose every change of it was only of a type
    // (what --loose-types would count as none): counted per field, since
    // a field's records may have changed other fields too and so be no
    // type-only update. `now`: whether this update's changes of the field are so far.
    var typeOnly: [(records: Int, example: FieldChange?, now: Bool)] = []
    var touched: [Int] = []
    var slotOfPattern: [String: Int] = [:]
    // Per field, the element pattern counted last (`tags[]`) with the path
    // (byte for byte) and array depths that made it: the same ones make
    // the same pattern, so it is not written out again.
    var lastPattern: [(path: FieldPath, depths: [Int], counter: Int)?] = []
    var counters: [(path: FieldPath, pattern: String?, counter: FieldTransitionCounter)] = []
    // An element transition counts once a record, however many of its elements made it.
    struct ElementTransition: Hashable { var counter: Int; var old: UInt64; var new: UInt64 }
    var elementTransitions = Set<ElementTransition>()
    for (number, update) in updates.enumerated() {
        elementTransitions.removeAll(keepingCapacity: true)
        touched.removeAll(keepingCapacity: true)
        var allTypeOnly = countsTypes && !update.isEmpty, allRespelled = countsRespellings && !update.isEmpty
        var previous = -1
        // Each change borrowed where it lies (a span's element), its parts
        // read in place: a copy of each change (its path, values,
        // positions) and its release cost more than counting it.
        let changes = update.span
        for index in changes.indices {
            let slot: Int
            let guess = previous < 0 ? firstSlot : followingSlot[previous]
            if guess >= 0, fields[guess].path == changes[index].path {
                slot = guess
            } else {
                let bytesHash = PathSlots.bytesHash(of: changes[index].path)
                if let known = pathSlots.slot(of: changes[index].path, bytesHash: bytesHash) {
                    slot = known
                } else if let known = slotOfPath[changes[index].path] {
                    // The same path by `==`, its names spelled in other bytes.
                    slot = known
                    pathSlots.insert(slot, path: changes[index].path, bytesHash: bytesHash)
                } else {
                    slot = fields.count
                    slotOfPath[changes[index].path] = slot
                    pathSlots.insert(slot, path: changes[index].path, bytesHash: bytesHash)
                    fields.append((changes[index].path, 0, -1, -1))
                    followingSlot.append(-1)
                    typeOnly.append((0, nil, false))
                    lastPattern.append(nil)
                }
            }
            if previous < 0 { firstSlot = slot } else { followingSlot[previous] = slot }
            previous = slot
            if fields[slot].lastUpdate != number {
                fields[slot].records += 1
                fields[slot].lastUpdate = number
                if countsTypes {
                    touched.append(slot)
                    typeOnly[slot].now = true
                }
            }
            // The values (copied once, each read of a change's member is a
            // copy) and their fingerprints, for the counter, the element
            // transitions and a respelled number alike.
            let old = changes[index].old, new = changes[index].new
            let oldHash = old?.contentHash(mode: .typed), newHash = new?.contentHash(mode: .typed)
            if countsTypes && (allTypeOnly || typeOnly[slot].now) && !Value.changesOnlyType(old, new) {
                typeOnly[slot].now = false
                allTypeOnly = false
            }
            if allRespelled && !Self.respellsNumber(old, new, oldHash: oldHash, newHash: newHash) {
                allRespelled = false
            }
            let counter: Int
            let inArray = !changes[index].elements.isEmpty
            if !inArray {
                if fields[slot].own < 0 {
                    fields[slot].own = counters.count
                    counters.append((changes[index].path, nil, FieldTransitionCounter()))
                }
                counter = fields[slot].own
            } else if let last = lastPattern[slot], Self.sameBytes(last.path, changes[index].path),
                      last.depths.elementsEqual(changes[index].elements.lazy.map(\.depth)) {
                counter = last.counter
            } else {
                let pattern = changes[index].elementPattern
                if let known = slotOfPattern[pattern] {
                    counter = known
                } else {
                    counter = counters.count
                    slotOfPattern[pattern] = counter
                    counters.append((changes[index].path, pattern, FieldTransitionCounter()))
                }
                lastPattern[slot] = (changes[index].path, changes[index].elements.map(\.depth), counter)
            }
            if inArray {
                let transition = ElementTransition(counter: counter, old: oldHash ?? 0, new: newHash ?? 0)
                guard elementTransitions.insert(transition).inserted else { continue }
            }
            counters[counter].counter.add(old: old, new: new, oldHash: oldHash, newHash: newHash)
        }
        for slot in touched where typeOnly[slot].now {
            typeOnly[slot].records += 1
            if typeOnly[slot].example == nil { typeOnly[slot].example = update.first { $0.path == fields[slot].path } }
        }
        if allTypeOnly {
            typeOnlyUpdateCount += 1
            if firstTypeOnlyUpdate == nil { firstTypeOnlyUpdate = update.first }
        }
        if allRespelled {
            respelledUpdateCount += 1
            if firstRespelledUpdate == nil { firstRespelledUpdate = update.first }
        }
    }
    if countsTypes {
        typeOnlyUpdates = typeOnlyUpdateCount
        typeOnlyExample = firstTypeOnlyUpdate
    }
    if countsRespellings {
        respelledNumberUpdates = respelledUpdateCount
        respelledNumberExample = firstRespelledUpdate
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

    /// `Value.respellsNumber(old, new)`, the two numbers' case (the common
    /// one) from their typed fingerprints, already made.
    private static func respellsNumber(_ old: Value?, _ new: Value?, oldHash: UInt64?, newHash: UInt64?) -> Bool {
        if case .number(let oldText)? = old, case .number(let newText)? = new {
            return oldHash == newHash && !ExactText.same(oldText, newText)
        }
        return Value.respellsNumber(old, new)
    }

    /// Whether two paths' names are the same bytes, so their element
    /// patterns are the same text (`==` compares names as Unicode text,
    /// which two spellings of one name pass).
    private static func sameBytes(_ a: FieldPath, _ b: FieldPath) -> Bool {
        a.components.count == b.components.count && zip(a.components, b.components).allSatisfy { ExactText.same($0, $1) }
    }
}
