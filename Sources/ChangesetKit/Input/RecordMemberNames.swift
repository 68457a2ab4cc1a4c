/// The JSON reader's memory of the top-level member names of the records
/// before, by position, with what it worked out for each: the name's hash and
/// its field-rule node.
///
/// Most files name the same members in the same order in every record, so a
/// record's member at position `p` is usually the one the records before had
/// there. Recognising it takes one comparison of bytes instead of a hash, a
/// duplicate check and a walk of the field rules.
///
/// The invariant that makes a match safe: when position `p` of the current
/// record is looked up, entries `0..<p` are the current record's own names
/// (each position either matched or was written afresh, and a write drops
/// the entries after it). So entries `0...p` are the first names of one record
/// that passed the duplicate check, and a name equal to entry `p` differs from
/// every name before it in the current record too: it is no duplicate.
struct RecordMemberNames {
    /// The names' bytes back to back.
    private var bytes: [UInt8] = []
    private var entries: [Entry] = []

    struct Entry {
        var hash: UInt64
        var node: Int32
        /// The name's bytes: `count` of them from `start` in `bytes`.
        fileprivate var start: Int32 = 0
        fileprivate var count: Int32 = 0

        init(hash: UInt64, node: Int32) {
            self.hash = hash
            self.node = node
        }
    }

    /// What is known of `name` at `position` of the current record, if the records before had it there.
    @inline(__always)
    func entry(at position: Int, named name: UnsafeRawBufferPointer) -> Entry? {
        entries.withUnsafeBufferPointer { entries -> Entry? in
            guard position < entries.count else { return nil }
            let entry = entries[position]
            guard Int(entry.count) == name.count else { return nil }
            guard name.count > 0 else { return entry }
            return bytes.withUnsafeBytes { stored -> Entry? in
                Self.equal(stored.baseAddress! + Int(entry.start), name.baseAddress!, count: name.count) ? entry : nil
            }
        }
    }

    /// Are the `count` bytes at `a` and `b` the same? Names are short: eight
    /// bytes at a time, then at most two overlapping loads, beats a call to
    /// `memcmp` and a byte loop alike. Never reads outside either run.
    @inline(__always)
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
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

    /// The current record's member at `position` is `name` (not the one the
    /// records before had there): it replaces that entry and those after it.
    mutating func record(_ entry: Entry, at position: Int, named name: UnsafeRawBufferPointer) {
        // Positions come in order, so `position` is never past the end; stay safe if it were.
        guard position <= entries.count, bytes.count + name.count < Int(Int32.max) else { return }
        if position < entries.count {
            bytes.removeSubrange(Int(entries[position].start)...)
            entries.removeSubrange(position...)
        }
        var entry = entry
        entry.start = Int32(bytes.count)
        entry.count = Int32(name.count)
        bytes.append(contentsOf: name)
        entries.append(entry)
    }
}
