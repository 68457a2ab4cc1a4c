import Foundation

/// Where a snapshot's records come from: a file, or data a caller holds.
///
/// Every source is read by the same readers (yajl for JSON and NDJSON, the
/// CSV reader for CSV and TSV), with the same checks and the same errors: a
/// problem is an ``InputError`` whose `source` is the path, or the `name`
/// the caller gave. In-memory sources are held in memory for the whole
/// comparison (changed records are read again from them, by byte range).
///
/// ```swift
/// let old = DatasetSource.data(Data(#"[{"id":1,"price":10}]"#.utf8), format: .json, name: "old prices")
/// let new = DatasetSource.data(csvBytes, format: .csv, name: "new prices")
/// let comparison = try Comparison.run(old: old, new: new, options: options)
/// ```
public enum DatasetSource: Sendable {
    /// A file by its path; `-` is standard input. Its format is the one
    /// given in the options, else its extension's (the one under `.gz` or
    /// `.zst`), else what its first bytes look like; a gzip or zstd file
    /// (by its extension or its first bytes) is decompressed as it is read.
    case path(String)

    /// A file by its URL (a `file:` URL; any other is an ``InputError``),
    /// read as ``path(_:)`` reads it.
    case file(URL)

    /// Bytes in memory, in `format` (nil: what the first bytes look like,
    /// as for a file without an extension), compressed by `compression`
    /// (nil: gzip or zstd when the first bytes say so, else plain).
    /// Errors name the data `name`.
    case data(Data, format: InputFormat? = nil, compression: InputCompression? = nil, name: String)

    /// Records already in memory, each a JSON object (``Value/object(_:)``),
    /// compared as an NDJSON input holding them in order would be: an error
    /// about the record at index `i` names `name` and line `i + 1`.
    case records([Value], name: String)

    /// The name errors and reports use for this source: the path (`<stdin>`
    /// for `-`), the URL's path, or the name given.
    public var name: String {
        switch self {
        case .path(let path): path == "-" ? InputFile.standardInputName : path
        case .file(let url): url.isFileURL ? url.path : url.absoluteString
        case .data(_, _, _, let name), .records(_, let name): name
        }
    }

    /// The path to open, for a source that is a file.
    var path: String? {
        switch self {
        case .path(let path): path
        case .file(let url): url.isFileURL ? url.path : nil
        case .data, .records: nil
        }
    }
}
