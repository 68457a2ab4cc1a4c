// libFuzzer target diff-apply: the input is OLD and NEW, split at the first
// 0x00 byte (or in the middle when there is none); each side's format is the
// one InputFile.sniff sees ("[" JSON array, "{" NDJSON, else CSV or TSV).
// A CSV or TSV OLD with a JSON NEW is skipped: a CSV base cannot hold
// arbitrary JSON records (new fields, nested values), and `apply` refuses
// such a patch by design.
// When both sides read, once with identity by content and once with `id`
// (skipped when a side has duplicate or missing ids), the run must be able to
// make a patch, parse it, apply it to OLD, read the result back, and find no
// difference between the result and NEW (a JSON OLD with a CSV NEW: none but
// columns no row fills, which a JSON result has no header to carry); and
// each update's field changes must be the same whether only the members that
// differ in text are read or both records whole. With `id`, a comparison
// past `--memory-limit` (in 1-4 partitions) must give the in-memory
// comparison's reports and counts, or its error. Anything else is a bug.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let separator = bytes.firstIndex(of: 0)
    let oldBytes = Array(bytes[..<(separator ?? size / 2)])
    let newBytes = Array(bytes[(separator.map { $0 + 1 } ?? size / 2)...])
    let old = input("old", oldBytes)
    let new = input("new", newBytes)
    if !old.format.isJSON && new.format.isJSON { return 0 }
    for id in [[], [FieldPath(["id"])]] {
        var options = ComparisonOptions()
        options.records = RecordOptions(id: id, mode: old.format.isJSON && new.format.isJSON ? .typed : .text)
        guard let oldSet = try? dataset(old, options), let newSet = try? dataset(new, options) else { continue }
        roundTrip(oldSet, newSet, options: options, inputs: (oldBytes, newBytes))
    }
    partitionsAreMemory(old, new, partitions: 1 + size % 4, inputs: (oldBytes, newBytes))
    return 0
}

/// Past `--memory-limit` (records through temporary files, matched a
/// partition at a time), a comparison by id must give what it gives in
/// memory: the reports, the counts, or the same error.
private func partitionsAreMemory(_ old: InputFile, _ new: InputFile, partitions: Int, inputs: ([UInt8], [UInt8])) {
    var options = ComparisonOptions()
    options.records = RecordOptions(id: [FieldPath(["id"])], mode: .text)
    func outputs(_ options: ComparisonOptions) -> String {
        do {
            let comparison = try Comparison.run(old, new, options: options)
            var text = ""
            for format in [OutputFormat.text, .json, .batch] {
                text += "\(try comparison.write(OutputSettings(format: format, width: 0), to: &text))\n"
            }
            return text + "\(try comparison.counts())"
        } catch {
            return "error: \(error)"
        }
    }
    let inMemory = outputs(options)
    options.memoryLimit = 0
    options.partitions = partitions
    let partitioned = outputs(options)
    if partitioned != inMemory {
        fatalError("diff-apply: \(partitions) partitions differ from memory\n\(inMemory)\n---\n\(partitioned)\n"
                   + "OLD (hex): \(hex(inputs.0))\nNEW (hex): \(hex(inputs.1))")
    }
}

private func input(_ name: String, _ bytes: [UInt8]) -> InputFile {
    let format = InputFile.sniff(bytes.span, recordsAt: nil)
    return InputFile(name: name, bytes: InputBytes(copying: bytes), format: format)
}

private func dataset(_ input: InputFile, _ options: ComparisonOptions) throws -> Snapshot {
    let delimiter = options.delimiter ?? (input.format == .tsv ? 0x09 : UInt8(ascii: ","))
    return Snapshot(input: input, records: try input.readRecords(options.records, delimiter: delimiter), delimiter: delimiter)
}

private func roundTrip(_ old: Snapshot, _ new: Snapshot, options: ComparisonOptions, inputs: ([UInt8], [UInt8])) {
    let mode = "\(old.input.format.rawValue) -> \(new.input.format.rawValue), id \(options.records.id)"
    func fail(_ what: String, _ detail: String) -> Never {
        fatalError("diff-apply (\(mode)): \(what)\n\(detail)\nOLD (hex): \(hex(inputs.0))\nNEW (hex): \(hex(inputs.1))")
    }
    let comparison: Comparison
    do { comparison = try Comparison(old: old, new: new, options: options) } catch {
        fail("comparing inputs that both read throws", "\(error)")
    }
    // A report reads only an updated record's members whose text differs; it must find what reading both whole finds.
    for update in comparison.changeset.updates {
        let oldRow = comparison.oldSections[update.old.section].elements[update.old.item].row
        let newRow = comparison.newSections[update.new.section].elements[update.new.item].row
        let shortcut = Result { try comparison.fieldChanges(update) }
        let whole = Result { try comparison.fieldChangesReadingWholeRecords(oldRow: oldRow, newRow: newRow) }
        switch (shortcut, whole) {
        case let (.success(found), .success(expected)) where found == expected: break
        case (.failure, .failure): break
        default: fail("an update's field changes differ when only differing members are read", "shortcut: \(shortcut)\nwhole: \(whole)")
        }
    }
    var patch = ""
    do { try PatchFormatter().write(try comparison.replay(.records), to: &patch) } catch { fail("writing the patch throws", "\(error)") }
    let script: PatchScript
    do { script = try PatchScript.parse(Array(patch.utf8), source: "fuzz.patch") } catch {
        fail("the patch written does not parse", "\(error)\npatch:\n\(patch)")
    }
    var output = ""
    do { try PatchApplier.apply(script, patchSource: "fuzz.patch", to: old.input, output: &output) } catch {
        fail("the patch does not apply to OLD", "\(error)\npatch:\n\(patch)")
    }
    let resultInput = InputFile(name: "result", bytes: InputBytes(copying: Array(output.utf8)), format: old.input.format)
    let result: Snapshot
    do { result = try dataset(resultInput, options) } catch {
        fail("the result of applying the patch does not read", "\(error)\npatch:\n\(patch)\nresult:\n\(output)")
    }
    let check: Comparison
    do { check = try Comparison(old: result, new: new, options: options) } catch {
        fail("comparing the result with NEW throws", "\(error)\npatch:\n\(patch)\nresult:\n\(output)")
    }
    let report: Report
    do { report = try check.report() } catch {
        fail("reporting the comparison of the result with NEW throws", "\(error)")
    }
    var summary = report.summary
    let schema = report.schema
    if old.input.format.isJSON && !new.input.format.isJSON {
        // A JSON result has no header: a CSV column no row fills (an empty
        // cell is a missing field) is a schema change it cannot carry
        // (`RoundTripTests.aJSONBaseTowardACSVColumnNoRowFillsKeepsItsContent`).
        summary.schema = (schema.added + schema.removed).filter { $0.records > 0 }.count
    }
    if summary.hasDifferences {
        fail("the result differs from NEW: \(summary)", "patch:\n\(patch)\nresult:\n\(output)")
    }
}
