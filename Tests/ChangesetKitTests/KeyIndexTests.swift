import Testing
@testable import ChangesetKit

@Suite struct KeyIndexTests {
    /// Keys whose hashes collide are still told apart by their text.
    @Test func collidingHashesNeverMatchTheWrongKey() {
        var keys: [String] = []
        var hashes: [UInt64] = []
        var index = KeyIndex()
        // Every key gets hash 7 or 8: the worst case for the table.
        for (row, key) in ["a", "b", "c", "a", "d", "b", "a"].enumerated() {
            let hash: UInt64 = key < "c" ? 7 : 8
            let first = index.insert(row: row, hash: hash, key: key, keyOfRow: { keys[$0] }, hashOfRow: { hashes[$0] })
            #expect(first == ["a": 0, "b": 1][key].flatMap { $0 < row ? $0 : nil }, "\(key) at \(row)")
            keys.append(key)
            hashes.append(hash)
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
            #expect(index.insert(row: row, hash: hash, key: key, keyOfRow: { keys[$0] }, hashOfRow: { hashes[$0] }) == nil)
            keys.append(key)
            hashes.append(hash)
        }
        for row in stride(from: 0, to: 10_000, by: 97) {
            #expect(index.firstRow(hash: hashes[row], key: keys[row], keyOfRow: { keys[$0] }) == row)
        }
    }
}
