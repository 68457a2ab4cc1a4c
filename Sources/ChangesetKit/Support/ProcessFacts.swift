import Foundation

/// What this process may use of the machine, for the steps that split
/// their work between threads.
package enum ProcessFacts {
    /// The cores this process may use (`activeProcessorCount`: on Linux the
    /// CPU affinity mask, so `taskset -c 0` gives one worker; on macOS the
    /// active cores).
    static var coreCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// How many threads a step that splits its work between the cores uses:
    /// one per core, at most 8, since no machine with more cores has been
    /// measured to gain from them.
    package static var workerCount: Int { min(8, coreCount) }
}
