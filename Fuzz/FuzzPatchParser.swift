// libFuzzer target patch-parser: PatchScript.parse on arbitrary bytes.
// Errors are expected. Bugs: crashes, hangs, sanitizer reports; a parsed
// patch whose `text` does not parse back to the same script, or parses
// without its `end` line; and a crash in replaying the parsed operations on a
// base of the declared size (replay must throw, not trap, on operations that
// do not fit).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    guard let script = try? PatchScript.parse(Array(input), source: "fuzz.patch") else { return 0 }

    // Round trip: what the formatter would write for this script reads back as it.
    let text = script.text
    let again: PatchScript
    do {
        again = try PatchScript.parse(Array(text.utf8), source: "again.patch")
    } catch {
        fatalError("the text of a parsed patch does not parse: \(error)\ntext (hex): \(hex(text.utf8))")
    }
    var expected = script
    expected.operationLines = []
    expected.resultLine = 0
    var found = again
    found.operationLines = []
    found.resultLine = 0
    if found != expected {
        fatalError("a parsed patch's text parses to a different script:\nfirst:  \(expected)\nsecond: \(found)")
    }
    // Cut short (its `end` line gone), the same text must be refused.
    let cut = Array(text.utf8.dropLast(PatchScript.trailerText.utf8.count))
    if (try? PatchScript.parse(cut, source: "cut.patch")) != nil {
        fatalError("a patch without its end line parses\ntext (hex): \(hex(cut))")
    }

    // Replay the operations on a base of the count the header declares
    // (bounded, so a huge count is not an out-of-memory report).
    if script.base.records <= 100_000 {
        _ = try? PatchApplier.replay(script, baseCount: script.base.records, patchSource: "fuzz.patch")
    }
    return 0
}
