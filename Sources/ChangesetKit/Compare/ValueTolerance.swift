import Foundation

/// What counts as a change besides exact content: `--tolerance`,
/// `--relative-tolerance` (for all numbers, or per field), `--ignore-case`
/// and `--ignore-whitespace`. Two values equal under these rules are
/// unchanged everywhere: in reports, counts and assertions. The fingerprints
/// stay exact, so without `--id`, where a record's content is its identity,
/// these rules do not make records match. The replay formats (`patch`,
/// `jsonpatch`, `batch`) refuse them: a replay carries every change, and
/// its counts and exit status would leave out the ones these rules hide
/// (see `Comparison.checkReplayCarriesWhatIsCounted`).
///
/// Numbers are compared as decimals (`Foundation.Decimal`, 38 digits), so
/// `|1.005 - 1.000| <= 0.005` holds exactly; a number that a decimal cannot
/// hold exactly (more digits, or an exponent beyond about 127) is compared
/// exactly, without tolerance. Two numbers are equal when
/// `|a - b| <= absolute` or `|a - b| <= relative * max(|a|, |b|)`.
public struct ValueTolerance: Sendable, Equatable {
    /// How far two numbers may be apart and still be equal; nil: no such bound.
    public struct Bounds: Sendable, Equatable {
        /// Equal when `|a - b| <= absolute` (`--tolerance`).
        public var absolute: Decimal?
        /// Equal when `|a - b| <= relative * max(|a|, |b|)` (`--relative-tolerance`).
        public var relative: Decimal?

        /// Bounds of `absolute` and `relative` (nil: none).
        public init(absolute: Decimal? = nil, relative: Decimal? = nil) {
            self.absolute = absolute
            self.relative = relative
        }

        var isEmpty: Bool { absolute == nil && relative == nil }
    }

    /// For every number.
    public var all = Bounds()
    /// For numbers of one field (a path as `--id` writes it); wins over `all`.
    public var fields: [FieldPath: Bounds] = [:]
    /// Strings equal but for letter case (Unicode case folding).
    public var ignoreCase = false
    /// Strings equal but for leading, trailing and repeated white space.
    public var ignoreWhitespace = false

    /// No tolerance: values equal only in content.
    public static let exact = ValueTolerance()

    /// The fields `--tolerance FIELD=X` and `--relative-tolerance FIELD=R`
    /// name, as (option, path), for the check that some record has them.
    package private(set) var notedFields: [NotedField] = []

    /// The rules as the options write them: each of `absolute` and
    /// `relative` a number of 0 or more, for every number, or `FIELD=NUMBER`
    /// for one field (the last of several wins).
    public init(absolute: [String], relative: [String], ignoreCase: Bool = false, ignoreWhitespace: Bool = false) throws {
        self.init(ignoreCase: ignoreCase, ignoreWhitespace: ignoreWhitespace)
        for (setting, texts, isRelative) in [(LibrarySetting.absoluteTolerances, absolute, false), (.relativeTolerances, relative, true)] {
            for text in texts {
                var field: FieldPath?
                var number = Substring(text)
                if let equals = text.lastIndex(of: "=") {
                    field = try FieldPath(parsing: String(text[..<equals]))
                    number = text[text.index(after: equals)...]
                }
                guard CanonicalNumber.isNumberLiteral(String(number)), !number.hasPrefix("-"),
                    let value = Decimal(string: String(number), locale: Locale(identifier: "en_US_POSIX"))
                else {
                    throw OptionError([.text("invalid "), .setting(setting), .text(" \"\(text)\": write a number of 0 or more, or FIELD=NUMBER")])
                }
                var bounds = field.map { fields[$0] ?? Bounds() } ?? all
                if isRelative { bounds.relative = value } else { bounds.absolute = value }
                if let field {
                    fields[field] = bounds
                    notedFields.append(NotedField(setting: isRelative ? .relativeTolerance : .tolerance, path: field))
                } else {
                    all = bounds
                }
            }
        }
    }

    /// The rules as values: `all` for every number, `fields` for the numbers
    /// of those fields, and the string rules.
    public init(all: Bounds = Bounds(), fields: [FieldPath: Bounds] = [:], ignoreCase: Bool = false, ignoreWhitespace: Bool = false) {
        self.all = all
        self.fields = fields
        self.ignoreCase = ignoreCase
        self.ignoreWhitespace = ignoreWhitespace
    }

    /// Whether no rule is set, so values are equal only in content.
    public var isExact: Bool { all.isEmpty && fields.isEmpty && !ignoreCase && !ignoreWhitespace }

    /// Are two values of the field at `path` equal under these rules?
    /// Arrays element by element, objects member by member (missing members
    /// as in `mode`), scalars by the rules above, else by content.
    func equal(_ a: Value, _ b: Value, path: [String], mode: ComparisonMode) -> Bool {
        if a.isEquivalent(to: b, mode: mode) { return true }
        guard !isExact else { return false }
        switch (a, b) {
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1, path: path, mode: mode) }
        case (.object(let x), .object(let y)):
            let xByName = Dictionary(x.map { (ExactTextKey($0.name), $0.value) }, uniquingKeysWith: { first, _ in first })
            let yByName = Dictionary(y.map { (ExactTextKey($0.name), $0.value) }, uniquingKeysWith: { first, _ in first })
            for name in Set(xByName.keys).union(yByName.keys) {
                switch (xByName[name], yByName[name]) {
                case let (p?, q?): if !equal(p, q, path: path + [name.text], mode: mode) { return false }
                case (let present?, nil), (nil, let present?):
                    if !(mode.isText && isEmptyText(present)) { return false }
                case (nil, nil): break
                }
            }
            return true
        default:
            if let x = number(a, mode: mode), let y = number(b, mode: mode) {
                return withinBounds(x, y, path: path)
            }
            if let x = text(a, mode: mode), let y = text(b, mode: mode) {
                return ExactText.same(normalized(x), normalized(y))
            }
            return false
        }
    }

    /// In text comparisons a whitespace-only cell is empty when white space does not count.
    func isEmptyText(_ value: Value) -> Bool {
        if value.isEmptyText { return true }
        if ignoreWhitespace, case .string(let text) = value { return normalized(text).isEmpty }
        return false
    }

    private func bounds(_ path: [String]) -> Bounds {
        fields[FieldPath(path)] ?? fields[FieldPath([path.joined(separator: ".")])] ?? all
    }

    private func withinBounds(_ x: Decimal, _ y: Decimal, path: [String]) -> Bool {
        let bounds = self.bounds(path)
        guard !bounds.isEmpty else { return false }
        let difference = abs(x - y)
        if let absolute = bounds.absolute, difference <= absolute { return true }
        if let relative = bounds.relative, difference <= relative * max(abs(x), abs(y)) { return true }
        return false
    }

    /// A number's exact decimal value (a CSV cell's too, whose text is a number).
    private func number(_ value: Value, mode: ComparisonMode) -> Decimal? {
        let text: String
        switch value {
        case .number(let literal): text = literal
        case .string(let cell) where mode.isText && CanonicalNumber.isNumberLiteral(cell): text = cell
        default: return nil
        }
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN else { return nil }
        // Decimal holds 38 digits and a limited exponent: a number it cannot
        // hold exactly is left to exact comparison (its value read back must be the literal's).
        guard let canonical = CanonicalNumber.canonical(text),
            CanonicalNumber.canonical(decimal.description) == canonical
        else { return nil }
        return decimal
    }

    private func text(_ value: Value, mode: ComparisonMode) -> String? {
        switch value {
        case .string(let text): return text
        case .null where mode.isText: return ""
        default: return nil
        }
    }

    private func normalized(_ text: String) -> String {
        var result = text
        if ignoreWhitespace {
            result = result.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        if ignoreCase { result = result.folding(options: [.caseInsensitive], locale: nil) }
        return result
    }
}
