extension Comparison {
    /// An updated record's changes, compared field by field.
    struct ResolvedUpdate: Sendable {
        var update: Changeset<SectionName, RecordRef>.Update
        var fields: [FieldChange]
    }

    /// Resolves the comparison for the report formats. Every record the
    /// engine saw change (its fingerprint differs) is read again and compared
    /// field by field, on all cores, before anything is printed: a record
    /// whose differences all vanish under the comparison's rules is unchanged
    /// in every count and report. Deleted and inserted records (and moved
    /// ones matched by content) are read again as the stream reaches them,
    /// so memory holds the field changes of updated records, not the records.
    public func report() throws -> Report {
        let resolved = try resolveUpdates()
        return Report(
            old: old.summary, new: new.summary, id: options.records.id, section: options.records.section,
            summary: summary(resolved), schema: schema, changes: changeStream(resolved))
    }

    /// The counts alone (no per-field counts), for a run that prints no
    /// report (`--quiet`, the replay formats): records are read again only
    /// when a tolerance, a field only one schema has, or JSON read flat
    /// against CSV can make an update vanish; otherwise the fingerprints
    /// already tell (see `FieldRules`).
    public func counts() throws -> Summary {
        // A nested JSON record and its flat CSV twin fingerprint differently, so mixed inputs are resolved too.
        let fingerprintsTell = options.tolerance.isExact && schema.isEmpty && !old.flattensObjects && !new.flattensObjects
        let updates = fingerprintsTell ? changeset.updates.map { ResolvedUpdate(update: $0, fields: []) } : try resolveUpdates()
        var counts = summary(updates)
        counts.fieldCounts = []
        return counts
    }

    /// Every update the engine saw, compared field by field on all cores;
    /// those with no field change left are dropped.
    private func resolveUpdates() throws -> [ResolvedUpdate] {
        var resolved: [ResolvedUpdate] = []
        try OrderedConcurrentMap.forEach(changeset.updates, transform: fieldChanges) { update, fields in
            if !fields.isEmpty { resolved.append(ResolvedUpdate(update: update, fields: fields)) }
        }
        return resolved
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
        let movedAndUpdated = Set(moves.map(\.from)).intersection(resolved.map(\.update.old)).count
        summary.changed = summary.inserted + summary.deleted + summary.updated + summary.moved - movedAndUpdated
        var counts: [FieldPath: Int] = [:]
        for update in resolved {
            for field in update.fields { counts[field.path, default: 0] += 1 }
        }
        summary.fieldCounts = counts.map { FieldCount(path: $0.key, records: $0.value) }.sorted {
            $0.records != $1.records ? $0.records > $1.records : $0.path.description.unicodeScalars.lexicographicallyPrecedes($1.path.description.unicodeScalars)
        }
        return summary
    }

    private func changeStream(_ resolved: [ResolvedUpdate]) -> ChangeStream {
        let comparison = self
        return ChangeStream { body in
            let changeset = comparison.changeset
            let oldSections = comparison.oldSections
            for index in changeset.deletedSections {
                try body(Change(kind: .sectionDeleted, section: oldSections[index].id, old: Place(index: index)))
            }
            for inserted in changeset.insertedSections {
                try body(Change(kind: .sectionInserted, section: inserted.id, new: Place(index: inserted.index)))
            }
            for move in comparison.reportedSectionMoves {
                try body(Change(kind: .sectionMoved, section: oldSections[move.from].id,
                                old: Place(index: move.from), new: Place(index: move.to)))
            }
            let old = comparison.old
            let new = comparison.new
            try OrderedConcurrentMap.forEach(changeset.deletions, transform: { deletion in
                try old.value(ofRecord: oldSections[deletion.at.section].elements[deletion.at.item].row)
            }) { deletion, record in
                let ref = oldSections[deletion.at.section].elements[deletion.at.item]
                try body(Change(kind: .deleted, id: comparison.id(ref, old), old: comparison.place(deletion.at, .old), record: record))
            }
            try OrderedConcurrentMap.forEach(changeset.insertions, transform: { try new.value(ofRecord: $0.element.row) }) { insertion, record in
                try body(Change(kind: .inserted, id: comparison.id(insertion.element, new), new: comparison.place(insertion.at, .new),
                                record: record))
            }
            // Without an id, a moved record is shown by its content.
            let byContent = new.records.keys.isEmpty
            try OrderedConcurrentMap.forEach(comparison.reportedMoves, transform: { move in
                byContent ? try new.value(ofRecord: move.element.row) : nil
            }) { move, record in
                try body(Change(kind: .moved, id: comparison.id(move.element, new), old: comparison.place(move.from, .old),
                                new: comparison.place(move.to, .new), record: record))
            }
            for update in resolved {
                try body(Change(kind: .updated, id: comparison.id(update.update.element, new),
                                old: comparison.place(update.update.old, .old), new: comparison.place(update.update.new, .new),
                                fields: update.fields))
            }
        }
    }

    enum Side { case old, new }

    /// A record's place on one side: section, index and file line.
    func place(_ path: ElementPath, _ side: Side) -> Place {
        let sections = side == .old ? oldSections : newSections
        let dataset = side == .old ? old : new
        let ref = sections[path.section].elements[path.item]
        return Place(section: options.records.section == nil ? nil : sections[path.section].id,
                     index: path.item, line: dataset.records.line(ref.row))
    }

    /// A record's id parts, or nil when records are matched by content.
    func id(_ ref: RecordRef, _ dataset: Dataset) -> [String]? {
        dataset.records.keys.isEmpty ? nil : RecordKey.parts(dataset.records.keys[ref.row])
    }
}
