/// A report rebuilt from change streams (`changeset report STREAM...`):
/// from one stream, the report of the run that wrote it; from several
/// (parts of one comparison, each made with `--ignore-order`), the report
/// of `changeset OLD NEW --ignore-order` on the whole data, when the
/// parts' positions are the whole data's.
///
/// Several streams are put in that run's order by their positions: the
/// engine lists deletions by OLD position, insertions by NEW position and
/// updates by OLD position (`Differ`), and with `--ignore-order` there are
/// no moves. The per-field counts and notes are counted again from the
/// change lines in that order by the code the comparison uses
/// (`Summary.countFields`, `Comparison.rekeyCandidates`); the counts are
/// summed. What the streams cannot tell exactly is refused, never summed
/// into a wrong figure: streams made without `--ignore-order`, with
/// `--section` or without `--id`, under other rules, of other files, with
/// other schema changes or file layouts, with suggested renames, the same
/// stream twice, and parts that share a record id.
///
/// Memory: every change of every stream is held, to put them in order.
package enum ChangeStreamReport {
    /// The report the streams at `paths` make (`-`: standard input), OLD
    /// and NEW named by `labels` when given (as `-L` names them).
    package static func read(paths: [String], labels: [String] = []) throws -> Report {
        try report(paths.map { try ChangeStreamReader(path: $0) }, labels: labels)
    }

    /// The report of streams already read (see the type).
    package static func report(_ streams: [ChangeStreamReader], labels: [String] = []) throws -> Report {
        precondition(!streams.isEmpty, "a report needs a stream")
        for stream in streams where stream.kinds != nil {
            throw refusal(stream, line: 1, [.text("made with "), .setting(.kinds), .text(", it leaves changes out, and a report needs them all: make the stream without "),
                                             .setting(.kinds), .text(" and give it to the report")])
        }
        let first = streams[0]
        var report: Report
        if streams.count == 1 {
            var summary = first.counts
            summary.countFields(of: first.changes.filter { $0.kind == .updated }.map(\.fields), mode: first.facts.mode)
            summary.keyedArrays = first.keyedArrays.map(\.array)
            report = Report(old: first.old, new: first.new, id: first.id, section: first.section, summary: summary, schema: first.schema,
                            changes: ChangeStream(first.changes), layout: first.layout)
            report.stream = first.facts
            report.stream.keyedArrayFirstUpdates = first.keyedArrays.map(\.firstUpdate)
        } else {
            report = try combined(streams, labels: labels)
        }
        if let old = labels.first { report.old.name = old }
        if labels.count > 1 { report.new.name = labels[1] }
        report.keyHint = report.stream.keyHint
        return report
    }

    private static func refusal(_ stream: ChangeStreamReader, line: Int, _ message: String) -> InputError {
        InputError(source: stream.name, location: InputLocation(line: line, column: 1), message: message)
    }

    private static func refusal(_ stream: ChangeStreamReader, line: Int, _ parts: [MessagePart]) -> InputError {
        InputError(source: stream.name, location: InputLocation(line: line, column: 1), parts: parts)
    }

    private static func combined(_ streams: [ChangeStreamReader], labels: [String]) throws -> Report {
        let first = streams[0]
        var seen: [(old: UInt64, new: UInt64, name: String)] = []
        for stream in streams {
            guard stream.facts.options.contains("\"ignoreOrder\":true") else {
                throw refusal(stream, line: 1, [.text("made without "), .setting(.ignoreOrder),
                                                 .text(": several streams are combined only when each was made with it (a move has no meaning across parts)")])
            }
            guard !stream.id.isEmpty else {
                throw refusal(stream, line: 1, [.text("made without "), .setting(.id),
                                                 .text(": several streams are combined only by record id (parts must not share a record)")])
            }
            guard stream.section == nil else {
                throw refusal(stream, line: 1, [.text("made with "), .setting(.section), .text(": a section may be in several parts, so its changes cannot be combined")])
            }
            guard stream.facts.options == first.facts.options, stream.id == first.id else {
                throw refusal(stream, line: 1, "made under other rules than \(first.name) (the header's id or options differ)")
            }
            if labels.count < 2 && (stream.old.name != first.old.name || stream.new.name != first.new.name) {
                throw refusal(stream, line: 1, "compares \(stream.old.name) with \(stream.new.name), and \(first.name) compares "
                    + "\(first.old.name) with \(first.new.name): name the files with the report's labels")
            }
            guard stream.old.format == first.old.format, stream.new.format == first.new.format else {
                throw refusal(stream, line: 1, "its inputs' formats differ from \(first.name)'s")
            }
            guard stream.schemaShape == first.schemaShape, stream.layoutLine == first.layoutLine else {
                throw refusal(stream, line: 2, "its schema changes or file layout differ from \(first.name)'s: whether a field was added "
                    + "depends on the records of every part, so they cannot be combined")
            }
            guard stream.schema.suggestedRenames.isEmpty else {
                throw refusal(stream, line: 2, "it suggests a rename, found from its records' values, which cannot be combined across parts")
            }
            // Empty parts all sum to zero, and one more adds nothing: only parts with records are told apart.
            if let sums = stream.facts.fingerprints, stream.old.records + stream.new.records > 0 {
                if let earlier = seen.first(where: { $0.old == sums.old && $0.new == sums.new }) {
                    throw refusal(stream, line: 1, "the same stream as \(earlier.name) (their records' fingerprints are the same): each part once")
                }
                seen.append((sums.old, sums.new, stream.name))
            }
        }
        // Parts must not share a record: a record id in two streams. Nor a place: parts whose positions are
        // their own files' (not rewritten to the whole data's) would be put in a wrong order without a word.
        var owner: [[String]: (stream: Int, line: Int)] = [:]
        var placeOwner: [[Int]: (stream: Int, line: Int)] = [:]
        for (number, stream) in streams.enumerated() {
            for (change, line) in zip(stream.changes, stream.changeLines) {
                if let id = change.id {
                    if let earlier = owner[id], earlier.stream != number {
                        throw refusal(stream, line: line, "record id \(Summary.idText(id)) is in \(streams[earlier.stream].name):\(earlier.line) too: "
                            + "the parts overlap")
                    }
                    owner[id] = (number, line)
                }
                for (side, place) in [(0, change.old), (1, change.new)] {
                    guard let index = place?.index else { continue }
                    if let earlier = placeOwner[[side, index]], earlier.stream != number {
                        throw refusal(stream, line: line, "\(side == 0 ? "OLD" : "NEW")'s record at index \(index) is in "
                            + "\(streams[earlier.stream].name):\(earlier.line) too: the parts' positions are their own files', "
                            + "not the whole data's (rewrite them as the Spark job of examples/spark does)")
                    }
                    placeOwner[[side, index]] = (number, line)
                }
            }
        }
        // The single run's order: deleted by OLD position, inserted by NEW position, updated by OLD position.
        var tagged: [(change: Change, stream: Int, update: Int)] = []
        for (number, stream) in streams.enumerated() {
            var updates = 0
            for change in stream.changes {
                tagged.append((change, number, change.kind == .updated ? updates : -1))
                if change.kind == .updated { updates += 1 }
            }
        }
        func rank(_ kind: Change.Kind) -> Int { kind == .deleted ? 0 : kind == .inserted ? 1 : 2 }
        func position(_ change: Change) -> Int { (change.kind == .inserted ? change.new?.index : change.old?.index) ?? 0 }
        tagged.sort { a, b in
            rank(a.change.kind) != rank(b.change.kind) ? rank(a.change.kind) < rank(b.change.kind) : position(a.change) < position(b.change)
        }
        let changes = tagged.map(\.change)
        var summary = Summary()
        for stream in streams {
            let counts = stream.counts
            summary.inserted += counts.inserted
            summary.deleted += counts.deleted
            summary.updated += counts.updated
            summary.changed += counts.changed
            summary.unchanged += counts.unchanged
            summary.oldCount += counts.oldCount
            summary.newCount += counts.newCount
        }
        var schema = first.schema
        for stream in streams.dropFirst() {
            for index in schema.added.indices { schema.added[index].records += stream.schema.added[index].records }
            for index in schema.removed.indices { schema.removed[index].records += stream.schema.removed[index].records }
            for index in schema.ignoredAdded.indices { schema.ignoredAdded[index].records += stream.schema.ignoredAdded[index].records }
            for index in schema.ignoredRemoved.indices { schema.ignoredRemoved[index].records += stream.schema.ignoredRemoved[index].records }
        }
        summary.schema = schema.count
        let updates = tagged.filter { $0.change.kind == .updated }
        summary.countFields(of: updates.map(\.change.fields), mode: first.facts.mode)
        // Keyed arrays: records summed, in the order first met in the combined updates.
        var updateOrder: [[Int]: Int] = [:]
        for (order, update) in updates.enumerated() { updateOrder[[update.stream, update.update]] = order }
        var keyed: [(array: KeyedArray, first: Int)] = []
        for (number, stream) in streams.enumerated() {
            for (array, firstUpdate) in stream.keyedArrays {
                let first = updateOrder[[number, firstUpdate]] ?? Int.max
                if let slot = keyed.firstIndex(where: { $0.array.array == array.array && $0.array.key == array.key }) {
                    keyed[slot].array.records += array.records
                    keyed[slot].first = min(keyed[slot].first, first)
                } else {
                    keyed.append((array, first))
                }
            }
        }
        keyed.sort { $0.first < $1.first }
        summary.keyedArrays = keyed.map(\.array)
        (summary.rekeyed, summary.rekeyedExamples) = rekeyed(changes, streams: streams)
        var old = first.old, new = first.new
        old.records = streams.reduce(0) { $0 + $1.old.records }
        new.records = streams.reduce(0) { $0 + $1.new.records }
        var report = Report(old: old, new: new, id: first.id, section: nil, summary: summary, schema: schema, changes: ChangeStream(changes),
                            layout: first.layout)
        report.stream = first.facts
        report.stream.keyless = Array(Set(streams.flatMap(\.facts.keyless))).sorted()
        report.stream.keyedArrayFirstUpdates = keyed.map(\.first)
        if streams.allSatisfy({ $0.facts.fingerprints != nil }) {
            report.stream.fingerprints = streams.reduce((old: UInt64(0), new: UInt64(0))) { sum, stream in
                (sum.old &+ stream.facts.fingerprints!.old, sum.new &+ stream.facts.fingerprints!.new)
            }
        }
        return report
    }

    /// The re-keyed note over the combined deletions and insertions, as
    /// `Comparison.rekeyedRecords` finds it: records less the names the
    /// headers' `keyless` list and the nested id paths, unique contents paired.
    private static func rekeyed(_ changes: [Change], streams: [ChangeStreamReader]) -> (count: Int, examples: [RekeyedRecord]) {
        let first = streams[0]
        let deleted = changes.filter { $0.kind == .deleted }, inserted = changes.filter { $0.kind == .inserted }
        guard !first.id.isEmpty, !deleted.isEmpty, !inserted.isEmpty, deleted.count <= Comparison.rekeyLimit, inserted.count <= Comparison.rekeyLimit
        else { return (0, []) }
        let keyless = KeylessRecord(droppedNames: Set(streams.flatMap(\.facts.keyless).map(ExactTextKey.init)),
                                    nestedPaths: first.id.map(\.components).filter { $0.count > 1 })
        let mode = first.facts.mode
        let oldRecords = deleted.map(\.record), newRecords = inserted.map(\.record)
        let candidates = Comparison.rekeyCandidates(
            oldHashes: oldRecords.map { $0.flatMap { keyless.hash(of: $0, mode: mode) } }, oldSections: deleted.map { _ in nil },
            newHashes: newRecords.map { $0.flatMap { keyless.hash(of: $0, mode: mode) } }, newSections: inserted.map { _ in nil })
        let paired = candidates.filter { pair in
            guard let before = oldRecords[pair.deleted].flatMap(keyless.strip), let after = newRecords[pair.inserted].flatMap(keyless.strip) else { return false }
            return before.isEquivalent(to: after, mode: mode)
        }
        let examples = paired.prefix(Comparison.rekeyExamples).map { RekeyedRecord(old: deleted[$0.deleted].id ?? [], new: inserted[$0.inserted].id ?? []) }
        return (paired.count, examples)
    }
}
