import Foundation

/// Every record's key text (see `RecordKey`), in one byte arena: the keys'
/// UTF-8 bytes end to end, and where each ends.
///
/// A `[String]` costs 16 bytes a key even when the key is short enough to
/// live inside the String, and a heap object of 32 bytes and up beside it
/// when it is not (a UUID is 36 bytes). Here a key costs its bytes and 4.
/// Reading a key makes a String; comparing one with a String does not.
package struct RecordKeys: RandomAccessCollection, Equatable, Sendable {
    private var bytes: [UInt8] = []
    /// `ends[i]`: the offset in `bytes` just past key `i` (key `i` starts where key `i - 1` ends).
    private var ends: [UInt32] = []

    package init() {}

    package init<Keys: Sequence>(_ keys: Keys) where Keys.Element == String {
        for key in keys { append(key) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { ends.count }

    package subscript(position: Int) -> String {
        bytes.span.extracting(range(position)).decoded
    }

    @inline(__always)
    private func range(_ position: Int) -> Range<Int> {
        (position == 0 ? 0 : Int(ends[position - 1]))..<Int(ends[position])
    }

    /// Whether key `position` is `key`, byte for byte.
    package func key(_ position: Int, is key: String) -> Bool {
        key.withBytes { self.key(position, is: $0) }
    }

    /// Whether key `position` is the UTF-8 text `key`, byte for byte.
    @inline(__always)
    package func key(_ position: Int, is key: Span<UInt8>) -> Bool {
        let range = range(position)
        guard key.count == range.count else { return false }
        return bytes.span.extracting(range).sameBytes(as: key)
    }

    /// Calls `body` with key `position`'s UTF-8 bytes, without making a String.
    @inline(__always)
    package func withKey<Result>(_ position: Int, _ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        try body(bytes.span.extracting(range(position)))
    }

    /// The keys' bytes in all.
    package var byteCount: Int { bytes.count }

    /// Whether the keys' bytes would pass the 4 GiB that 32-bit ends can mark.
    package func wouldOverflow(adding byteCount: Int) -> Bool {
        bytes.count + byteCount > Int(UInt32.max)
    }

    /// Appends a key.
    package mutating func append(_ key: String) {
        key.withBytes { append($0) }
    }

    /// Appends a key given as UTF-8 bytes; the caller checks `wouldOverflow`
    /// first. Inlined: a reader adds a key a record.
    @inline(__always)
    package mutating func append(_ key: Span<UInt8>) {
        precondition(!wouldOverflow(adding: key.count), "keys past 4 GiB")
        bytes.append(key)
        ends.append(UInt32(truncatingIfNeeded: bytes.count))
    }

    /// Appends every key of `other`.
    package mutating func append(contentsOf other: RecordKeys) {
        precondition(!wouldOverflow(adding: other.bytes.count), "keys past 4 GiB")
        let base = UInt32(bytes.count)
        bytes.append(contentsOf: other.bytes)
        ends.append(contentsOf: other.ends.lazy.map { $0 + base })
    }

    /// Makes room for `count` keys of `bytesPerKey` bytes on average.
    mutating func reserveCapacity(_ count: Int, bytesPerKey: Int) {
        ends.reserveCapacity(count)
        bytes.reserveCapacity(count * bytesPerKey)
    }
}
