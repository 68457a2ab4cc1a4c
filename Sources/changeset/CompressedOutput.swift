import ChangesetKit

/// Where a command's result text goes: the output sink itself, or a
/// compressor in front of it when the file written is to be compressed.
struct ResultStream: TextOutputStream {
    let sink: OutputSink
    let compressor: CompressingWriter?

    mutating func write(_ string: String) {
        if let compressor { compressor.write(string) } else { sink.write(string) }
    }

    func write(bytes: some Collection<UInt8>) {
        if let compressor { compressor.write(bytes: bytes) } else { sink.write(bytes: bytes) }
    }
}

extension OutputSink {
    /// `deliver(to:)` for a file changeset writes (a result of merge or
    /// apply, a report, the git merge driver's OURS): compressed as
    /// `InputCompression.of(file:)` says for `path` (its name, else the file
    /// it replaces), so a `.gz` or `.zst` path never gets plain bytes; whole
    /// or not at all, like any `-o`. Standard output is written as it is.
    static func deliverCompressing(to path: String?, _ body: (inout ResultStream) throws -> Void) throws {
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
