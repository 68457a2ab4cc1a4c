/// An option a rules file entry may set, as the command names it (its long
/// name without `--`) and what it takes. The command gives the list, so the
/// rules file knows the options by the same names as the man page.
package struct RuleOption: Sendable, Hashable {
    /// What the option takes on the command line.
    package enum Takes: Sendable, Hashable {
        /// A flag: `true` sets it, `false` leaves it off.
        case flag
        /// One value: a string or a number.
        case value
        /// A repeatable option: a string, a number, or an array of them.
        case values
    }

    /// The long name, without `--` (`id`, `array-key`).
    package var name: String
    /// What it takes.
    package var takes: Takes

    /// The option `name` taking `takes`.
    package init(name: String, takes: Takes) {
        self.name = name
        self.takes = takes
    }
}
