// Paths as text, for placing a file under a folder: no file is opened and
// no link followed, so a path is placed as the user (or git) wrote it.
extension FileSystemPath {
    /// `path` with `.`, `..` and repeated `/` taken out; absolute paths stay absolute.
    package static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// `path` made absolute from `directory` (absolute), normalized.
    package static func absolute(_ path: String, in directory: String) -> String {
        normalized(path.hasPrefix("/") ? path : directory + "/" + path)
    }

    /// The folder holding `path` (absolute, normalized); `/` for `/` itself.
    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
