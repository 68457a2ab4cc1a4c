/// The fingerprint rules, shared by every reader so that a JSON record and a
/// CSV record with the same content get the same fingerprint.
///
/// - A scalar hashes its kind and its text: in `.typed` mode null, booleans,
///   numbers (canonical text, see `CanonicalNumber`) and strings are distinct
///   kinds; in `.text` mode all are text (see `ScalarText`).
/// - An array hashes its elements in order.
/// - An object sums the hashes of its (name, value) members, so key order
///   never matters; in `.text` mode members whose text is empty are left out,
///   so an empty cell, a null and a missing field agree.
struct ValueHasher {
    let mode: ComparisonMode
    /// Scratch space for canonical number text, reused to avoid allocation.
    var scratch: [UInt8] = []

    init(mode: ComparisonMode) {
        self.mode = mode
    }

    enum Seed {
        static let null: UInt64 = 0x6E75_6C6C
        static let falseValue: UInt64 = 0x6661_6C73_65
        static let trueValue: UInt64 = 0x7472_7565
        static let number: UInt64 = 0x6E75_6D62_6572
        static let string: UInt64 = 0x7374_7269_6E67
        static let text: UInt64 = 0x7465_7874
        static let name: UInt64 = 0x6E61_6D65
        static let array: UInt64 = 0x6172_7261_79
        static let object: UInt64 = 0x6F62_6A65_6374
    }

    /// A scalar's hash, and whether it counts as empty (text mode only).
    struct ScalarHash {
        var hash: UInt64
        var isEmpty: Bool
    }

    static let emptyText = StableHash.empty(seed: Seed.text)

    mutating func null() -> ScalarHash {
        switch mode {
        case .typed: ScalarHash(hash: StableHash.empty(seed: Seed.null), isEmpty: false)
        case .text, .cellText: ScalarHash(hash: ValueHasher.emptyText, isEmpty: true)
        }
    }

    mutating func boolean(_ value: Bool) -> ScalarHash {
        switch mode {
        case .typed:
            return ScalarHash(hash: StableHash.empty(seed: value ? Seed.trueValue : Seed.falseValue), isEmpty: false)
        case .text, .cellText:
            let word: StaticString = value ? "true" : "false"
            return ScalarHash(hash: String.withBytes(of: word) { StableHash.bytes($0, seed: Seed.text) }, isEmpty: false)
        }
    }

    /// `isCanonical`: the caller knows `literal` is in canonical form (the
    /// own JSON lexer, for an integer it read).
    mutating func number(_ literal: Span<UInt8>, isCanonical: Bool = false) -> ScalarHash {
        let seed = mode == .typed ? Seed.number : Seed.text
        // A CSV cell read again as a number is still the cell's text.
        if mode == .cellText { return ScalarHash(hash: StableHash.bytes(literal, seed: seed), isEmpty: false) }
        if !isCanonical, CanonicalNumber.literalForm(literal) == .unsure, CanonicalNumber.canonicalize(literal, into: &scratch) {
            return ScalarHash(hash: StableHash.bytes(scratch.span, seed: seed), isEmpty: false)
        }
        return ScalarHash(hash: StableHash.bytes(literal, seed: seed), isEmpty: false)
    }

    mutating func string(_ bytes: Span<UInt8>) -> ScalarHash {
        switch mode {
        case .typed:
            return ScalarHash(hash: StableHash.bytes(bytes, seed: Seed.string), isEmpty: false)
        case .text:
            if bytes.isEmpty { return ScalarHash(hash: ValueHasher.emptyText, isEmpty: true) }
            if CanonicalNumber.literalForm(bytes) == .unsure, CanonicalNumber.canonicalize(bytes, into: &scratch) {
                return ScalarHash(hash: StableHash.bytes(scratch.span, seed: Seed.text), isEmpty: false)
            }
            return ScalarHash(hash: StableHash.bytes(bytes, seed: Seed.text), isEmpty: false)
        case .cellText:
            if bytes.isEmpty { return ScalarHash(hash: ValueHasher.emptyText, isEmpty: true) }
            return ScalarHash(hash: StableHash.bytes(bytes, seed: Seed.text), isEmpty: false)
        }
    }

    @inline(__always)
    static func name(_ bytes: Span<UInt8>) -> UInt64 {
        StableHash.bytes(bytes, seed: Seed.name)
    }

    @inline(__always)
    static func member(name: UInt64, value: UInt64) -> UInt64 {
        StableHash.combine(name, value)
    }

    @inline(__always)
    static func arrayStart() -> UInt64 { Seed.array }

    @inline(__always)
    static func arrayElement(_ accumulator: UInt64, _ element: UInt64) -> UInt64 {
        StableHash.combine(accumulator, element)
    }

    @inline(__always)
    static func arrayEnd(_ accumulator: UInt64, count: Int) -> UInt64 {
        StableHash.combine(accumulator, UInt64(truncatingIfNeeded: count))
    }

    /// Members are summed (commutative), then mixed with their count.
    @inline(__always)
    static func objectEnd(_ memberSum: UInt64, count: Int) -> UInt64 {
        StableHash.combine(memberSum ^ Seed.object, UInt64(truncatingIfNeeded: count))
    }
}

/// The text form of a scalar, used for ids, section names and `.text` comparisons.
enum ScalarText {
    /// A string or cell as key text: its bytes, whatever they spell (`"007"`
    /// and `"7"`, `0E0` and `0E8` are different ids).
    static func fromText(_ bytes: Span<UInt8>) -> String {
        bytes.decoded
    }

    static func fromNumber(_ literal: Span<UInt8>, scratch: inout [UInt8]) -> String {
        if CanonicalNumber.literalForm(literal) != .canonical, CanonicalNumber.canonicalize(literal, into: &scratch) {
            return String(decoding: scratch, as: UTF8.self)
        }
        return literal.decoded
    }
}
