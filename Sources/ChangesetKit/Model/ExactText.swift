import Foundation

/// The one equality rule for text (values, member names, ids, keys):
/// strings are equal when their UTF-8 bytes are. Swift's `String ==` and
/// `String.hashValue` treat canonically equivalent strings as equal (`"é"`
/// as U+00E9 and as `e` U+0301), while fingerprints hash bytes; a file
/// that changed its Unicode normalisation did change, and every part of
/// changeset must say so alike (the report, `-q`, patches, merges).
package enum ExactText {
    /// Whether `a` and `b` are the same bytes.
    @inline(__always)
    package static func same(_ a: String, _ b: String) -> Bool {
        // The two strings' UTF-8 compared as bytes (a native string holds it
        // contiguously: nothing is copied; a word at a time, memcmp when
        // long); `==` would compare them the Unicode way first.
        a.withBytes { x in b.withBytes { y in x.sameBytes(as: y) } }
    }
}

/// A String as a Dictionary or Set key under `ExactText`'s rule: by its bytes.
struct ExactTextKey: Hashable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (a: ExactTextKey, b: ExactTextKey) -> Bool {
        ExactText.same(a.text, b.text)
    }

    func hash(into hasher: inout Hasher) {
        text.withBytes { hasher.combine(bytes: $0) }
    }
}
