/// A removed field and an added one whose values agree in matched records.
public struct RenameSuggestion: Equatable, Sendable {
    /// The removed field (in OLD only).
    public var old: FieldPath
    /// The added field (in NEW only).
    public var new: FieldPath
    /// Matched records compared (both fields present) and how many of them hold equal values.
    public var compared: Int
    /// Of the `compared` records, how many hold equal values in the two fields.
    public var equal: Int

    /// A suggestion that `old` was renamed `new`, from `equal` of `compared` records.
    public init(old: FieldPath, new: FieldPath, compared: Int, equal: Int) {
        self.old = old
        self.new = new
        self.compared = compared
        self.equal = equal
    }

    /// `looks renamed: state_code -> iso2 (5076 of 5076 values equal); --rename state_code=iso2 says so`
    package var sentence: String {
        "looks renamed: \(old) -> \(new) (\(equal) of \(compared) values equal); --rename \(renameArgument) compares them as one field"
    }

    /// `OLD=NEW` as `--rename` takes it (an `=` in a name escaped), quoted for a shell when it must be.
    package var renameArgument: String {
        ShellWord.quoted(Rename(old: old, new: new).argument)
    }
}
