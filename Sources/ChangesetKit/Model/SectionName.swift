/// A section's name: the section field's text, or nil for records whose
/// section field is missing or null (and for the one section of a run
/// without `--section`). Names are the same when their bytes are
/// (`ExactText`), as ids are: `"é"` as U+00E9 and as `e` U+0301 name two
/// sections.
package struct SectionName: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    package let text: String?

    package init(_ text: String?) {
        self.text = text
    }

    package init(stringLiteral text: String) {
        self.text = text
    }

    package init(nilLiteral: ()) {
        self.text = nil
    }

    package static func == (a: SectionName, b: SectionName) -> Bool {
        switch (a.text, b.text) {
        case (nil, nil): true
        case let (a?, b?): ExactText.same(a, b)
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(text.map(ExactTextKey.init))
    }

    /// The name as part of a record's content (a record that moved to
    /// another section changed): what a replay and a merge add to the
    /// record's fingerprint. The null section differs from one named "".
    package var contentHash: UInt64 {
        StableHash.string(text ?? "", seed: text == nil ? 0x6E6F_6E65 : 0x7365_6374)
    }
}
