import Foundation

/// A rules file, `.changeset.json`: per-path options, so that every entry
/// point (the diff, the merge, git's drivers) reads a repository's files
/// alike without repeating them on each command line.
///
/// ```
/// {
///   // keys are globs matched against a file's path from this file's folder
///   "files": {
///     "data/*.csv": { "id": "sku", "ignore": ["updated_at"], "tolerance": "price=0.01" },
///     "countries.json": { "id": "cca3", "array-key": ["states=id"], },
///   }
/// }
/// ```
///
/// JSON with `//` and `/* */` comments and trailing commas, as
/// tsconfig.json. The first entry in file order whose glob matches a path
/// is the one for it (write specific globs before general ones).
package struct RulesFile: Sendable {
    /// The name discovery looks for.
    package static let fileName = ".changeset.json"

    /// The file as it was named (for messages).
    package var source: String
    /// The absolute folder the globs are relative to: the file's own.
    package var folder: String
    /// The entries, in file order.
    package var entries: [RulesEntry]

    /// The rules file that applies in `directory` (absolute): the first
    /// `.changeset.json` from there up to the repository's root (the first
    /// folder holding `.git`, a folder or a file, as in a worktree), or up to
    /// `/` outside a repository. Nil when there is none.
    ///
    /// A file another user owns is passed over, as git passes over a
    /// repository another user owns (`safe.directory`): a shared folder
    /// above the working one (`/tmp`) must not give options and assertions
    /// to whoever runs changeset below it. One of root's is the system's
    /// own; `--rules FILE` names any.
    package static func find(from directory: String) -> String? {
        var folder = FileSystemPath.normalized(directory)
        while true {
            let candidate = folder == "/" ? "/" + fileName : folder + "/" + fileName
            var status = stat()
            if stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() || status.st_uid == 0 {
                return candidate
            }
            let atRoot = FileManager.default.fileExists(atPath: folder == "/" ? "/.git" : folder + "/.git")
            if atRoot || folder == "/" { return nil }
            folder = FileSystemPath.parent(of: folder)
        }
    }

    /// Reads the rules file at `path` (relative to `workingDirectory`),
    /// checking each option against `options`.
    package static func read(_ path: String, workingDirectory: String, options: [RuleOption]) throws(InputError) -> RulesFile {
        let absolute = FileSystemPath.absolute(path, in: workingDirectory)
        var status = stat()
        guard stat(absolute, &status) == 0 else {
            throw InputError(source: path, location: nil, message: "cannot read the rules file: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw InputError(source: path, location: nil, message: "cannot read the rules file: it is a directory; name the file in it, as \(path)/\(fileName)")
        }
        guard let data = FileManager.default.contents(atPath: absolute) else {
            // `contents(atPath:)` keeps its reason; opening again gives it (a permission, most often).
            let reason = access(absolute, R_OK) == 0 ? "it cannot be opened" : String(cString: strerror(errno))
            throw InputError(source: path, location: nil, message: "cannot read the rules file: \(reason)")
        }
        let folder = FileSystemPath.parent(of: absolute)
        return try parse([UInt8](data), source: path, folder: folder, options: options)
    }

    /// The entry for the file at `path` (as the user named it, relative to
    /// `workingDirectory`): the first whose glob matches its path from
    /// `folder`; nil when none does or the file is outside `folder`.
    package func entry(for path: String, workingDirectory: String) -> RulesEntry? {
        let absolute = FileSystemPath.absolute(path, in: workingDirectory)
        let prefix = folder == "/" ? "/" : folder + "/"
        guard absolute.hasPrefix(prefix) else { return nil }
        let relative = String(absolute.dropFirst(prefix.count))
        return entries.first { $0.pattern.matches(relative) }
    }

    /// The first path of `paths` a rules file can place (standard input, `-`, cannot).
    package static func placedPath(_ paths: [String?]) -> String? {
        paths.lazy.compactMap { $0 }.first { $0 != "-" && !$0.isEmpty }
    }
}
