import Synchronization

/// How many records the readers of a comparison in memory may hold between
/// them before `--memory-limit` says the comparison goes to partitions
/// instead: the estimate from the files' sizes and samples is only an
/// estimate (and a stream has no size), so the readers count too, and
/// stop (`Exceeded`) once their records together pass it. Shared by the
/// readers of both inputs and of their parts, each of which charges its
/// records every `chargeInterval`, under a lock (a few times a second).
package final class RecordBudget: Sendable {
    /// Thrown by a reader whose records, with the others', passed the budget.
    package struct Exceeded: Error {}

    /// Records a reader reads between two charges.
    static let chargeInterval = 4096

    private let records: Int
    /// The records charged so far, by every reader.
    private let charged = Mutex(0)

    /// A budget of `records` (at least one interval: a smaller limit has gone to partitions already).
    package init(records: Int) {
        self.records = max(records, Self.chargeInterval)
    }

    /// Whether the readers' records have passed the budget.
    package var isExceeded: Bool {
        charged.withLock { $0 >= records }
    }

    /// Counts `count` more records; throws once the readers' records pass the budget.
    func charge(_ count: Int) throws {
        let total = charged.withLock { charged in
            charged += count
            return charged
        }
        if total >= records { throw Exceeded() }
    }

    /// Takes back `count` records a reader charged and then dropped: a JSON
    /// reader whose own lexer gave up, its input read again with yajl.
    func refund(_ count: Int) {
        charged.withLock { $0 -= count }
    }

    /// Throws when the budget has been passed.
    package func check() throws {
        if isExceeded { throw Exceeded() }
    }
}
