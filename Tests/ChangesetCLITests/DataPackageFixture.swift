import Foundation

/// A datapackage.json of the shape of vega-datasets' (pretty-printed with
/// two spaces): a document holding `name`, `created` and `licenses` around
/// its records, the `resources` array, and resources that carry a
/// `licenses` array of their own. BASE, OURS and THEIRS of a merge are
/// variants of it.
struct DataPackage {
    struct License {
        var name: String
        var title: String
        var path: String
    }

    var created = "2024-11-03T12:00:00Z"
    /// Each license of a resource gets a `name` member (OURS's edit in vega-datasets).
    var named = false
    /// The scheme of every license path of a resource (THEIRS's edit: `https`).
    var scheme = "http"
    /// Those paths written with `\/` for each `/` (as PHP's json_encode writes them).
    var escapesSlashes = false
    /// The same two for the package's own licenses, in the document around the records.
    var packageNamed = false
    var packageScheme = "http"
    /// A path of a resource's license replaced, by resource name and license index.
    var pathOverrides: [String: [Int: String]] = [:]

    static let packageLicenses = [License(name: "BSD-3-Clause", title: "The 3-Clause BSD License", path: "opensource.org/licenses/BSD-3-Clause")]
    static let resources: [(name: String, path: String, licenses: [License])] = [
        ("airports", "data/airports.csv", [
            License(name: "PDDL-1.0", title: "Open Data Commons Public Domain Dedication and License", path: "opendatacommons.org/licenses/pddl/"),
            License(name: "CC-BY-4.0", title: "Creative Commons Attribution 4.0", path: "creativecommons.org/licenses/by/4.0/"),
        ]),
        ("barley", "data/barley.json", [License(name: "CC0-1.0", title: "CC0 1.0", path: "creativecommons.org/publicdomain/zero/1.0/")]),
        ("cars", "data/cars.json", []),
    ]

    func licenses(_ licenses: [License], resource: String?, indent: String) -> String {
        let named = resource == nil ? packageNamed : self.named
        let scheme = resource == nil ? packageScheme : self.scheme
        let lines = licenses.enumerated().map { index, license in
            var path = resource.flatMap { pathOverrides[$0]?[index] } ?? "\(scheme)://\(license.path)"
            if resource != nil && escapesSlashes { path = path.replacingOccurrences(of: "/", with: "\\/") }
            var members = named ? ["\"name\": \"\(license.name)\""] : []
            members += ["\"title\": \"\(license.title)\"", "\"path\": \"\(path)\""]
            return "\(indent)  {\n" + members.map { "\(indent)    \($0)" }.joined(separator: ",\n") + "\n\(indent)  }"
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n\(indent)]"
    }

    var text: String {
        let resources = Self.resources.map { resource in
            var members = ["\"name\": \"\(resource.name)\"", "\"path\": \"\(resource.path)\""]
            if !resource.licenses.isEmpty { members.append("\"licenses\": " + licenses(resource.licenses, resource: resource.name, indent: "      ")) }
            return "    {\n" + members.map { "      \($0)" }.joined(separator: ",\n") + "\n    }"
        }
        return """
            {
              "name": "vega-datasets",
              "version": "2.11.0",
              "created": "\(created)",
              "licenses": \(licenses(Self.packageLicenses, resource: nil, indent: "  ")),
              "resources": [
            \(resources.joined(separator: ",\n"))
              ]
            }

            """
    }

    /// `text` with its `created` line in conflict markers, as changeset's
    /// `--markers` and its merge driver write a member both sides changed:
    /// OURS's value, then THEIRS's.
    func textWithCreatedConflict(ours: String, theirs: String) -> String {
        text.replacingOccurrences(of: "  \"created\": \"\(created)\",\n", with: """
            <<<<<<< ours
              "created": "\(ours)",
            =======
              "created": "\(theirs)",
            >>>>>>> theirs

            """)
    }
}
