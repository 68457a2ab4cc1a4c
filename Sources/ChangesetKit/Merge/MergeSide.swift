/// Which of a merge's three snapshots.
package enum MergeSide: String, Sendable {
    case base, ours, theirs
}
