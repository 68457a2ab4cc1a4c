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
    func entry(at position: Int, named name: Span<UInt8>) -> Entry? {
        guard position < entries.count else { return nil }
        let entry = entries[position]
        guard Int(entry.count) == name.count else { return nil }
        return bytes.holds(name, at: Int(entry.start)) ? entry : nil
    }

    /// The current record's member at `position` is `name` (not the one the
    /// records before had there): it replaces that entry and those after it.
    mutating func record(_ entry: Entry, at position: Int, named name: Span<UInt8>) {
        // Positions come in order, so `position` is never past the end; stay safe if it were.
        guard position <= entries.count, bytes.count + name.count < Int(Int32.max) else { return }
        if position < entries.count {
            bytes.removeSubrange(Int(entries[position].start)...)
            entries.removeSubrange(position...)
        }
        var entry = entry
        entry.start = Int32(bytes.count)
        entry.count = Int32(name.count)
        bytes.append(name)
        entries.append(entry)
    }
}
