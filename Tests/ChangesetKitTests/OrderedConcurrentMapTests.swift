import Dispatch
import Synchronization
import Testing
@testable import ChangesetKit

/// Changed records are read (and rendered) on every core and handed over in
/// order: all at once (`map`), a batch at a time (`ChangeStream`), or with
/// the next batch read while the current one is consumed (`forEach`).
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

    @Test(arguments: [0, 1, 2, 3, 1023, 1025, 5000])
    func mapKeepsTheOrderAndThrowsTheFirstErrorInIt(count: Int) throws {
        #expect(try OrderedConcurrentMap.map(Array(0..<count)) { $0 * 3 } == (0..<count).map { $0 * 3 })
        guard count > 2 else { return }
        // Items near both ends fail; whichever thread gets there first, the earlier one is reported.
        #expect(throws: Failure(at: 1)) {
            try OrderedConcurrentMap.map(Array(0..<count)) { item -> Int in
                if item == 1 || item == count - 1 { throw Failure(at: item) }
                return item
            }
        }
    }

    /// Items are handed out a stretch at a time to whichever thread is free:
    /// each is transformed exactly once, however uneven their costs, and
    /// the results keep the items' order.
    @Test(arguments: [2, 3, 17, 1024, 5001])
    func mapTransformsEveryItemOnceWhateverItsCost(count: Int) throws {
        let calls = Mutex([Int](repeating: 0, count: count))
        let results = try OrderedConcurrentMap.map(Array(0..<count)) { item -> Int in
            // The first items cost far more than the rest: a fixed half each would leave one thread idle.
            if item < count / 8 { for _ in 0..<2_000 { _ = calls.withLock { $0[item] } } }
            calls.withLock { $0[item] += 1 }
            return item * 5
        }
        #expect(results == (0..<count).map { $0 * 5 })
        #expect(calls.withLock { $0 } == [Int](repeating: 1, count: count))
    }

    /// A file's parts, each on a thread of its own: results in order, the
    /// first error in that order, and every item at work at once (each waits
    /// until all have started, which would never happen one after another).
    @Test(arguments: [0, 1, 4])
    func newThreadsRunEveryItemAtOnceAndKeepTheOrder(count: Int) throws {
        let started = DispatchGroup()
        for _ in 0..<count { started.enter() }
        let results = try OrderedConcurrentMap.mapOnNewThreads(Array(0..<count)) { item -> Int in
            started.leave()
            #expect(started.wait(timeout: .now() + 60) == .success, "item \(item) waited for the others")
            return item * 3
        }
        #expect(results == (0..<count).map { $0 * 3 })
        guard count > 2 else { return }
        #expect(throws: Failure(at: 1)) {
            try OrderedConcurrentMap.mapOnNewThreads(Array(0..<count)) { item -> Int in
                if item == 1 || item == count - 1 { throw Failure(at: item) }
                return item
            }
        }
    }

    /// A batch is made while the one before is consumed, on one thread that
    /// then helps with the batch: the results keep their order, the items
    /// before are consumed in order first, and an error in consuming them
    /// comes before any in making the batch.
    @Test(arguments: [(0, 0), (0, 5), (1, 3), (2, 0), (1025, 1024), (5001, 3)])
    func aBatchIsMadeWhileTheOneBeforeIsConsumed(count: Int, ready: Int) throws {
        let calls = Mutex([Int](repeating: 0, count: count))
        var consumed: [Int] = []
        let results = try OrderedConcurrentMap.map(count: count, { index -> Int in
            calls.withLock { $0[index] += 1 }
            return index * 5
        }, afterConsuming: Array(0..<ready)) { consumed.append($0) }
        #expect(results == (0..<count).map { $0 * 5 })
        #expect(calls.withLock { $0 } == [Int](repeating: 1, count: count))
        #expect(consumed == Array(0..<ready))
        guard count > 2 else { return }
        #expect(throws: Failure(at: -1)) {
            try OrderedConcurrentMap.map(count: count, { index -> Int in
                if index == 0 { throw Failure(at: index) }
                return index
            }, afterConsuming: [1, 2, 3]) { if $0 == 2 { throw Failure(at: -1) } }
        }
        #expect(throws: Failure(at: 1)) {
            try OrderedConcurrentMap.map(count: count, { index -> Int in
                if index == 1 || index == count - 1 { throw Failure(at: index) }
                return index
            }, afterConsuming: [1, 2, 3]) { _ in }
        }
    }

    /// A stream's batch is written while the next is rendered: a write that
    /// fails ends the stream, with what came before it written and nothing after.
    @Test func aWritingErrorEndsTheStreamInOrder() {
        let changes = (0..<5000).map { Change(kind: .deleted, old: RecordPlace(index: $0)) }
        var written: [Int] = []
        #expect(throws: Failure(at: 1500)) {
            try ChangeStream(changes).forEach(rendering: { $0.old!.index }) { index in
                if index == 1500 { throw Failure(at: index) }
                written.append(index)
            }
        }
        #expect(written == Array(0..<1500))
    }

    @Test(arguments: [0, 1, 1024, 1025, 5000])
    func aStreamRendersEveryChangeInOrderOnce(count: Int) throws {
        let changes = (0..<count).map { Change(kind: .inserted, id: [String($0)], new: RecordPlace(index: $0)) }
        var written: [String] = []
        try ChangeStream(changes).forEach(rendering: { "\($0.id![0])/\($0.new!.index)" }) { written.append($0) }
        #expect(written == (0..<count).map { "\($0)/\($0)" })
        var seen: [Change] = []
        try ChangeStream(changes).forEach { seen.append($0) }
        #expect(seen == changes)
    }

    @Test func aRenderingErrorEndsTheStreamWithNothingOfItsBatchWritten() {
        let changes = (0..<3000).map { Change(kind: .deleted, old: RecordPlace(index: $0)) }
        var written = 0
        #expect(throws: Failure(at: 2000)) {
            try ChangeStream(changes).forEach(rendering: { change -> Int in
                if change.old!.index == 2000 { throw Failure(at: 2000) }
                return change.old!.index
            }) { _ in written += 1 }
        }
        // The whole batches before the failing one's.
        #expect(written == 2000 / OrderedConcurrentMap.batchSize * OrderedConcurrentMap.batchSize)
    }
}
