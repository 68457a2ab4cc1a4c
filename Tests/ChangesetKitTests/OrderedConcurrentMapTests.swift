import Testing
@testable import ChangesetKit

/// Changed records are read a batch at a time on every core and handed over
/// in order, the next batch read while the current one is consumed.
@Suite struct OrderedConcurrentMapTests {
    struct Failure: Error, Equatable { var at: Int }

    @Test(arguments: [0, 1, 1023, 1024, 1025, 5000])
    func everyItemInOrderOnce(count: Int) throws {
        var seen: [Int] = []
        try OrderedConcurrentMap.forEach(Array(0..<count), transform: { $0 * 2 }) { item, doubled in
            #expect(doubled == item * 2)
            seen.append(item)
        }
        #expect(seen == Array(0..<count))
    }

    @Test func anErrorFromEitherSideEndsTheWalk() {
        #expect(throws: Failure(at: 3000)) {
            try OrderedConcurrentMap.forEach(Array(0..<5000), transform: { item -> Int in
                if item == 3000 { throw Failure(at: item) }
                return item
            }) { _, _ in }
        }
        var consumed = 0
        #expect(throws: Failure(at: 1500)) {
            try OrderedConcurrentMap.forEach(Array(0..<5000), transform: { $0 }) { item, _ in
                if item == 1500 { throw Failure(at: item) }
                consumed += 1
            }
        }
        #expect(consumed == 1500)
    }
}
