/// Collects a snapshot's schema while its records stream by: the top-level
/// field names in order of first appearance, and for each how many records
/// hold a value for it (not null, and in text comparisons not empty).
///
/// It sits on the reader's hottest path, so it does almost nothing for the
/// usual file whose records all name the same fields in the same order: each
/// member is compared with the name at its position in the record before
/// (one comparison of name hashes, no write), and a record shaped like the one
/// before only adds one to a counter. A record of another shape is counted
/// field by field and becomes the shape to compare with. Names are told apart
/// by their 64-bit hash.
struct SchemaCollector {
    private(set) var names: [String] = []
    private var counts: [Int] = []
    private var indexByHash: [UInt64: Int] = [:]
    /// The name hashes of the last record's members, by position.
    private var shape: [UInt64] = []
    private var shapeCount = 0
    /// Records since the last flush shaped like `shape`, not yet added to `counts`.
    private var regularRecords = 0
    private var irregular = false
    /// Top-level members that held no value (null), by name hash: rare, so counted aside.
    private var emptyMembers: [UInt64: Int] = [:]

    /// A record's member at `position` (0-based) named `name`.
    @inline(__always)
    mutating func member(at position: Int, nameHash: UInt64, name: Span<UInt8>) {
        if position < shapeCount && shape[position] == nameHash { return }
        unexpectedMember(at: position, nameHash: nameHash, name: name)
    }

    private mutating func unexpectedMember(at position: Int, nameHash: UInt64, name: Span<UInt8>) {
        if !irregular {
            // The records so far were shaped like `shape`: count them before it changes.
            flush()
            irregular = true
        }
        if indexByHash[nameHash] == nil {
            indexByHash[nameHash] = names.count
            names.append(name.decoded)
            counts.append(0)
        }
        while shape.count <= position { shape.append(0) }
        shape[position] = nameHash
    }

    /// The member named `nameHash` of the current record holds no value.
    mutating func noValue(_ nameHash: UInt64) {
        emptyMembers[nameHash, default: 0] += 1
    }

    /// The current record is complete, with `memberCount` members; their
    /// name hashes are asked for only when the record has a shape of its own.
    @inline(__always)
    mutating func endRecord(memberCount: Int, memberHashes: () -> [UInt64]) {
        if !irregular && memberCount == shapeCount {
            regularRecords += 1
            return
        }
        if !irregular { flush() }
        for hash in memberHashes() { counts[indexByHash[hash]!] += 1 }
        shapeCount = memberCount
        irregular = false
    }

    private mutating func flush() {
        for position in 0..<shapeCount { counts[indexByHash[shape[position]]!] += regularRecords }
        regularRecords = 0
    }

    /// The fields and, for each, the records that hold a value for it.
    mutating func finish() -> (names: [String], valueCounts: [Int]) {
        flush()
        for (hash, empty) in emptyMembers { counts[indexByHash[hash]!] -= empty }
        return (names, counts)
    }
}
