import Foundation
import Dispatch
import Synchronization

// Unsafe code here: results are written from several threads into slots the
// compiler cannot see are disjoint (see below).

/// Work done on every core and handed over in order, a batch at a time, so
/// that a caller streaming its output holds a batch or two in memory. (Its
/// callers: changed records read again, compared and rendered for the
/// formatters; the key join's lookups; both inputs read at once.)
///
/// The one place that opts out of the compiler's concurrency checks for
/// work shared between threads (`nonisolated(unsafe)`, `@unchecked
/// Sendable`, results written from several threads; the readers' C
/// callbacks and the process's signal handler opt out for reasons of their
/// own): each helper gives every thread its own stretch of the output and
/// reads it only after `concurrentPerform` returns, which the checker
/// cannot see for closures it did not make `@Sendable`.
enum OrderedConcurrentMap {
    static let batchSize = 1024

    /// `transform` of each item, worked out on every core, in the items'
    /// order; the first error in that order is thrown. `transform` must be
    /// safe to call from several threads.
    static func map<Item, Result>(_ items: [Item], _ transform: (Item) throws -> Result) throws -> [Result] {
        try map(items, parts: ProcessFacts.workerCount, transform)
    }

    /// `body` with the items in consecutive batches of `batchSize`, in order.
    static func forEachBatch<Item>(_ items: [Item], _ body: ([Item]) throws -> Void) rethrows {
        for start in stride(from: 0, to: items.count, by: batchSize) {
            try body(Array(items[start..<min(start + batchSize, items.count)]))
        }
    }

    /// Calls `body(item, transform(item))` for each item in order; `transform`
    /// runs concurrently and must be safe to call from several threads. The
    /// next batch is worked on while `body` consumes the current one: for a
    /// consumer that does real work of its own on one thread (writing a patch).
    static func forEach<Item, Result>(
        _ items: [Item], transform: (Item) throws -> Result, body: (Item, Result) throws -> Void
    ) throws {
        let parts = ProcessFacts.workerCount
        guard items.count > batchSize else {
            for (item, result) in zip(items, try map(items, parts: parts, transform)) { try body(item, result) }
            return
        }
        func batch(_ start: Int) -> Range<Int> { start..<min(start + batchSize, items.count) }
        var range = batch(0)
        var results = try map(Array(items[range]), parts: parts, transform)
        while range.upperBound < items.count {
            let next = batch(range.upperBound)
            // One thread hands this batch to `body` while the others read the next.
            // (Synchronous: nothing here outlives the call, unlike work sent off with async.)
            let slots = PendingBatch<Result>()
            withoutActuallyEscaping(body) { body in
                withoutActuallyEscaping(transform) { transform in
                    nonisolated(unsafe) let body = body
                    nonisolated(unsafe) let transform = transform
                    nonisolated(unsafe) let current = (range, results)
                    nonisolated(unsafe) let items = items
                    DispatchQueue.concurrentPerform(iterations: 2) { role in
                        if role == 0 {
                            slots.consumed = Swift.Result { for (item, result) in zip(items[current.0], current.1) { try body(item, result) } }
                        } else {
                            slots.results = Swift.Result { try map(Array(items[next]), parts: max(1, parts - 1), transform) }
                        }
                    }
                }
            }
            try slots.consumed!.get()
            results = try slots.results!.get()
            range = next
        }
        for (item, result) in zip(items[range], results) { try body(item, result) }
    }

    /// `transform` of each index in `0..<count`, worked out on every core
    /// as `map` does, while one thread first hands `ready` (the batch
    /// before's results) to `consume` in order and then joins the others:
    /// a stream's next batch is made while the one before is written, and no
    /// core waits for the writing. `consume`'s error is thrown first (its
    /// items come before this batch's), then the first of `transform`'s in
    /// the indices' order. `consume` runs on one thread at a time, not
    /// necessarily the caller's.
    static func map<Ready, Result>(
        count: Int, _ transform: (Int) throws -> Result, afterConsuming ready: [Ready], _ consume: (Ready) throws -> Void
    ) throws -> [Result] {
        let parts = ProcessFacts.workerCount
        guard parts > 1, !ready.isEmpty, count > 1 else {
            for item in ready { try consume(item) }
            return try map(Array(0..<count), parts: parts, transform)
        }
        let slots = Slots<Result>(count, parts: parts)
        let consumed = ResultSlot<Void>()
        withoutActuallyEscaping(transform) { transform in
            withoutActuallyEscaping(consume) { consume in
                nonisolated(unsafe) let transform = transform
                nonisolated(unsafe) let consume = consume
                nonisolated(unsafe) let ready = ready
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    if part == 0 {
                        consumed.result = Swift.Result { for item in ready { try consume(item) } }
                    }
                    slots.fill(transform)
                }
            }
        }
        try consumed.result!.get()
        return try slots.collected()
    }

    /// `transform` of each item started at once, each item a task of the
    /// dispatch pool (two inputs read at once); the first error in the items'
    /// order is thrown. Inside another such call the pool runs the items
    /// one after another once the outer tasks hold the cores: work nested so
    /// goes through `mapOnNewThreads`.
    static func mapEachOnItsOwnThread<Item, Result>(_ items: [Item], _ transform: @Sendable (Item) throws -> Result) throws -> [Result] {
        // One object per item for its result, not `map`'s shared slots: two
        // inputs read through shared slots parse slower with the same
        // instructions (see docs/performance.md).
        let slots = items.map { _ in ResultSlot<Result>() }
        nonisolated(unsafe) let items = items
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            slots[index].result = Swift.Result { try transform(items[index]) }
        }
        return try slots.map { try $0.result!.get() }
    }

    /// `transform` of each item, each on a thread started for it (the parts
    /// of a file, read while the other input is read too: a
    /// `concurrentPerform` inside `mapEachOnItsOwnThread`'s ran them one
    /// after another on two cores); the first error in the items' order is
    /// thrown.
    /// (`transform` escapes: a finished `Thread` may still hold its block.)
    static func mapOnNewThreads<Item, Result>(_ items: [Item], _ transform: @escaping @Sendable (Item) throws -> Result) throws -> [Result] {
        let slots = items.map { _ in ResultSlot<Result>() }
        let finished = DispatchGroup()
        for (index, item) in items.enumerated() {
            nonisolated(unsafe) let item = item
            let slot = slots[index]
            finished.enter()
            let thread = Thread {
                slot.result = Swift.Result { try transform(item) }
                finished.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        finished.wait()
        return try slots.map { try $0.result!.get() }
    }

    /// Fills `array` on every core, `parts` stretches of it at once: `body`
    /// gets a stretch of indices and sets values in it (only in it).
    static func fill<Element>(_ array: inout [Element], parts: Int, _ body: (Range<Int>, _ set: (Int, Element) -> Void) -> Void) {
        let count = array.count
        guard parts > 1 else {
            return body(0..<count) { array[$0] = $1 }
        }
        array.withUnsafeMutableBufferPointer { buffer in
            withoutActuallyEscaping(body) { body in
                nonisolated(unsafe) let buffer = buffer
                nonisolated(unsafe) let body = body
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    let stretch = (count * part / parts)..<(count * (part + 1) / parts)
                    body(stretch) { index, value in
                        precondition(stretch.contains(index), "a part set a value outside its stretch")
                        buffer[index] = value
                    }
                }
            }
        }
    }

    private static func map<Item, Result>(_ items: [Item], parts: Int, _ transform: (Item) throws -> Result) throws -> [Result] {
        guard parts > 1, items.count > 1 else { return try items.map(transform) }
        let slots = Slots<Result>(items.count, parts: parts)
        withoutActuallyEscaping(transform) { transform in
            nonisolated(unsafe) let transform = transform
            nonisolated(unsafe) let items = items
            DispatchQueue.concurrentPerform(iterations: parts) { _ in
                slots.fill { try transform(items[$0]) }
            }
        }
        return try slots.collected()
    }
}

/// What the two sides of a pipelined step leave behind: the next batch's
/// results and whether handing over the current one failed. Each side writes
/// its own member; both are read after `concurrentPerform` returns.
private final class PendingBatch<Result>: @unchecked Sendable {
    var results: Swift.Result<[Result], Error>?
    var consumed: Swift.Result<Void, Error>?
}

/// One item's result, written by the one thread that works on it and read
/// after `concurrentPerform` returns.
private final class ResultSlot<Result>: @unchecked Sendable {
    var result: Swift.Result<Result, Error>?
}

/// Result slots filled from several threads, each thread its own indices:
/// plain memory, so no copy-on-write check runs while another thread writes.
/// The indices are handed out in stretches of about an eighth of a part,
/// each taken by the next thread free: with one fixed half each, the thread
/// given the costlier records (or descheduled on a shared machine) kept the
/// other waiting at the end of every batch.
private final class Slots<Result>: @unchecked Sendable {
    let results: UnsafeMutableBufferPointer<Swift.Result<Result, Error>?>
    /// The first index no thread has taken yet.
    private let next = Atomic<Int>(0)
    private let stretch: Int

    /// Slots for `count` results, to be filled by `parts` threads.
    init(_ count: Int, parts: Int) {
        results = .allocate(capacity: count)
        results.initialize(repeating: nil)
        stretch = max(1, count / (parts * 8))
    }

    /// Takes stretches of indices until none is left, and sets each one's
    /// result: what every thread filling the slots runs.
    func fill(_ transform: (Int) throws -> Result) {
        while true {
            // Each stretch taken is its taker's alone.
            let start = next.add(stretch, ordering: .relaxed).oldValue
            guard start < results.count else { return }
            for index in start..<min(start + stretch, results.count) {
                results[index] = Swift.Result { try transform(index) }
            }
        }
    }

    /// The results in order, once every thread is done; the first error in that order is thrown.
    func collected() throws -> [Result] {
        try results.map { try $0!.get() }
    }
    deinit {
        results.deinitialize()
        results.deallocate()
    }
}
