extension Comparison {
    /// An updated record's changes, compared field by field.
    /// (The update by its place in `changeset.updates`, not a copy: 16
    /// bytes an update, not 56, at millions of updates.)
    struct ResolvedUpdate: Sendable {
        var index: Int32
        var fields: [FieldChange]
    }

    /// Resolves the comparison for the report formats. Every record the
    /// engine saw change (its fingerprint differs) is read again and compared
    /// field by field, on all cores, before anything is printed: a record
    /// whose differences all vanish under the comparison's rules is unchanged
    /// in every count and report. Deleted and inserted records (and moved
    /// ones matched by content) are read again as the stream reaches them,
    /// so memory holds the field changes of updated records, not the records.
    ///
    /// `kinds`: the kinds of change the report's stream holds (`--kinds`;
    /// nil: all); the others are never read again. The counts are whole.
    ///
    /// `context`: fields whose values each change carries beside its id
    /// (`--show`; a one-name path may be a glob pattern, matched against the
    /// top-level names).
    ///
    /// `recordsPerKind`: records read again at most, per kind (what a
    /// report that shows that many of each needs); the changes past it come
    /// without their record and context. Nil: every one.
    public func report(showing kinds: [Change.Kind]? = nil, context: [FieldPath] = [], recordsPerKind: Int? = nil) throws -> Report {
        try report(showing: kinds, shown: try FieldCheck.shownFields(context, options: options.records, old: old, new: new),
                   recordsPerKind: recordsPerKind)
    }

    /// `report(showing:context:recordsPerKind:)` with the `--show` fields already checked.
    func report(showing kinds: [Change.Kind]?, shown context: [ShownField], recordsPerKind: Int?) throws -> Report {
        // Past `--memory-limit` the re-key note comes first, alone: what it
        // holds while it reads records again (about 40 bytes a deleted or
        // inserted record) is freed before the updates' field changes are
        // held, and does not add to them at the peak (1327 MB -> 1221 MB at
        // 100M CSV records under a limit of 1G). A file changed meanwhile is
        // then found by the note's reading, before the updates'.
        let rekeyedFirst = isPartitioned ? try rekeyedRecords() : nil
        let (resolved, keyedArrays, firstUpdates) = try resolveUpdates()
        var schema = self.schema
        schema.suggestedRenames = try suggestedRenames()
        var summary: Summary
        let rekeyed: (count: Int, examples: [RekeyedRecord])
        if let rekeyedFirst {
            summary = self.summary(resolved)
            rekeyed = rekeyedFirst
        } else {
            // The counts (one pass over the updates' field changes, in order)
            // and the re-key note (records read again on every core) at once:
            // the counts alone kept one core busy and the other idle, about 23
            // ms of a 0.45 s run on a million CSV records.
            let comparison = self
            let parts = try OrderedConcurrentMap.mapOnNewThreads([false, true]) { rekeyed -> SummaryPart in
                rekeyed ? .rekeyed(try comparison.rekeyedRecords()) : .counts(comparison.summary(resolved))
            }
            guard case .counts(let counted) = parts[0], case .rekeyed(let found) = parts[1] else {
                preconditionFailure("the parts come back in order")
            }
            (summary, rekeyed) = (counted, found)
        }
        summary.keyedArrays = keyedArrays
        (summary.rekeyed, summary.rekeyedExamples) = rekeyed
        var report = Report(
            old: old.summary, new: new.summary, id: options.records.id, section: options.records.section,
            summary: summary, schema: schema,
            changes: changeStream(resolved, kinds: kinds.map(Set.init), context: context, recordsPerKind: recordsPerKind ?? Int.max),
            kindsShown: kinds.map { chosen in Change.Kind.allCases.filter(chosen.contains) }, layout: fileLayout)
        report.stream = streamFacts(keyedArrayFirstUpdates: firstUpdates)
        report.stream.show = context.map(\.path.description)
        return report
    }

    /// The counts alone (no per-field counts), for a run that prints no
    /// report (`--quiet`, the replay formats): records are read again only
    /// when a tolerance, a field only one schema has, or JSON read flat
    /// against CSV can make an update vanish; otherwise the fingerprints
    /// already tell (see `FieldRules`).
    public func counts() throws -> Summary {
        // A nested JSON record and its flat CSV twin fingerprint differently, so mixed inputs are resolved too.
        let fingerprintsTell = options.tolerance.isExact && schema.isEmpty && !old.flattensObjects && !new.flattensObjects
        let updates = fingerprintsTell ? changeset.updates.indices.map { ResolvedUpdate(index: Int32($0), fields: []) } : try resolveUpdates().updates
        var counts = summary(updates)
        counts.fieldCounts = []
        counts.transitions = []
        counts.typeOnlyFields = []
        if !fingerprintsTell {
            // Records were read again: from the files as they were compared?
            try old.input.bytes.checkUnchanged()
            try new.input.bytes.checkUnchanged()
        }
        return counts
    }

    /// Every update the engine saw, compared field by field on all cores;
    /// those with no field change left are dropped. Also the arrays whose
    /// elements were matched by a key, in the order first met, with the
    /// number of updated records each was so in, and for each the number of
    /// the update (among those kept) it was first met in.
    private func resolveUpdates() throws -> (updates: [ResolvedUpdate], keyedArrays: [KeyedArray], firstUpdates: [Int]) {
        let updates = changeset.updates
        let compared = try OrderedConcurrentMap.map(updates, keyedFieldChanges)
        var keyedArrays: [KeyedArray] = []
        var slotOfArray: [KeyedArray: Int] = [:]
        var firstUpdates: [Int] = []
        var kept = 0
        for (fields, keyed) in compared where !fields.isEmpty {
            for array in keyed {
                let entry = KeyedArray(array: array.array, key: array.key, records: 0)
                if let slot = slotOfArray[entry] {
                    keyedArrays[slot].records += 1
                } else {
                    slotOfArray[entry] = keyedArrays.count
                    keyedArrays.append(KeyedArray(array: array.array, key: array.key, records: 1))
                    firstUpdates.append(kept)
                }
            }
            kept += 1
        }
        let resolved = compared.enumerated().compactMap { index, compared in
            compared.changes.isEmpty ? nil : ResolvedUpdate(index: Int32(index), fields: compared.changes)
        }
        return (resolved, keyedArrays, firstUpdates)
    }

    /// What `report` works out at once.
    private enum SummaryPart: Sendable {
        case counts(Summary)
        case rekeyed((count: Int, examples: [RekeyedRecord]))
    }

    private func summary(_ resolved: [ResolvedUpdate]) -> Summary {
        var summary = Summary()
        let moves = reportedMoves
        summary.inserted = changeset.insertions.count
        summary.deleted = changeset.deletions.count
        summary.updated = resolved.count
        summary.moved = moves.count
        summary.unchanged = changeset.unchangedCount + changeset.updates.count - resolved.count
        summary.sectionsInserted = changeset.insertedSections.count
        summary.sectionsDeleted = changeset.deletedSections.count
        summary.sectionsMoved = reportedSectionMoves.count
        summary.schema = schema.count
        summary.oldCount = changeset.oldCount
        summary.newCount = changeset.newCount
        let movedAndUpdated = Set(moves.map(\.from)).intersection(resolved.map { changeset.updates[Int($0.index)].old }).count
        summary.changed = summary.inserted + summary.deleted + summary.updated + summary.moved - movedAndUpdated
        summary.countFields(of: resolved.map(\.fields), mode: options.records.mode)
        return summary
    }

    /// The changes in order, a batch at a time; the records a batch shows
    /// are read again on every core before it is handed over.
    /// A `--show` field: as the user named it, and where to find it in a
    /// record of OLD and in one of NEW (shown under NEW's names: a renamed
    /// field is found by either name).
    struct ShownField: Sendable {
        var path: FieldPath
        var inOld: FieldPath
        var inNew: FieldPath

        /// The field's value in `record`: by its path, or by its flat name
        /// (a CSV column `addr.city` read against nested JSON).
        func value(in record: Value?, new: Bool) -> Value? {
            let path = new ? inNew : inOld
            return record?.member(at: path.components) ?? (path.components.count > 1 ? record?.member(at: [path.flatName]) : nil)
        }
    }

    private func changeStream(_ resolved: [ResolvedUpdate], kinds: Set<Change.Kind>?, context: [ShownField], recordsPerKind: Int) -> ChangeStream {
        let comparison = self
        @Sendable func shows(_ kind: Change.Kind) -> Bool { kinds?.contains(kind) ?? true }
        return ChangeStream(batches: { body in
            let changeset = comparison.changeset
            let oldSections = comparison.oldSections
            var sectionChanges: [Change] = []
            for index in changeset.deletedSections where shows(.sectionDeleted) {
                sectionChanges.append(Change(kind: .sectionDeleted, section: oldSections[index].id.text, old: RecordPlace(index: index)))
            }
            for inserted in changeset.insertedSections where shows(.sectionInserted) {
                sectionChanges.append(Change(kind: .sectionInserted, section: inserted.id.text, new: RecordPlace(index: inserted.index)))
            }
            for move in comparison.reportedSectionMoves where shows(.sectionMoved) {
                sectionChanges.append(Change(kind: .sectionMoved, section: oldSections[move.from].id.text,
                                             old: RecordPlace(index: move.from), new: RecordPlace(index: move.to)))
            }
            try OrderedConcurrentMap.forEachBatch(sectionChanges) { try body(ChangeBatch(made: $0)) }
            let old = comparison.old
            let new = comparison.new
            // Each kind's changes numbered, so those past `recordsPerKind` are not read again.
            func numbered<Item>(_ items: [Item], _ body: ([(position: Int, item: Item)]) throws -> Void) throws {
                var offset = 0
                try OrderedConcurrentMap.forEachBatch(items) { batch in
                    let start = offset
                    offset += batch.count
                    try body(batch.enumerated().map { (start + $0.offset, $0.element) })
                }
            }
            try numbered(shows(.deleted) ? changeset.deletions : []) { batch in
                try body(ChangeBatch(count: batch.count) { index in
                    let (position, deletion) = batch[index]
                    let ref = comparison.ref(deletion.at, .old)
                    guard position < recordsPerKind else {
                        return Change(kind: .deleted, id: comparison.id(ref, old), old: comparison.place(deletion.at, .old))
                    }
                    guard context.isEmpty else {
                        let record = try old.value(ofRecord: ref.row)
                        return Change(kind: .deleted, id: comparison.id(ref, old), old: comparison.place(deletion.at, .old),
                                      record: record, context: shown(record, new: false))
                    }
                    return Change(kind: .deleted, id: comparison.id(ref, old), old: comparison.place(deletion.at, .old),
                                  recordJSON: try recordJSON(old, ref.row))
                })
            }
            // A record shown whole and nothing read from it (no `--show`): its
            // JSON text made from its bytes, no `Value` built for it.
            @Sendable func recordJSON(_ side: Snapshot, _ row: Int) throws -> [UInt8] {
                var json: [UInt8] = []
                try side.appendRecordJSON(ofRecord: row, to: &json)
                return json
            }
            // NEW's records are read under OLD's names (the renames make them comparable):
            // shown whole, they take NEW's names back, the names NEW's file has.
            let renames = comparison.schema.renamed
            @Sendable func newRecord(_ row: Int) throws -> Value {
                renames.reduce(try new.value(ofRecord: row)) { $0.renamingMember(at: $1.old.components, to: $1.new.components.last!) }
            }
            // `--show`: the fields' values in a record (read under NEW's names for a record of NEW).
            @Sendable func shown(_ record: Value?, new isNew: Bool = true) -> [(path: FieldPath, value: Value?)] {
                context.map { ($0.path, $0.value(in: record, new: isNew)) }
            }
            try numbered(shows(.inserted) ? changeset.insertions : []) { batch in
                try body(ChangeBatch(count: batch.count) { index in
                    let (position, insertion) = batch[index]
                    guard position < recordsPerKind else {
                        return Change(kind: .inserted, id: comparison.id(insertion.element, new), new: comparison.place(insertion.at, .new))
                    }
                    guard !context.isEmpty || !renames.isEmpty else {
                        return Change(kind: .inserted, id: comparison.id(insertion.element, new), new: comparison.place(insertion.at, .new),
                                      recordJSON: try recordJSON(new, insertion.element.row))
                    }
                    let record = try newRecord(insertion.element.row)
                    return Change(kind: .inserted, id: comparison.id(insertion.element, new), new: comparison.place(insertion.at, .new),
                                  record: record, context: shown(record))
                })
            }
            // Without an id, a moved record is shown by its content.
            let byContent = new.records.keys.isEmpty
            try numbered(shows(.moved) ? comparison.reportedMoves : []) { batch in
                try body(ChangeBatch(count: batch.count) { index in
                    let (position, move) = batch[index]
                    if byContent && context.isEmpty && renames.isEmpty && position < recordsPerKind {
                        return Change(kind: .moved, id: comparison.id(move.element, new), old: comparison.place(move.from, .old),
                                      new: comparison.place(move.to, .new),
                                      recordJSON: try recordJSON(new, move.element.row))
                    }
                    let record = position < recordsPerKind && (byContent || !context.isEmpty) ? try newRecord(move.element.row) : nil
                    return Change(kind: .moved, id: comparison.id(move.element, new), old: comparison.place(move.from, .old),
                                  new: comparison.place(move.to, .new), record: byContent ? record : nil, context: shown(record))
                })
            }
            let updates = changeset.updates
            try numbered(shows(.updated) ? resolved : []) { batch in
                try body(ChangeBatch(count: batch.count) { index in
                    let (position, resolved) = batch[index]
                    let update = updates[Int(resolved.index)]
                    // Updated records are read again only for `--show` (their field changes are at hand).
                    let record = !context.isEmpty && position < recordsPerKind ? try newRecord(update.element.row) : nil
                    return Change(kind: .updated, id: comparison.id(update.element, new),
                                  old: comparison.place(update.old, .old), new: comparison.place(update.new, .new),
                                  fields: resolved.fields, context: shown(record))
                })
            }
            // Everything shown was read again by now: from the files as they were compared?
            try comparison.old.input.bytes.checkUnchanged()
            try comparison.new.input.bytes.checkUnchanged()
        })
    }

    enum Side { case old, new }

    /// A record's place on one side: section, index and file line.
    func place(_ path: ItemPath, _ side: Side) -> RecordPlace {
        // Each side's own properties, read in place: a copy of a side's
        // sections and dataset (`side == .old ? old : new`) retained and
        // released a dozen shared objects a call, and the report's threads
        // took turns at their reference counts.
        let ref = ref(path, side)
        switch side {
        case .old: return Self.place(path, ref, in: oldSections, records: old.records, sectioned: options.records.section != nil)
        case .new: return Self.place(path, ref, in: newSections, records: new.records, sectioned: options.records.section != nil)
        }
    }

    private static func place(
        _ path: ItemPath, _ ref: RecordRef, in sections: [ListSection<SectionName, RecordRef>], records: RecordTable, sectioned: Bool
    ) -> RecordPlace {
        RecordPlace(section: sectioned ? sections[path.section].id.text : nil, index: path.item, line: records.line(ref.row))
    }

    /// A record's id parts, or nil when records are matched by content.
    func id(_ ref: RecordRef, _ dataset: Snapshot) -> [String]? {
        dataset.records.keys.isEmpty ? nil : RecordKey.parts(dataset.records.keys[ref.row])
    }
}
