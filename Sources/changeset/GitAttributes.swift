import ChangesetKit
import Foundation

/// The name of the attribute that holds a path's `--id`.
enum GitAttributes {
    static let id = "changeset-id"
    static let driver = "changeset"

    /// `--id` for `path`: the options' own, else the path's `changeset-id` attribute.
    static func id(for path: String, given: String?) -> String? {
        if let given { return given }
        guard let output = try? Git.run(["check-attr", id, "--", path]).output else { return nil }
        // `path: changeset-id: value`
        guard let value = output.split(separator: "\n").first?.components(separatedBy: ": ").last else { return nil }
        return ["unspecified", "unset", "set", ""].contains(value) ? nil : value
    }

    /// The input format a repository path's name says, if any.
    static func format(of path: String?) -> InputFormat? {
        guard var name = path.map({ URL(fileURLWithPath: $0).lastPathComponent }) else { return nil }
        for suffix in [".gz", ".zst"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return InputFormat(pathExtension: URL(fileURLWithPath: name).pathExtension)
    }
}
