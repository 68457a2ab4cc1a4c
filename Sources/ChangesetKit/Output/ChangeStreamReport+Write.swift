extension ChangeStreamReport {
    /// What `changeset report` writes: the report of the streams at `paths`
    /// (see `ChangeStreamReport`) as `settings` say, byte for byte what the
    /// run that made one stream writes with those settings (and for several,
    /// what `changeset OLD NEW --ignore-order` writes on the whole data).
    /// Every stream is read and checked before anything is written.
    /// Refused: the replay formats, which need the snapshots, and a `--show`
    /// other than the one the streams were made with (`OptionError`).
    /// Returns the counts, and the key hint a format other than text leaves
    /// to its caller to say (nil: none).
    package static func write(
        paths: [String], labels: [String] = [], _ settings: OutputSettings, to output: inout some TextOutputStream, showingNothing: Bool = false
    ) throws -> (summary: Summary, keyHint: String?) {
        guard !settings.format.isReplay else {
            let format = settings.format.rawValue
            throw OptionError([.assignment(.format, library: ".\(format)", argument: format), .text(" replays NEW from OLD and needs the snapshots: make it from them ("),
                               .alternative(library: "Comparison.write", command: "changeset OLD NEW --format \(format)"), .text(")")])
        }
        try settings.check()
        var report = try read(paths: paths, labels: labels)
        // The values `--show` put in the streams are shown when asked for as the streams were made, as in
        // the run that made them; any other field is in the snapshots only.
        let requested = settings.show.map(\.description)
        guard requested.isEmpty || requested == report.stream.show else {
            let made = report.stream.show.isEmpty ? [MessagePart.text("the streams hold no shown values")]
                : [.text("the streams hold the values of "), .assignment(.context, library: "\(report.stream.show)", argument: report.stream.show.joined(separator: ",")),
                   .text(" only")]
            throw OptionError([.setting(.context), .text(" reads values from the snapshots' records, and ")] + made
                              + [.text(": make the report from the snapshots ("), .alternative(library: "Comparison.write", command: "changeset OLD NEW --show FIELD"),
                                 .text(")")])
        }
        let hint = report.keyHint
        if !settings.reportCarriesKeyHint { report.keyHint = nil }
        let showsValues = !requested.isEmpty
        if !showsValues { report.stream.show = [] }
        let chosen = settings.countsOnly ? nil : settings.kinds
        let kept = try report.changes.collect().filter { change in chosen?.contains(change.kind) ?? true }.map { change in
            var change = change
            if !showsValues { change.context = [] }
            return change
        }
        report.changes = ChangeStream(kept)
        report.kindsShown = chosen.map { chosen in Change.Kind.allCases.filter(chosen.contains) }
        if !showingNothing { try Comparison.write(report, settings, to: &output) }
        return (report.summary, settings.reportCarriesKeyHint ? nil : hint?.message)
    }
}
