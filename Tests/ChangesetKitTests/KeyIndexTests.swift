import Testing
@testable import ChangesetKit

@Suite struct KeyIndexTests {
    /// Keys whose hashes collide are still told apart by their text.
    @Test func collidingHashesNeverMatchTheWrongKey() {
        var keys: [String] = []
        var index = KeyIndex()
        // Every key gets one of two hashes, with the same tag: the worst case for the table.
        for (row, key) in ["a", "b", "c", "a", "d", "b", "a"].enumerated() {
            let hash: UInt64 = key < "c" ? 7 : 8
            let first = index.insert(row: row, hash: hash, key: key, keyOfRow: { keys[$0] })
            #expect(first == ["a": 0, "b": 1][key].flatMap { $0 < row ? $0 : nil }, "\(key) at \(row)")
            keys.append(key)
        }
        #expect(index.firstRow(hash: 7, key: "b", keyOfRow: { keys[$0] }) == 1)
        #expect(index.firstRow(hash: 8, key: "d", keyOfRow: { keys[$0] }) == 4)
        #expect(index.firstRow(hash: 7, key: "e", keyOfRow: { keys[$0] }) == nil)
        // The chain of a repeated key, in row order.
        #expect(index.nextRow(after: 0) == 3 && index.nextRow(after: 3) == 6 && index.nextRow(after: 6) == nil)
        #expect(index.nextRow(after: 1) == 5 && index.nextRow(after: 2) == nil)
    }

    @Test func growsPastItsFirstSize() {
        var keys: [String] = []
        var hashes: [UInt64] = []
        var index = KeyIndex()
        for row in 0..<10_000 {
            let key = "k\(row)"
            let hash = RecordTable.keyHash(key)
            #expect(index.insert(row: row, hash: hash, key: key, keyOfRow: { keys[$0] }) == nil)
            keys.append(key)
            hashes.append(hash)
        }
        for row in stride(from: 0, to: 10_000, by: 97) {
            #expect(index.firstRow(hash: hashes[row], key: keys[row], keyOfRow: { keys[$0] }) == row)
        }
    }

    /// Repeated keys keep their chains, and every key its first row, through
    /// the table's growth (from 16 slots, several times, to sizes that are no
    /// power of two) and through a reserve made after rows came.
    @Test func chainsOfRepeatedKeysSurviveGrowth() {
        var keys: [String] = []
        var index = KeyIndex()
        for row in 0..<20_000 {
            if row == 5_000 { index.reserve(30_000) }
            let key = "id-\(row % 7_000)"
            let first = index.insert(row: row, hash: RecordTable.keyHash(key), key: key, keyOfRow: { keys[$0] })
            #expect(first == (row < 7_000 ? nil : row % 7_000))
            keys.append(key)
        }
        #expect(index.distinctCount == 7_000)
        for id in stride(from: 0, to: 7_000, by: 13) {
            let key = "id-\(id)"
            #expect(index.firstRow(hash: RecordTable.keyHash(key), key: key, keyOfRow: { keys[$0] }) == id)
            var chain = [id]
            while let next = index.nextRow(after: chain.last!) { chain.append(next) }
            #expect(chain == Array(stride(from: id, to: 20_000, by: 7_000)))
        }
        #expect(index.firstRow(hash: RecordTable.keyHash("id-7000"), key: "id-7000", keyOfRow: { keys[$0] }) == nil)
    }
}
