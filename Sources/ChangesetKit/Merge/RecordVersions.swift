/// One snapshot as the merge sees it, in file order: each record's identity
/// (unique within the snapshot), a hash of the content that counts, so
/// that equal versions mean an unchanged record, and a hash of how the
/// record is spelled (`Snapshot.spelling(ofRecord:)`), so that a side that
/// only respelled a record (`2.50` -> `2.5`) is a side that changed its bytes.
package struct RecordVersions: Sendable {
    package var keys: [String]
    package var versions: [UInt64]
    package var spellings: [UInt64]

    /// Without `spellings`, a record is spelled as its version says.
    package init(keys: [String], versions: [UInt64], spellings: [UInt64]? = nil) {
        precondition(keys.count == versions.count, "one version per key")
        precondition(spellings.map { $0.count == keys.count } ?? true, "one spelling per key")
        self.keys = keys
        self.versions = versions
        self.spellings = spellings ?? versions
    }

    package var count: Int { keys.count }
}
