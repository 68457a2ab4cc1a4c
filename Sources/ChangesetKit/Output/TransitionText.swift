import Foundation

/// How the formats say a field's transitions (`FieldTransitions`).
enum TransitionText {
    /// Fields listed at most, most changed first.
    static let fieldLimit = 10

    /// A distance as a person reads it: at most 12 significant digits, so
    /// 13.00 - 12.50 is 0.5, not a binary fraction's tail.
    static func number(_ value: Double) -> String {
        String(format: "%.12g", value)
    }

    /// `"Russia" -> "Russian Federation" (1094), ...; numbers changed by 5.5 at most, 1.2 on average (20000 records)`.
    /// `value` writes each value as the format does (markdown: a code span), between `arrow`s.
    static func line(
        _ field: FieldTransitions, width: Int, arrow: String = "->", value: (String) -> String = { $0 }
    ) -> String {
        var parts: [String] = []
        if !field.top.isEmpty {
            parts.append(field.top.map { transition in
                // "at least" only for a count that may have missed some changes, not for every count of a field that overflowed.
                let count = "(\(transition.exact ? "" : "at least ")\(transition.records))"
                if field.elementPattern?.hasSuffix("[]") == true, transition.old == nil || transition.new == nil {
                    // An array element inserted or deleted: `inserted "x" (40)`.
                    let shown = value(ReportValueText.shownValue(transition.old ?? transition.new, width: width))
                    return "\(transition.old == nil ? "inserted" : "deleted") \(shown) \(count)"
                }
                return "\(value(ReportValueText.shownValue(transition.old, width: width))) \(arrow) \(value(ReportValueText.shownValue(transition.new, width: width))) "
                    + count
            }.joined(separator: ", "))
        }
        if let numbers = field.numbers {
            parts.append("numbers changed by \(number(numbers.largest)) at most, \(number(numbers.mean)) on average "
                + "(\(numbers.records) \(numbers.records == 1 ? "record" : "records"))")
        }
        return parts.joined(separator: "; ")
    }

    /// `--show`'s fields as a person reads them: `name: "Mauritania", capital: "Nouakchott"`.
    /// `width`: each value cut to it (0: whole), as the format cuts values.
    static func context(_ change: Change, width: Int) -> String {
        change.context.map { "\(ReportValueText.visible($0.path.description)): \(ReportValueText.shownValue($0.value, width: width))" }
            .joined(separator: ", ")
    }
}
