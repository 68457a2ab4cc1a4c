/// Sections: records grouped by their section field, their order, and the
/// changeset over file order that a replay needs (sections folded into the
/// records' content).
extension Comparison {
    /// Groups a table's records by section, in order of first appearance
    /// (or by value with `--sort-sections`).
    static func sections(of table: RecordTable, sorted: Bool) -> [ListSection<SectionName, RecordRef>] {
        guard !table.sections.isEmpty else {
            // The table's own refs, shared, not copied: one section is file order.
            return [ListSection(id: nil, elements: table.refs)]
        }
        // Each section's size first, so its refs are reserved once (grown by
        // doubling, a section's array could hold twice the room it needs).
        var sizes = [Int](repeating: 0, count: table.sectionNames.count)
        for section in table.sections { sizes[Int(section)] += 1 }
        var sections = zip(table.sectionNames, sizes).map { name, size in
            var section = ListSection<SectionName, RecordRef>(id: SectionName(name), elements: [])
            section.elements.reserveCapacity(size)
            return section
        }
        for row in 0..<table.count { sections[Int(table.sections[row])].elements.append(table.refs[row]) }
        if sorted { sections.sort { SectionOrder.precedes($0.id, $1.id) } }
        return sections
    }

    /// The changeset over the files' record order, ignoring sections: what
    /// the replay formats (`patch`, `jsonpatch`) need to rebuild NEW as a file.
    package func fileOrderChangeset() throws -> SectionedChangeset<Int, RecordRef> {
        guard options.records.section != nil else {
            // One section already: the same changeset, renamed.
            var flat = SectionedChangeset<Int, RecordRef>()
            let changeset = self.changeset
            flat.deletions = changeset.deletions.map { .init(at: $0.at) }
            flat.insertions = changeset.insertions.map { .init(at: $0.at, element: $0.element) }
            flat.updates = changeset.updates.map { .init(old: $0.old, new: $0.new, element: $0.element) }
            flat.moves = changeset.moves.map { .init(from: $0.from, to: $0.to, element: $0.element, isAcrossSections: false) }
            flat.unchangedCount = changeset.unchangedCount
            flat.oldCount = changeset.oldCount
            flat.newCount = changeset.newCount
            flat.oldSectionCount = 1
            flat.newSectionCount = 1
            return flat
        }
        // The section field is left out of the fingerprints (a changed section
        // is a move), but a replay must carry it: here it is part of the content.
        func refs(_ sections: [ListSection<SectionName, RecordRef>]) -> [RecordRef] {
            sections.flatMap { section in
                let name = section.id.contentHash
                return section.elements.map { RecordRef(fingerprint: StableHash.combine($0.fingerprint, name), row: $0.row) }
            }.sorted { $0.row < $1.row }
        }
        return try Differ.diff(from: [ListSection(id: 0, elements: refs(oldSections))], to: [ListSection(id: 0, elements: refs(newSections))])
    }
}

/// `--sort-sections`: numbers by value before text, text by Unicode scalars; the null section first.
enum SectionOrder {
    static func precedes(_ a: SectionName, _ b: SectionName) -> Bool {
        guard let a = a.text else { return b.text != nil }
        guard let b = b.text else { return false }
        switch (Double(a).flatMap { CanonicalNumber.isNumberLiteral(a) ? $0 : nil },
                Double(b).flatMap { CanonicalNumber.isNumberLiteral(b) ? $0 : nil }) {
        case let (x?, y?): return x != y ? x < y : a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        case (_?, nil): return true
        case (nil, _?): return false
        case (nil, nil): return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        }
    }
}
