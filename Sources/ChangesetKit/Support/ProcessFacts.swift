import Foundation

/// What this process may use of the machine: cores, for the steps that
/// split their work between threads, and memory, for the limit past which
/// a comparison works through temporary files.
public enum ProcessFacts {
    /// The cores this process may use (`activeProcessorCount`: on Linux the
    /// CPU affinity mask, so `taskset -c 0` gives one worker; on macOS the
    /// active cores).
    static var coreCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// How many threads a step that splits its work between the cores uses:
    /// one per core, at most 8, since no machine with more cores has been
    /// measured to gain from them.
    package static var workerCount: Int { min(8, coreCount) }

    /// The memory this process may have: the machine's, or its container's
    /// cgroup limit (v2 `memory.max`, else v1 `memory.limit_in_bytes`) when
    /// that is lower. A cgroup without a limit (`max`) leaves the machine's.
    package static var availableMemory: UInt64 {
        var memory = ProcessInfo.processInfo.physicalMemory
        for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            if let text = FileManager.default.contents(atPath: path).map({ String(decoding: $0, as: UTF8.self) }),
               let limit = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                memory = min(memory, limit)
            }
        }
        return memory
    }

    /// The default memory limit for a comparison: half of `availableMemory`,
    /// leaving the other half to the system, the output and other processes.
    public static var defaultMemoryLimit: Int {
        Int(min(availableMemory / 2, UInt64(Int.max)))
    }

    /// A size that `byteCount(parsing:)` cannot read.
    public struct NotASize: Error, Equatable, CustomStringConvertible {
        /// The text given, as it was.
        public var text: String

        /// Makes the error for `text`.
        public init(text: String) {
            self.text = text
        }

        /// What was given and how a size is written.
        public var description: String {
            "\"\(text)\": not a size; use bytes or a number with K, M, G or T (800M, 1.5G)"
        }
    }

    /// A size in bytes from text such as `800M`, `1.5G`, `4096` or `2kb`:
    /// a number with an optional K, M, G or T (powers of 1024, upper or
    /// lower case, a trailing B allowed). Digits and one decimal point only,
    /// below 9e18, and a whole byte at least unless it is 0.
    ///
    /// - Throws: `NotASize` for anything else (signs, exponents, hex, `0.4`).
    public static func byteCount(parsing text: String) throws(NotASize) -> Int {
        let units: [Character: Double] = ["K": 1024, "M": 1_048_576, "G": 1_073_741_824, "T": 1_099_511_627_776]
        var number = text.trimmingCharacters(in: .whitespaces).uppercased()
        if number.hasSuffix("B") && number.count > 1 { number.removeLast() }
        var unit = 1.0
        if let last = number.last, let scale = units[last] {
            unit = scale
            number.removeLast()
        }
        // Double alone would also take hex, signs and exponents.
        let digits = number.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
            && number.filter { $0 == "." }.count <= 1 && number.contains(where: \.isNumber)
        guard digits, let value = Double(number), value * unit < 9e18, value == 0 || value * unit >= 1 else {
            throw NotASize(text: text)
        }
        return Int(value * unit)
    }
}
