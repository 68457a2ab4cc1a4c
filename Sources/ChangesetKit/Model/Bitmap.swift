/// A set of positions below a count, a bit each.
struct Bitmap {
    private var words: [UInt64]

    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    mutating func insert(_ position: Int) { words[position >> 6] |= 1 << UInt64(position & 63) }

    mutating func remove(_ position: Int) { words[position >> 6] &= ~(1 << UInt64(position & 63)) }

    func contains(_ position: Int) -> Bool { words[position >> 6] & (1 << UInt64(position & 63)) != 0 }

    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// The positions in the set, ascending.
    var members: [Int32] {
        var members: [Int32] = []
        for (index, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                members.append(Int32(index << 6 + rest.trailingZeroBitCount))
                rest &= rest - 1
            }
        }
        return members
    }
}
