import ChangesetKit
import Foundation

/// What git itself looks for in a file before merging or showing it.
enum GitFileContent {
    /// git's rule: a NUL byte in the first 8000 bytes makes a file binary;
    /// but a gzip or zstd file is a compressed dataset, read as such.
    static func isBinary(_ path: String) -> Bool {
        guard path != "/dev/null", let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let start = [UInt8]((try? handle.read(upToCount: 8000)) ?? Data())
        return start.contains(0) && !InputCompression.isCompressed(start)
    }

    /// Whether a line of the file starts with a conflict marker of `size`
    /// (`<<<<<<<`, `=======` or `>>>>>>>`, alone or followed by a space).
    /// Read a megabyte at a time, so memory does not grow with the file.
    static func hasConflictMarkers(_ path: String, size: Int) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let markers = ["<", "=", ">"].map { Array(String(repeating: $0, count: size).utf8) }
        // Of each line, only its first size + 1 bytes and its length matter.
        var start: [UInt8] = []
        var length = 0
        func isMarker() -> Bool {
            guard start.count >= size, markers.contains(where: { start.starts(with: $0) }) else { return false }
            if length == size { return true }
            return start[size] == 0x20 || (start[size] == 0x0D && length == size + 1)
        }
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            for byte in chunk {
                if byte == 0x0A {
                    if isMarker() { return true }
                    start.removeAll(keepingCapacity: true)
                    length = 0
                } else {
                    if start.count <= size { start.append(byte) }
                    length += 1
                }
            }
        }
        return length > 0 && isMarker()
    }
}
