/// The one contract every report format keeps (the shape of ripgrep's
/// `Sink`): `begin` writes what comes before the changes and says where the
/// ordered writing starts from; `render` turns one change into text, on any
/// core; `write` takes the changes in the report's order and writes each
/// (or counts it as cut); `finish` writes what comes after. Formatters never
/// read a file: a report holds everything they show.
///
/// `write(_:to:)` drives the four steps. A format that shows every change
/// (`showsEveryChange`) has its changes rendered on every core ahead of the
/// writing; one that shows some (a per-kind limit) renders only those it
/// writes, in order.
package protocol ReportFormatter {
    /// What the ordered writing carries from change to change (a count, a
    /// page being filled); `Void` when nothing.
    associatedtype Progress

    /// Whether every change is written (true), or only some (false: then
    /// `render` is called by `write` for the changes it shows).
    var showsEveryChange: Bool { get }

    /// Writes what comes before the changes.
    func begin(_ report: Report, to output: inout some TextOutputStream) -> Progress

    /// One change's text. Runs on several threads at once: it may depend on
    /// the change and the report alone.
    func render(_ change: Change, in report: Report) -> String

    /// Writes one change, in the report's order; `rendered` gives its text.
    func write(_ change: Change, rendered: () -> String, in report: Report, progress: inout Progress, to output: inout some TextOutputStream)

    /// Writes what comes after the changes.
    func finish(_ report: Report, progress: Progress, to output: inout some TextOutputStream)
}

extension ReportFormatter {
    /// The report in this format.
    package func write(_ report: Report, to output: inout some TextOutputStream) throws {
        var progress = begin(report, to: &output)
        if showsEveryChange {
            try report.changes.forEach(rendering: { ($0, render($0, in: report)) }) { change, text in
                write(change, rendered: { text }, in: report, progress: &progress, to: &output)
            }
        } else {
            try report.changes.forEach { change in
                write(change, rendered: { render(change, in: report) }, in: report, progress: &progress, to: &output)
            }
        }
        finish(report, progress: progress, to: &output)
    }
}
