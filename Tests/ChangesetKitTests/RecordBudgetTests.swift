import Dispatch
import Synchronization
import Testing
@testable import ChangesetKit

/// The readers of both inputs charge one `RecordBudget` from several
/// threads: no charge may be lost, and the budget is passed exactly when
/// the records charged together reach it.
@Suite struct RecordBudgetTests {
    @Test func chargesFromSeveralThreadsAddUpAndPassTheBudgetOnce() throws {
        let interval = RecordBudget.chargeInterval
        let budget = RecordBudget(records: 64 * interval)
        let exceeded = Counter()
        // 8 threads of 8 charges: the 64th charge, whichever thread makes it, reaches the budget.
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<8 {
                do { try budget.charge(interval) } catch is RecordBudget.Exceeded { exceeded.add() } catch {}
            }
        }
        #expect(exceeded.value == 1)
        #expect(budget.isExceeded)
        #expect(throws: RecordBudget.Exceeded.self) { try budget.check() }
    }

    @Test func aBudgetNotYetReachedLetsTheReadersOn() throws {
        let budget = RecordBudget(records: 3 * RecordBudget.chargeInterval)
        try budget.charge(RecordBudget.chargeInterval)
        try budget.charge(RecordBudget.chargeInterval - 1)
        #expect(!budget.isExceeded)
        try budget.check()
        #expect(throws: RecordBudget.Exceeded.self) { try budget.charge(RecordBudget.chargeInterval + 1) }
    }

    @Test func aBudgetBelowOneIntervalIsOneInterval() throws {
        let budget = RecordBudget(records: 1)
        try budget.charge(RecordBudget.chargeInterval - 1)
        #expect(!budget.isExceeded)
        #expect(throws: RecordBudget.Exceeded.self) { try budget.charge(1) }
    }
}

/// A count several threads add to.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
