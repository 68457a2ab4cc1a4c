/// The rows of OURS's and THEIRS's versions of a merged record (nil where a
/// side has none), as two 32-bit rows: 8 bytes a record of the result, not
/// the 32 two optional Ints take.
package struct RecordSources: Sendable {
    private let oursRow: Int32
    private let theirsRow: Int32

    package init(ours: Int?, theirs: Int?) {
        oursRow = ours.map { Int32($0) } ?? -1
        theirsRow = theirs.map { Int32($0) } ?? -1
    }

    package var ours: Int? { oursRow < 0 ? nil : Int(oursRow) }
    package var theirs: Int? { theirsRow < 0 ? nil : Int(theirsRow) }
}
