// Unsafe code here: the few places ChangesetKit touches memory by address,
// outside the C libraries' glue, the file reading and the CSV reader's loop.
// Everything else reads bytes as `Span<UInt8>` (bounds and lifetime checked by
// the compiler) and calls these helpers for what a span cannot do itself:
// make a String, compare, copy out, hand over eight bytes at a time, find a
// byte; and the memory a table's columns and a reader's scratch live in.
// Measured reasons are next to each piece. Nothing here knows what the
// bytes mean.
internal import CPrefetch
import Foundation

extension Span where Element == UInt8 {
    /// The bytes as text; invalid UTF-8 is repaired, as `String(decoding:as:)` does.
    var decoded: String {
        withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes in an array of their own.
    var array: [UInt8] {
        withUnsafeBufferPointer { Array($0) }
    }

    /// Whether both hold the same bytes: short runs word by word, long ones with memcmp.
    @inline(__always)
    func sameBytes(as other: Span<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return withUnsafeBytes { a in
            other.withUnsafeBytes { b in
                a.count <= 32 ? Self.equal(a.baseAddress!, b.baseAddress!, count: a.count) : memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
            }
        }
    }

    /// Are the `count` bytes at `a` and `b` the same? Short runs (member names): eight
    /// bytes at a time, then at most two overlapping loads, beats a call to
    /// `memcmp` and a byte loop alike. Never reads outside either run.
    @inline(__always)
    fileprivate static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var index = 0
        while index + 8 <= count {
            if a.loadUnaligned(fromByteOffset: index, as: UInt64.self) != b.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                return false
            }
            index += 8
        }
        let left = count - index
        if left == 0 { return true }
        if count >= 8 {
            return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if left >= 4 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        for offset in 0..<left where a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
            return false
        }
        return true
    }

    /// The first byte at or after `start` (before `end`) that ends a run of
    /// plain JSON string bytes: `"`, `\`, a control byte or a byte past
    /// ASCII; `end` if none does. Eight bytes at a time (SWAR: one 64-bit
    /// word tests eight bytes; the borrow tests flag the lowest matching byte
    /// of a word exactly, since a borrow only runs upwards, so a false flag
    /// can only sit above a true one), then one by one. Both JSON lexers
    /// cross strings this way; through `forEachWord`'s closure and a second
    /// loop for the last bytes, a short string cost twice the instructions.
    @inline(__always)
    func jsonStringStop(from start: Int, upTo end: Int) -> Int {
        precondition(start >= 0 && start <= end && end <= count, "bytes past the end of a span")
        return withUnsafeBytes { bytes in
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            var index = start
            while index + 8 <= end {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let flagged = (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                               | ((word &- ones &* 0x20) & ~word) | word) & highs
                if flagged != 0 { return index + flagged.trailingZeroBitCount / 8 }
                index += 8
            }
            while index < end {
                let byte = bytes[index]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 || byte >= 0x80 { return index }
                index += 1
            }
            return end
        }
    }

    /// Hands `body` the whole eight-byte words from `start` to `end`, in
    /// order, with the offset of each, while it returns true; returns the
    /// offset where it stopped (the first word refused, or where fewer than
    /// eight bytes are left). One bounds check for the run, not one a word:
    /// the JSON scanner crosses most of a file this way.
    @inline(__always)
    func forEachWord(from start: Int, upTo end: Int, _ body: (UInt64, Int) -> Bool) -> Int {
        precondition(start >= 0 && start <= end && end <= count, "words past the end of a span")
        return withUnsafeBytes { bytes in
            var index = start
            while index + 8 <= end {
                if !body(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self), index) { break }
                index += 8
            }
            return index
        }
    }

    /// Hands `body` the bytes as little-endian 64-bit numbers, in order:
    /// each whole eight-byte word, then, when 1-7 bytes are left, those bytes
    /// as one number (the value a byte-by-byte loop would build, read with at
    /// most two loads). What a word-at-a-time hash consumes, with no bounds
    /// check a word.
    @inline(__always)
    func forEachLittleEndianWord(_ body: (UInt64) -> Void) {
        withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            let count = bytes.count
            var offset = 0
            while offset + 8 <= count {
                body(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            guard offset < count else { return }
            let left = count - offset
            if count >= 8 {
                body(base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> UInt64(64 - 8 * left))
            } else if left >= 4 {
                let low = UInt64(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                let high = UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
                body(low | high << UInt64(8 * (left - 4)))
            } else {
                var tail: UInt64 = 0
                for index in 0..<left {
                    tail |= UInt64(base.load(fromByteOffset: offset + index, as: UInt8.self)) << UInt64(8 * index)
                }
                body(tail)
            }
        }
    }

    /// Whether some byte passes `predicate` (a loop over the bytes' address:
    /// a span's checked subscript costs a comparison a byte).
    @inline(__always)
    func containsByte(where predicate: (UInt8) -> Bool) -> Bool {
        withUnsafeBufferPointer { $0.contains(where: predicate) }
    }

    /// The first position at or after `start` holding `byte` (memchr), or nil.
    func firstIndex(of byte: UInt8, from start: Int = 0) -> Int? {
        guard start < count else { return nil }
        return withUnsafeBytes { bytes in
            memchr(bytes.baseAddress! + start, Int32(byte), bytes.count - start).map { UnsafeRawPointer($0) - bytes.baseAddress! }
        }
    }
}

extension UnsafeRawBufferPointer {
    /// `body` with these bytes as a span (valid while the memory is).
    @inline(__always)
    func withSpan<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        let bytes = assumingMemoryBound(to: UInt8.self)
        return try body(bytes.span)
    }
}

extension Hasher {
    /// Feeds the bytes of `span` to the hasher.
    mutating func combine(bytes span: Span<UInt8>) {
        span.withUnsafeBytes { combine(bytes: $0) }
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes from `start` on begin with `other`'s (false when
    /// they would run past the end): the JSON reader's test of a member
    /// name against the name the records before had at its place.
    @inline(__always)
    func holds(_ other: Span<UInt8>, at start: Int) -> Bool {
        guard start >= 0, start + other.count <= count else { return false }
        guard !other.isEmpty else { return true }
        return withUnsafeBytes { stored in
            other.withUnsafeBytes { Span<UInt8>.equal(stored.baseAddress! + start, $0.baseAddress!, count: $0.count) }
        }
    }

    /// Appends the bytes of `span`: one uniqueness and capacity check, then
    /// one `memcpy` into the room made. `append(contentsOf:)` with a buffer
    /// goes through the generic sequence path, about 106 instructions for a
    /// key of a few bytes (the key arena takes one a record).
    @inline(__always)
    mutating func append(_ span: Span<UInt8>) {
        let added = span.count
        guard added > 0 else { return }
        span.withUnsafeBytes { source in
            append(addingCapacity: added) { room in
                room.withUnsafeMutableBufferPointer { buffer, initialized in
                    _ = memcpy(buffer.baseAddress!, source.baseAddress!, added)
                    initialized = added
                }
            }
        }
    }
}

extension String {
    /// The string's UTF-8 bytes as a span, made contiguous first if they are not.
    @inline(__always)
    func withBytes<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        var copy = self
        return try copy.withUTF8 { try body($0.span) }
    }

    /// A string literal's bytes as a span, without a copy.
    @inline(__always)
    static func withBytes<Result>(of literal: StaticString, _ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount).span)
    }
}

// MARK: - Arrays of the key index

extension Array {
    /// Asks the processor to bring the element at `index` into cache for a
    /// write, without waiting for it (a hint; see KeyIndex.prefetch).
    @inline(__always)
    func prefetchForWrite(at index: Int) {
        withUnsafeBufferPointer { changeset_prefetch_for_write($0.baseAddress! + index) }
    }
}

extension Array where Element: BitwiseCopyable {
    /// `count` copies of `value`, in memory marked for huge pages before it is
    /// first written (see HugePages): the key index's slots.
    static func hugePageBacked(repeating value: Element, count: Int) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            buffer.initialize(repeating: value)
            initialized = count
        }
    }
}

/// Transparent huge pages for big tables read and written at random places.
enum HugePages {
    /// The huge page size on x86-64 and arm64 Linux.
    static let size = 2 << 20

    /// Asks the kernel to back the whole 2 MiB pages inside `memory` with
    /// huge pages (`madvise(MADV_HUGEPAGE)`), before they are first written.
    /// Only for memory of 8 MiB or more, where a table's random accesses
    /// outrun the TLB; a hint, so a system without transparent huge pages
    /// (or with them turned off) just goes on with small pages.
    static func advise(_ memory: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard memory.count >= 8 << 20, let base = memory.baseAddress else { return }
        let start = (Int(bitPattern: base) + size - 1) & ~(size - 1)
        let end = (Int(bitPattern: base) + memory.count) & ~(size - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, Int32(MADV_HUGEPAGE))
        #endif
    }
}

// MARK: - Scratch space

/// A growable run of plain values a reader owns as scratch space: the CSV
/// reader's cells of the row being read (their bytes, and where each ends),
/// the JSON reader's stack of open arrays and objects.
///
/// Written by hand rather than as an Array: appending to an Array held in a
/// class's stored property costs a uniqueness check per append and, for a
/// run of bytes, a generic copy, and the CSV reader appends once a field and
/// once a byte of quoted text. Here an append is a capacity check and a
/// store or a `memcpy`.
/// Noncopyable, so the memory has one owner and is freed once.
struct ScratchBuffer<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }
    var indices: Range<Int> { 0..<count }

    /// Read and written in place (a frame's fields, one at a time).
    @inline(__always)
    subscript(position: Int) -> Element {
        unsafeAddress {
            precondition(position >= 0 && position < count, "scratch index out of range")
            return UnsafePointer(base + position)
        }
        nonmutating unsafeMutableAddress {
            precondition(position >= 0 && position < count, "scratch index out of range")
            return base + position
        }
    }

    var last: Element? { count > 0 ? base[count - 1] : nil }

    @inline(__always)
    mutating func removeLast() -> Element {
        precondition(count > 0, "removeLast of an empty scratch buffer")
        count -= 1
        return base[count]
    }

    /// The values so far; valid until the next append.
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(toHold: count + 1) }
        base[count] = element
        count += 1
    }

    @inline(__always)
    mutating func append(_ elements: UnsafePointer<Element>, count added: Int) {
        if count + added > capacity { grow(toHold: count + added) }
        (base + count).update(from: elements, count: added)
        count += added
    }

    /// Empties the buffer, keeping its memory.
    mutating func removeAll() { count = 0 }

    /// Drops the elements from `start` on, keeping the memory.
    @inline(__always)
    mutating func removeAll(from start: Int) {
        precondition(start >= 0 && start <= count, "scratch index out of range")
        count = start
    }

    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}

extension UnsafePointer where Pointee == UInt8 {
    /// The numbers `Span.forEachLittleEndianWord` hands over for the `count`
    /// bytes here, for bytes that lie inside a larger buffer: the 1-7 bytes
    /// left over are read in one load that runs up to seven bytes past them,
    /// then masked, where the span's version takes up to two loads and
    /// branches (a CSV cell is often shorter than a word). The caller knows
    /// the eight bytes from the last word's start are readable.
    @inline(__always)
    func forEachLittleEndianWord(overReading count: Int, _ body: (UInt64) -> Void) {
        let raw = UnsafeRawPointer(self)
        var offset = 0
        while offset + 8 <= count {
            body(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        let left = count - offset
        guard left > 0 else { return }
        body(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & (UInt64.max >> UInt64(64 - 8 * left)))
    }
}

extension ScratchBuffer where Element == UInt8 {
    /// The bytes so far; valid until the next append.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(elements) }

    /// `body` with the bytes so far as a span.
    @inline(__always)
    func withBytes<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        let elements = elements
        return try body(elements.span)
    }

    /// Appends the bytes of `span`.
    @inline(__always)
    mutating func append(_ span: Span<UInt8>) {
        span.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress { append(base, count: bytes.count) }
        }
    }

    /// Appends the UTF-8 of `text`.
    mutating func append(contentsOf text: String) {
        text.withBytes { append($0) }
    }
}

// MARK: - A table's columns

/// Three columns of plain values, a row in each, in one allocation: a row is
/// appended with one uniqueness check and one capacity check for the three,
/// where an Array a column costs both checks a column (a call to the
/// runtime's uniqueness test each). The record table appends a row a record.
///
/// A value type with copy on write, as an Array is: copies share the memory
/// until one of them changes, and a change to shared memory copies it first.
/// `@unchecked Sendable` for that reason: the memory is written only through
/// a uniquely referenced storage object, and read-only while shared.
struct RowColumns<First: BitwiseCopyable, Second: BitwiseCopyable, Third: BitwiseCopyable>: @unchecked Sendable {
    private final class Storage {
        let capacity: Int
        var count = 0
        let memory: UnsafeMutableRawPointer
        let first: UnsafeMutablePointer<First>
        let second: UnsafeMutablePointer<Second>
        let third: UnsafeMutablePointer<Third>

        init(capacity: Int) {
            self.capacity = capacity
            let secondOffset = Storage.aligned(capacity * MemoryLayout<First>.stride, to: MemoryLayout<Second>.alignment)
            let thirdOffset = Storage.aligned(secondOffset + capacity * MemoryLayout<Second>.stride, to: MemoryLayout<Third>.alignment)
            let byteCount = thirdOffset + capacity * MemoryLayout<Third>.stride
            let alignment = max(MemoryLayout<First>.alignment, MemoryLayout<Second>.alignment, MemoryLayout<Third>.alignment)
            memory = .allocate(byteCount: max(byteCount, 1), alignment: alignment)
            first = memory.bindMemory(to: First.self, capacity: capacity)
            second = (memory + secondOffset).bindMemory(to: Second.self, capacity: capacity)
            third = (memory + thirdOffset).bindMemory(to: Third.self, capacity: capacity)
        }

        deinit { memory.deallocate() }

        private static func aligned(_ offset: Int, to alignment: Int) -> Int {
            (offset + alignment - 1) / alignment * alignment
        }

        /// A storage of `capacity` rows holding this one's.
        func copy(capacity: Int) -> Storage {
            let copy = Storage(capacity: capacity)
            copy.first.initialize(from: first, count: count)
            copy.second.initialize(from: second, count: count)
            copy.third.initialize(from: third, count: count)
            copy.count = count
            return copy
        }
    }

    private var storage = Storage(capacity: 0)

    init() {}

    var count: Int { storage.count }

    @inline(__always)
    mutating func append(_ first: First, _ second: Second, _ third: Third) {
        if !isKnownUniquelyReferenced(&storage) || storage.count == storage.capacity { grow(toHold: storage.count + 1) }
        let row = storage.count
        storage.first[row] = first
        storage.second[row] = second
        storage.third[row] = third
        storage.count = row + 1
    }

    /// Row `row`'s value in the first, second or third column.
    @inline(__always)
    func first(_ row: Int) -> First {
        precondition(row >= 0 && row < storage.count, "row out of range")
        return storage.first[row]
    }

    @inline(__always)
    func second(_ row: Int) -> Second {
        precondition(row >= 0 && row < storage.count, "row out of range")
        return storage.second[row]
    }

    @inline(__always)
    func third(_ row: Int) -> Third {
        precondition(row >= 0 && row < storage.count, "row out of range")
        return storage.third[row]
    }

    /// Makes room for `count` rows in all.
    mutating func reserveCapacity(_ count: Int) {
        if count > storage.capacity || !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy(capacity: max(count, storage.capacity))
        }
    }

    /// Out of line: once in a doubling, or on the first change to a shared copy.
    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let capacity = storage.capacity >= needed ? storage.capacity : max(16, storage.capacity * 2, needed)
        storage = storage.copy(capacity: capacity)
    }
}
