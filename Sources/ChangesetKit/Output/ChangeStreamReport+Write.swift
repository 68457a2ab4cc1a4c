extension ChangeStreamReport {
    /// What `changeset report` writes: the report of the streams at `paths`
    /// (see `ChangeStreamReport`) as `settings` say, byte for byte what the
    /// run that made one stream writes with those settings (and for several,
    /// what `changeset OLD NEW --ignore-order` writes on the whole data).
    /// Every stream is read and checked before anything is written.
    /// Refused: the replay formats and `--show`, which need the snapshots
    /// (`OptionError`). Returns the counts, and the key hint a format other
    /// than text leaves to its caller to say (nil: none).
    package static func write(
        paths: [String], labels: [String] = [], _ settings: OutputSettings, to output: inout some TextOutputStream, showingNothing: Bool = false
    ) throws -> (summary: Summary, keyHint: String?) {
        guard !settings.format.isReplay else {
            let format = settings.format.rawValue
            throw OptionError([.assignment(.format, library: ".\(format)", argument: format), .text(" replays NEW from OLD and needs the snapshots: make it from them ("),
                               .alternative(library: "Comparison.write", command: "changeset OLD NEW --format \(format)"), .text(")")])
        }
        guard settings.show.isEmpty else {
            throw OptionError([.setting(.context), .text(" reads values from the snapshots' records: make the report from them ("),
                               .alternative(library: "Comparison.write", command: "changeset OLD NEW --show FIELD"), .text(")")])
        }
        try settings.check()
        var report = try read(paths: paths, labels: labels)
        let hint = report.keyHint
        if !settings.reportCarriesKeyHint { report.keyHint = nil }
        // Values `--show` added to a stream are not shown unless asked for, as in a run without it.
        report.stream.show = []
        let chosen = settings.countsOnly ? nil : settings.kinds
        let kept = try report.changes.collect().filter { change in chosen?.contains(change.kind) ?? true }.map { change in
            var change = change
            change.context = []
            return change
        }
        report.changes = ChangeStream(kept)
        report.kindsShown = chosen.map { chosen in Change.Kind.allCases.filter(chosen.contains) }
        if !showingNothing { try Comparison.write(report, settings, to: &output) }
        return (report.summary, settings.reportCarriesKeyHint ? nil : hint?.message)
    }
}
