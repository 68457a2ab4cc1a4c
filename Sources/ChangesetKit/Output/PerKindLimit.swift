/// The reports' cap: at most `limit` changes of each kind are shown, and
/// for each kind the number left out is handed back when the kind ends.
/// The change stream comes grouped by kind, so a kind ends when the next
/// begins (or at `finish`).
struct PerKindLimit {
    let limit: Int
    private var kind: Change.Kind?
    private var shown = 0
    private var left = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// For the next change: does it start a new kind, the kind that ended
    /// with changes left out (if any), and should it be shown?
    mutating func next(_ kind: Change.Kind) -> (starts: Bool, ended: (kind: Change.Kind, count: Int)?, show: Bool) {
        var ended: (kind: Change.Kind, count: Int)?
        let starts = kind != self.kind
        if starts {
            ended = finish()
            self.kind = kind
            shown = 0
            left = 0
        }
        guard shown < limit else {
            left += 1
            return (starts, ended, false)
        }
        shown += 1
        return (starts, ended, true)
    }

    /// The last kind, if changes of it were left out.
    mutating func finish() -> (kind: Change.Kind, count: Int)? {
        defer { left = 0 }
        guard let kind, left > 0 else { return nil }
        return (kind, left)
    }

    /// A kind's name as a heading.
    static func title(_ kind: Change.Kind) -> String {
        switch kind {
        case .sectionDeleted: "Sections deleted"
        case .sectionInserted: "Sections inserted"
        case .sectionMoved: "Sections moved"
        case .deleted: "Deleted"
        case .inserted: "Inserted"
        case .moved: "Moved"
        case .updated: "Updated"
        }
    }
}
