import Foundation

/// A replayable patch, read and checked: what `changeset OLD NEW --format
/// patch` writes, and ``Comparison/write(_:to:showingNothing:)`` with
/// ``OutputFormat/patch``. Applied to the snapshot it was made from, it
/// rebuilds the new one, in the base's format and layout (records it leaves
/// alone are copied byte for byte).
///
/// Reading checks the whole grammar (a patch cut short, with no `end` line,
/// is refused); applying checks, before anything is written, that the base
/// is the snapshot the patch names (its record count and fingerprint), that
/// the operations fit it, and that the records they build have the result's
/// fingerprint (an edited patch is refused). Every refusal is an
/// ``InputError`` naming the patch or the base, with a line where there is one.
///
/// ```swift
/// var text = ""
/// _ = try comparison.write(OutputSettings(format: .patch), to: &text)
/// let patch = try DatasetPatch(Data(text.utf8), name: "changes.patch")
/// let rebuilt: Data = try patch.apply(to: .data(oldBytes, format: .json, name: "old.json"))
/// ```
public struct DatasetPatch: Sendable {
    package let script: PatchScript
    /// What errors call the patch: its path, or the name given.
    public let name: String

    /// Reads a patch held in memory (gzip or zstd when its first bytes say so).
    ///
    /// - Throws: ``InputError`` naming `name`, line and column, when the
    ///   bytes are not a whole patch this version reads.
    public init(_ data: Data, name: String = "patch") throws {
        self.name = name
        script = try PatchScript.read(try InputBytes.holding(data, compression: nil, name: name), source: name)
    }

    /// Reads the patch at `path` (`-`: standard input; gzip or zstd when its
    /// name or first bytes say so).
    ///
    /// - Throws: ``InputError`` naming the file, when it cannot be read or is
    ///   not a whole patch this version reads.
    public init(path: String) throws {
        name = path == "-" ? InputFile.standardInputName : path
        script = try PatchScript.read(try InputBytes.contents(of: path), source: name)
    }

    /// Reads the patch a file URL names, as ``init(path:)`` reads its path.
    ///
    /// - Throws: ``InputError`` for a URL that is not a file's, and as ``init(path:)``.
    public init(contentsOf url: URL) throws {
        guard url.isFileURL else {
            throw InputError(source: url.absoluteString, location: nil, message: "is not a file URL; only file URLs are read")
        }
        try self.init(path: url.path)
    }

    /// The format of the snapshot the patch applies to (the result is written in it).
    public var baseFormat: InputFormat { script.baseFormat }

    /// How many records the base holds, as the patch states it.
    public var baseRecordCount: Int { script.base.records }

    /// How many records the result holds, as the patch states it.
    public var resultRecordCount: Int { script.resultCount }

    /// Replays the patch on `base` and writes the result to `output`, in the
    /// base's format and layout. Nothing is written unless every check
    /// passes (see the type). A base given as data or as a path without an
    /// extension is read in ``baseFormat`` unless it names its own.
    ///
    /// - Throws: ``InputError``: a base that is not the snapshot the patch
    ///   was made from, a patch whose operations do not fit it or build
    ///   another result, or a base that cannot be read.
    public func apply(to base: DatasetSource, output: inout some TextOutputStream) throws {
        let input = try InputFile.open(base, format: formatFor(base), recordsAt: script.recordsAt)
        try PatchApplier.apply(script, patchSource: name, to: input, output: &output)
    }

    /// The result of replaying the patch on `base`: the new snapshot's bytes
    /// (see ``apply(to:output:)``).
    public func apply(to base: DatasetSource) throws -> Data {
        var output = DataOutput()
        try apply(to: base, output: &output)
        return output.data
    }

    /// Replays the patch on `base` and writes the result to the file at
    /// `destination`, whole or not at all (a temporary file renamed over it);
    /// a refused patch leaves the file as it was.
    ///
    /// - Throws: as ``apply(to:output:)``, and the file system's error when
    ///   the result cannot be written.
    public func apply(to base: DatasetSource, writingTo destination: URL) throws {
        try apply(to: base).write(to: destination, options: .atomic)
    }

    /// The format the base is read in when it does not say: a file's by its
    /// extension or content (as `changeset apply` reads it), standard input
    /// and data without a format in the patch's.
    private func formatFor(_ base: DatasetSource) -> InputFormat? {
        switch base {
        case .path(let path): path == "-" ? script.baseFormat : nil
        case .file: nil
        case .data, .records: script.baseFormat
        }
    }
}

/// Text written as UTF-8 bytes, for a result returned as `Data`.
private struct DataOutput: TextOutputStream {
    var data = Data()

    mutating func write(_ string: String) {
        data.append(contentsOf: string.utf8)
    }
}
