/// Collects a snapshot's schema while its records stream by: the top-level
/// field names in order of first appearance, and for each how many records
/// hold a value for it (not null, and in text comparisons not empty).
///
/// Records of one file usually list their fields in the same order, so the
/// field at position k of a record is first looked for where position k was
/// found last time (one comparison of name hashes); only a miss consults the
/// dictionary. Names are told apart by their 64-bit hash.
struct SchemaCollector {
    private(set) var names: [String] = []
    private(set) var valueCounts: [Int] = []
    private var hashes: [UInt64] = []
    private var indexByHash: [UInt64: Int32] = [:]
    private var guessByPosition: [Int32] = []

    /// Counts a record's member at `position` (0-based) named `name`; returns
    /// its schema index, for `noValue` if the member turns out to be null.
    @inline(__always)
    mutating func member(at position: Int, nameHash: UInt64, name: UnsafeRawBufferPointer) -> Int32 {
        if position < guessByPosition.count {
            let guess = guessByPosition[position]
            if guess >= 0 && hashes[Int(guess)] == nameHash {
                valueCounts[Int(guess)] += 1
                return guess
            }
        }
        return slowMember(at: position, nameHash: nameHash, name: name)
    }

    private mutating func slowMember(at position: Int, nameHash: UInt64, name: UnsafeRawBufferPointer) -> Int32 {
        let index: Int32
        if let known = indexByHash[nameHash] {
            index = known
        } else {
            index = Int32(names.count)
            indexByHash[nameHash] = index
            hashes.append(nameHash)
            names.append(String(decoding: name, as: UTF8.self))
            valueCounts.append(0)
        }
        while guessByPosition.count <= position { guessByPosition.append(-1) }
        guessByPosition[position] = index
        valueCounts[Int(index)] += 1
        return index
    }

    /// The member counted last under `index` holds no value after all.
    @inline(__always)
    mutating func noValue(_ index: Int32) {
        valueCounts[Int(index)] -= 1
    }
}
