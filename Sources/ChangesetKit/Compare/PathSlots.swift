/// The fields' slots by a hash of their paths' names, byte for byte: a
/// `Hasher` over a path's names as Unicode text costs several times more.
/// The per-field counts (`Summary.countFields`) find a field's slot here.
/// A slot found has a path equal (`==`) to the one asked for; a path not
/// found may still be a field's, its names spelled in other bytes, so the
/// counts' dictionary of paths decides, and its slot is filed here too.
struct PathSlots {
    /// Each filed path, its hash and its slot.
    private var entries: [(path: FieldPath, bytesHash: UInt64, slot: Int)] = []
    /// Where each entry lies (`entries`' index; -1: free): open addressing,
    /// linear probing, at most half full.
    private var table = [Int32](repeating: -1, count: 16)

    static func bytesHash(of path: FieldPath) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: path.components.count)
        for name in path.components { hash = StableHash.combine(hash, name.withBytes { ValueHasher.name($0) }) }
        return hash
    }

    func slot(of path: FieldPath, bytesHash: UInt64) -> Int? {
        let mask = table.count - 1
        var position = Int(truncatingIfNeeded: bytesHash) & mask
        while table[position] >= 0 {
            let entry = entries[Int(table[position])]
            if entry.bytesHash == bytesHash, entry.path == path { return entry.slot }
            position = (position + 1) & mask
        }
        return nil
    }

    mutating func insert(_ slot: Int, path: FieldPath, bytesHash: UInt64) {
        entries.append((path, bytesHash, slot))
        if entries.count * 2 > table.count {
            table = [Int32](repeating: -1, count: table.count * 2)
            for index in entries.indices { place(index) }
        } else {
            place(entries.count - 1)
        }
    }

    private mutating func place(_ index: Int) {
        let mask = table.count - 1
        var position = Int(truncatingIfNeeded: entries[index].bytesHash) & mask
        while table[position] >= 0 { position = (position + 1) & mask }
        table[position] = Int32(index)
    }
}
