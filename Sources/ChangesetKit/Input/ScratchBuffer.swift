/// A growable run of plain values a reader owns as scratch space: the CSV
/// reader's cells of the row being read (their bytes, and where each ends),
/// the JSON reader's stack of open arrays and objects.
///
/// Written by hand rather than as an Array: appending to an Array held in a
/// class's stored property costs a uniqueness check per append and, for a
/// run of bytes, a generic copy (about 90 instructions a call on the
/// benchmark; the CSV reader appends once a field and once a byte of quoted
/// text). Here an append is a capacity check and a store or a `memcpy`.
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

extension ScratchBuffer where Element == UInt8 {
    /// The bytes so far; valid until the next append.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(elements) }
}
