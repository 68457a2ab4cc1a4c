/// Numbers are compared by the decimal value they denote, exactly, never
/// through `Double`: `1`, `1.0`, `1e0` and `10E-1` are one number, `-0` is `0`,
/// and `2^70` or `1e400` keep every digit. A number's canonical text is the
/// shortest form of that value:
///
/// - an integer with at most 20 trailing zeros is written out (`100`, `1267650600228229401496703205376`);
/// - otherwise a value with digits left of the point is written `123.45`,
///   a small fraction `0.00012` (up to five zeros after the point);
/// - anything else in scientific form: `1e21`, `1.5e-7`, `-4.2e400`.
///
/// An exponent past ±10^15 cannot be normalised with machine integers; such a
/// number is compared by its source text (documented in the man page).
package enum CanonicalNumber {
    /// True when `text` is a number literal already in canonical form, the
    /// common case (`42`, `-7`, `44.89`, `0.5`), decided in one pass without
    /// building anything. False means "not sure": use `canonicalize`.
    @inline(__always)
    package static func isCanonicalLiteral(_ text: Span<UInt8>) -> Bool {
        literalForm(text) == .canonical
    }

    /// What one pass over `text` can tell about it as a number literal.
    package enum LiteralForm {
        /// A number literal in canonical form: its text is its canonical text.
        case canonical
        /// Not a JSON number literal at all (`abc`, `1904-09-20`, `01`, `1.`).
        case notANumber
        /// Either: `canonicalize` decides (`1.50`, `1e3`, `-0`).
        case unsure
    }

    /// Tells a canonical literal and most text that is no number at all from
    /// the rest in one pass, so that only the rest (rare in real data) pays
    /// for `canonicalize`. Text cells that begin with digits, such as dates,
    /// are common in CSV files.
    @inline(__always)
    package static func literalForm(_ text: Span<UInt8>) -> LiteralForm {
        let count = text.count
        guard count > 0 else { return .notANumber }
        var index = 0
        if text[0] == UInt8(ascii: "-") { index = 1 }
        let integerStart = index
        while index < count, text[index] >= 0x30, text[index] <= 0x39 { index += 1 }
        let integerLength = index - integerStart
        // JSON: a digit must follow the sign, and a leading 0 stands alone.
        guard integerLength > 0 else { return .notANumber }
        let leadingZero = text[integerStart] == 0x30
        if leadingZero && integerLength > 1 { return .notANumber }
        if index == count {
            // An integer: canonical unless -0 or 21 or more trailing zeros.
            if leadingZero { return integerStart == 0 ? .canonical : .unsure }
            return integerLength <= 20 || text[count - 1] != 0x30 ? .canonical : .unsure
        }
        switch text[index] {
        case UInt8(ascii: "."): break
        case UInt8(ascii: "e"), UInt8(ascii: "E"): return .unsure
        default: return .notANumber
        }
        index += 1
        let fractionStart = index
        while index < count, text[index] >= 0x30, text[index] <= 0x39 { index += 1 }
        guard index > fractionStart else { return .notANumber }
        if index < count {
            return text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") ? .unsure : .notANumber
        }
        guard integerLength <= 21, text[count - 1] != 0x30 else { return .unsure }
        if leadingZero {
            // 0.000001 is written out, 0.0000001 is not.
            var zeros = 0
            while text[fractionStart + zeros] == 0x30 { zeros += 1 }
            return zeros <= 5 ? .canonical : .unsure
        }
        return .canonical
    }

    /// Writes the canonical text of the number literal in `text` into `output`
    /// (replacing its contents). Returns false, leaving `output` untouched,
    /// when `text` is not a JSON number literal.
    package static func canonicalize(_ text: Span<UInt8>, into output: inout [UInt8]) -> Bool {
        if canonicalizeDecimalWithTrailingZeros(text, into: &output) { return true }
        return canonicalizeAnyLiteral(text, into: &output)
    }

    /// The usual reason a literal is not canonical, a decimal with trailing
    /// zeros and no exponent (`44.80`, `3.00`, `-0.50`), made canonical by
    /// dropping them (and the point, when nothing is left after it), without
    /// the arrays the general path builds: a price column has one such cell
    /// in ten. Anything else (an exponent, a fraction that would need one, an
    /// integer long enough for trailing-zero rules) returns false for
    /// `canonicalizeAnyLiteral`, which agrees with this on every literal
    /// handled here (tests compare the two).
    static func canonicalizeDecimalWithTrailingZeros(_ text: Span<UInt8>, into output: inout [UInt8]) -> Bool {
        let count = text.count
        var index = 0
        let negative = count > 0 && text[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        let integerStart = index
        while index < count, text[index] >= 0x30, text[index] <= 0x39 { index += 1 }
        let integerLength = index - integerStart
        guard integerLength > 0, integerLength <= 15, index < count, text[index] == UInt8(ascii: ".") else { return false }
        let zeroInteger = text[integerStart] == 0x30
        if zeroInteger && integerLength > 1 { return false }  // a leading zero: no literal
        let point = index
        index += 1
        while index < count, text[index] >= 0x30, text[index] <= 0x39 { index += 1 }
        guard index == count, count > point + 1, text[count - 1] == 0x30 else { return false }
        // The fraction without its trailing zeros.
        var fractionEnd = count
        while fractionEnd > point + 1 && text[fractionEnd - 1] == 0x30 { fractionEnd -= 1 }
        let hasFraction = fractionEnd > point + 1
        if zeroInteger {
            guard hasFraction else {
                output.removeAll(keepingCapacity: true)
                output.append(UInt8(ascii: "0"))  // 0.00 and -0.0 are 0
                return true
            }
            // 0.000001 is written out, 0.0000001 needs an exponent.
            var zeros = 0
            while text[point + 1 + zeros] == 0x30 { zeros += 1 }
            guard zeros <= 5 else { return false }
        }
        output.removeAll(keepingCapacity: true)
        output.append(text.extracting(0..<(hasFraction ? fractionEnd : point)))
        return true
    }

    /// `canonicalize` for any literal, through its parts.
    static func canonicalizeAnyLiteral(_ text: Span<UInt8>, into output: inout [UInt8]) -> Bool {
        guard let parts = parse(text) else { return false }
        output.removeAll(keepingCapacity: true)
        if parts.isPlainCanonicalInteger(in: text) {
            output.append(text)
            return true
        }
        guard let exponentValue = parts.exponent else {
            // Exponent too large to normalise: keep the source text, marked so
            // it can never equal a normalised number.
            output.append(UInt8(ascii: "~"))
            output.append(text)
            return true
        }
        // Significant digits: integer and fraction digits without leading or trailing zeros.
        var digits: [UInt8] = []
        digits.reserveCapacity(parts.integerDigits.count + parts.fractionDigits.count)
        for i in parts.integerDigits where !(digits.isEmpty && text[i] == UInt8(ascii: "0")) { digits.append(text[i]) }
        for i in parts.fractionDigits where !(digits.isEmpty && text[i] == UInt8(ascii: "0")) { digits.append(text[i]) }
        var exponent = exponentValue - parts.fractionDigits.count
        while let last = digits.last, last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty {
            output.append(UInt8(ascii: "0"))
            return true
        }
        if parts.negative { output.append(UInt8(ascii: "-")) }
        let pointPosition = digits.count + exponent  // digits left of the decimal point
        if exponent >= 0 && exponent <= 20 {
            output.append(contentsOf: digits)
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: exponent))
        } else if exponent < 0 && pointPosition > 0 {
            output.append(contentsOf: digits[0..<pointPosition])
            output.append(UInt8(ascii: "."))
            output.append(contentsOf: digits[pointPosition...])
        } else if exponent < 0 && pointPosition > -6 {
            output.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: ".")])
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -pointPosition))
            output.append(contentsOf: digits)
        } else {
            output.append(digits[0])
            if digits.count > 1 {
                output.append(UInt8(ascii: "."))
                output.append(contentsOf: digits[1...])
            }
            output.append(UInt8(ascii: "e"))
            output.append(contentsOf: String(pointPosition - 1).utf8)
        }
        return true
    }

    /// Is `text` a JSON number literal? (Makes no canonical text: a CSV cell
    /// read again asks this for every cell.)
    package static func isNumberLiteral(_ text: String) -> Bool {
        text.withBytes { isNumberLiteral($0) }
    }

    package static func isNumberLiteral(_ bytes: Span<UInt8>) -> Bool {
        switch literalForm(bytes) {
        case .canonical: true
        case .notANumber: false
        case .unsure: parse(bytes) != nil
        }
    }

    /// Canonical text of a number given as a string; nil when it is not a JSON number literal.
    package static func canonical(_ text: String) -> String? {
        var output: [UInt8] = []
        let ok = text.withBytes { canonicalize($0, into: &output) }
        return ok ? String(decoding: output, as: UTF8.self) : nil
    }

    private struct Parts {
        var negative: Bool
        var integerDigits: Range<Int>
        var fractionDigits: Range<Int>
        /// nil when the written exponent does not fit the normalisation range.
        var exponent: Int?
        var hasFractionOrExponent: Bool

        /// An integer literal such as `42` or `-7000` is already canonical
        /// (it has no leading zeros by the grammar); `-0` and long runs of
        /// trailing zeros are not.
        func isPlainCanonicalInteger(in text: Span<UInt8>) -> Bool {
            guard !hasFractionOrExponent else { return false }
            if integerDigits.count == 1 && text[integerDigits.lowerBound] == UInt8(ascii: "0") { return !negative }
            var trailingZeros = 0
            for i in integerDigits.reversed() {
                guard text[i] == UInt8(ascii: "0") else { break }
                trailingZeros += 1
            }
            return trailingZeros <= 20
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func parse(_ text: Span<UInt8>) -> Parts? {
        let end = text.count
        var i = 0
        var negative = false
        if i < end && text[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        let integerStart = i
        guard i < end, isDigit(text[i]) else { return nil }
        if text[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < end && isDigit(text[i]) { i += 1 }
        }
        let integerDigits = integerStart..<i
        var fractionDigits = i..<i
        var hasFractionOrExponent = false
        if i < end && text[i] == UInt8(ascii: ".") {
            hasFractionOrExponent = true
            i += 1
            let start = i
            while i < end && isDigit(text[i]) { i += 1 }
            guard i > start else { return nil }
            fractionDigits = start..<i
        }
        var exponent: Int? = 0
        if i < end && (text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E")) {
            hasFractionOrExponent = true
            i += 1
            var exponentNegative = false
            if i < end && (text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-")) {
                exponentNegative = text[i] == UInt8(ascii: "-")
                i += 1
            }
            let start = i
            var value = 0
            var tooLarge = false
            while i < end && isDigit(text[i]) {
                if !tooLarge {
                    value = value * 10 + Int(text[i] - UInt8(ascii: "0"))
                    if value > 1_000_000_000_000_000 { tooLarge = true }
                }
                i += 1
            }
            guard i > start else { return nil }
            exponent = tooLarge ? nil : (exponentNegative ? -value : value)
        }
        guard i == end else { return nil }
        return Parts(
            negative: negative, integerDigits: integerDigits, fractionDigits: fractionDigits,
            exponent: exponent, hasFractionOrExponent: hasFractionOrExponent)
    }
}
