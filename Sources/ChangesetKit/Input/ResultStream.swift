/// Where a result's text goes: an `OutputSink` itself, or a compressor in
/// front of it when the file written is to be compressed.
public struct ResultStream: TextOutputStream {
    /// The sink the bytes end in.
    public let sink: OutputSink
    let compressor: CompressingWriter?

    /// Appends `string`, compressed when the stream compresses.
    public mutating func write(_ string: String) {
        if let compressor { compressor.write(string) } else { sink.write(string) }
    }

    /// Appends `bytes`, compressed when the stream compresses.
    public func write(bytes: some Collection<UInt8>) {
        if let compressor { compressor.write(bytes: bytes) } else { sink.write(bytes: bytes) }
    }
}

extension OutputSink {
    /// `deliver(to:_:)` for a file a result is written to (a report, the
    /// result of a merge or an apply, git's merge driver's OURS): compressed
    /// as its name says (`.gz`, `.zst`), else as the file it replaces is, so
    /// a compressed path never gets plain bytes; whole or not at all.
    /// Standard output (`path` nil) is written as it is.
    public static func deliverCompressing(to path: String?, _ body: (inout ResultStream) throws -> Void) throws {
        // Decided before the sink exists: the file it replaces is still there to look at.
        let compression = path.flatMap { InputCompression.of(file: $0) }
        try deliver(to: path) { sink in
            let compressor = try compression.map { compression in
                try CompressingWriter(compression, destination: path ?? "", emit: { sink.write(bytes: $0) })
            }
            var stream = ResultStream(sink: sink, compressor: compressor)
            try body(&stream)
            try compressor?.finish()
        }
    }
}
