/// `--array-key PATH=FIELD`: the member that identifies the elements of the
/// arrays at PATH inside each record, so that an element is matched with the
/// element holding the same key on the other side wherever it stands (not by
/// its position). It overrides the automatic choice (the `--id` fields, then a
/// member named `id`); an empty FIELD (`PATH=`) refuses a key there, so the
/// elements are matched by content, then by position.
///
/// PATH names an array by the member names from the record down, array
/// positions left out: `states` is the record's `states` array, and
/// `states.cities` (or `states[].cities`, as the report's summaries write it)
/// the `cities` array inside each of its elements. A name may be a glob
/// (`*`, `?`, `[set]`), matching one name. FIELD is a path inside an element,
/// `a,b` a composite key, as `--id` spells them.
public struct ArrayKeyRule: Equatable, Sendable {
    /// The array's member names from the record down; each may be a glob.
    public var path: [String]
    /// The key fields; empty: the elements are never matched by a key.
    public var key: [FieldPath]

    /// A rule for the arrays at `path` (names, globs allowed), keyed by `key` (empty: by none).
    public init(path: [String], key: [FieldPath]) {
        self.path = path
        self.key = key
    }

    /// `PATH=FIELD` as `--array-key` takes it. The first `=` that no
    /// backslash escapes ends PATH (an `=` in a name is written `\=`).
    public init(parsing text: String) throws {
        let separator = FieldPath.unescapedEquals(in: text)
        guard let equals = separator, equals != text.startIndex else {
            throw OptionError([.text("invalid "), .setting(.arrayKey), .text(" \"\(text)\": write PATH=FIELD, the array's path in a record (states, or states.cities for an array inside its elements) and the member that identifies its elements (PATH= for none)")])
        }
        let path = try FieldPath(parsing: String(text[..<equals])).components.map { name in
            // `states[]` as the summaries write an array is `states`.
            name.hasSuffix("[]") && name.count > 2 ? String(name.dropLast(2)) : name
        }
        let fieldText = String(text[text.index(after: equals)...])
        let key = fieldText.allSatisfy { $0 == " " } ? [] : try FieldPath.parseList(fieldText)
        self.init(path: path, key: key)
    }

    /// Whether this rule names the array at `arrayPath` (member names from the record down).
    package func matches(_ arrayPath: [String]) -> Bool {
        guard arrayPath.count == path.count else { return false }
        return zip(path, arrayPath).allSatisfy { pattern, name in
            GlobPattern.isPattern(pattern) ? GlobPattern(pattern).matches(name) : ExactText.same(pattern, name)
        }
    }

    /// `PATH=FIELD` as the option is written.
    package var argument: String {
        FieldPath(path).argument(.beforeEquals) + "=" + FieldPath.listArgument(key)
    }
}
