/// Something both sides changed in ways that do not fit together.
public struct MergeConflict: Sendable, Equatable {
    /// What the two sides did that does not fit together; the raw value is
    /// the name the conflict formats write.
    public enum Kind: String, Sendable {
        /// The same field changed to different values.
        case field
        /// OURS deleted the record, THEIRS changed it.
        case deletedByOurs = "deleted-by-ours"
        /// THEIRS deleted the record, OURS changed it.
        case deletedByTheirs = "deleted-by-theirs"
        /// Both inserted a record with this id, with different content.
        case insertedByBoth = "inserted-by-both"
        /// Both changed a member of the JSON document around the records
        /// (`--records-at`), differently: `path` names the member (from the
        /// document down), `base`, `ours` and `theirs` hold its versions.
        case document
    }

    /// What kind of conflict.
    public var kind: Kind
    /// The record's key (see `RecordKey`); empty for `.document`.
    public var key: String
    /// The field, for `.field` and `.document`: its member names from the
    /// record (or document) down, array positions left out (they are in
    /// `elements`); nil when the conflict is about whole records.
    public var path: FieldPath?
    /// The array positions on the way to the field, as `FieldChange` has
    /// them (`licenses[0].path`: depth 1, index 0), each an index in the
    /// array as OURS's resolution of the record has it (THEIRS's, for an
    /// element OURS's resolution does not hold); empty outside arrays.
    public var elements: [FieldChange.ElementIndex]
    /// The three versions of the field (or element, or record); nil where it is absent.
    public var base: Value?
    /// OURS's version; nil where OURS has none.
    public var ours: Value?
    /// THEIRS's version; nil where THEIRS has none.
    public var theirs: Value?

    /// A conflict of `kind` on the record `key`, at `path` and `elements`, with
    /// the three versions.
    public init(
        kind: Kind, key: String, path: FieldPath?, base: Value?, ours: Value?, theirs: Value?, elements: [FieldChange.ElementIndex] = []
    ) {
        self.kind = kind
        self.key = key
        self.path = path
        self.base = base
        self.ours = ours
        self.theirs = theirs
        self.elements = elements
    }

    /// Where the conflict is, as a person reads it (`licenses[0].path`); nil without a path.
    public var location: String? { path.map { FieldChange(path: $0, old: nil, new: nil, elements: elements).location } }

    /// Where the conflict is as RFC 6901 writes it (`/licenses/0/path`); nil without a path.
    public var pointer: String? { path.map { FieldChange(path: $0, old: nil, new: nil, elements: elements).pointer } }
}
