import Foundation

/// A CI assertion, `--assert 'deleted == 0'` or `--assert 'updated <= 5%'`:
/// a kind of change, a comparison and a count, or a share of the old
/// record count when the number ends in `%`.
public struct Assertion: Equatable, Sendable, CustomStringConvertible {
    /// What an assertion counts: records inserted, deleted, updated, moved,
    /// changed (any of those) or unchanged, or schema fields.
    public enum Kind: String, CaseIterable, Sendable {
        case inserted, deleted, updated, moved, changed, unchanged
        /// Fields added to or removed from the schema.
        case schema
    }

    /// How the count is compared with the number: `==`, `!=`, `<=`, `>=`, `<` or `>`.
    public enum Comparison: String, CaseIterable, Sendable {
        case equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">=", less = "<", greater = ">"
    }

    /// What is counted.
    public var kind: Kind
    /// How the count compares with `number`.
    public var comparison: Comparison
    /// The number compared with: a count, or a percentage of the old records.
    public var number: Double
    /// Whether `number` is a share of the old record count, in percent.
    public var isPercentage: Bool
    /// The expression as the user wrote it.
    public var text: String

    /// An expression that is not `KIND OP NUMBER` or `KIND OP NUMBER%`.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// The expression as given.
        public var text: String
        /// What is wrong with it, and how to write one.
        public var reason: String

        /// `invalid assertion "TEXT": reason`.
        public var description: String { description(naming: \.description, asArguments: false) }
    }

    /// Reads `deleted == 0`, `updated <= 5%` and the like.
    ///
    /// - Throws: `ParseError` naming what is wrong.
    public init(parsing text: String) throws {
        self.text = text
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func fail(_ why: String) -> ParseError {
            ParseError(text: text, reason: "\(why); write KIND OP NUMBER or KIND OP NUMBER%, "
                + "KIND one of inserted, deleted, updated, moved, changed, unchanged, schema and OP one of == != < <= > >=")
        }
        guard let kindEnd = trimmed.firstIndex(where: { !$0.isLetter }) else { throw fail("no comparison") }
        guard let kind = Kind(rawValue: String(trimmed[..<kindEnd])) else {
            throw fail("unknown kind \"\(trimmed[..<kindEnd])\"")
        }
        var rest = trimmed[kindEnd...].drop { $0 == " " }
        guard let comparison = Comparison.allCases.first(where: { rest.hasPrefix($0.rawValue) }) else {
            throw fail("no comparison operator")
        }
        rest = rest.dropFirst(comparison.rawValue.count).drop { $0 == " " }
        var numberText = String(rest)
        let isPercentage = numberText.hasSuffix("%")
        if isPercentage { numberText.removeLast() }
        guard !numberText.isEmpty, numberText.allSatisfy({ $0.isNumber || $0 == "." }),
            let number = Double(numberText), number >= 0
        else { throw fail("\"\(rest)\" is not a number") }
        if kind == .schema && isPercentage { throw fail("schema counts fields, not records, so it takes no %") }
        self.kind = kind
        self.comparison = comparison
        self.number = number
        self.isPercentage = isPercentage
    }

    /// The expression as the user wrote it.
    public var description: String { text }

    /// The count this assertion looks at.
    public func actualCount(_ summary: Summary) -> Int {
        switch kind {
        case .inserted: summary.inserted
        case .deleted: summary.deleted
        case .updated: summary.updated
        case .moved: summary.moved
        case .changed: summary.changed
        case .unchanged: summary.unchanged
        case .schema: summary.schema
        }
    }

    /// The value compared: the count, or its share of the old records in percent.
    public func actualValue(_ summary: Summary) -> Double {
        let count = Double(actualCount(summary))
        guard isPercentage else { return count }
        guard summary.oldCount > 0 else { return count == 0 ? 0 : .infinity }
        return count * 100 / Double(summary.oldCount)
    }

    /// Whether the comparison's `summary` satisfies this assertion.
    public func holds(for summary: Summary) -> Bool {
        let actual = actualValue(summary)
        switch comparison {
        case .equal: return actual == number
        case .notEqual: return actual != number
        case .less: return actual < number
        case .lessOrEqual: return actual <= number
        case .greater: return actual > number
        case .greaterOrEqual: return actual >= number
        }
    }

    /// What was measured, for the failure message: `3` or `3 of 100 records, 3%`.
    public func actualDescription(_ summary: Summary) -> String {
        let count = actualCount(summary)
        guard isPercentage else { return "\(count)" }
        let share = actualValue(summary)
        let shown = share.isFinite ? (share * 100).rounded() / 100 : share
        return "\(count) of \(summary.oldCount) records, \(shown.formatted())%"
    }
}

extension Double {
    /// Without a trailing `.0` for whole numbers.
    func formatted() -> String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}

extension Assertion.ParseError: SettingNamingError {
    package func description(naming name: (LibrarySetting) -> String, asArguments: Bool) -> String {
        "invalid \(name(.assertion)) \"\(text)\": \(reason)"
    }
}
