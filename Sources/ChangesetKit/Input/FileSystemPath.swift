/// File names are bytes; Swift Strings are Unicode. A name that is not
/// UTF-8 (Latin-1 names from old archives, say) would be decoded with its
/// bad bytes replaced and could then not be opened. So each byte of a name
/// that is not part of valid UTF-8 is carried in the String as a private-use
/// code point, U+10FF00 plus the byte (U+10FF80 to U+10FFFF), and turned
/// back into the byte whenever the name goes to the system. (A valid UTF-8
/// name holding those code points would be read as such bytes: they are
/// private use at the very end of Unicode, and no real name holds them.)
import Foundation

package enum FileSystemPath {
    private static let base: UInt32 = 0x10FF00

    /// A name's bytes as a String, bad bytes carried as described above.
    package static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String where Bytes.Index == Int {
        let array = Array(bytes)
        if let valid = String(validating: array, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < array.count {
            let lead = array[index]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            if index + length <= array.count, let piece = String(validating: array[index..<(index + length)], as: UTF8.self) {
                scalars.append(contentsOf: piece.unicodeScalars)
                index += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(lead))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The name's bytes for the system, NUL-terminated.
    package static func bytes(_ path: String) -> [CChar] {
        var result: [CChar] = []
        result.reserveCapacity(path.utf8.count + 1)
        for scalar in path.unicodeScalars {
            if scalar.value >= base + 0x80 && scalar.value <= base + 0xFF {
                result.append(CChar(bitPattern: UInt8(scalar.value - base)))
            } else {
                result.append(contentsOf: String(scalar).utf8.map { CChar(bitPattern: $0) })
            }
        }
        result.append(0)
        return result
    }
}
