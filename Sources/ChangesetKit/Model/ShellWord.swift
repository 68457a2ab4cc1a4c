/// A word a suggested command line can hold as it is: a name with spaces,
/// quotes or other characters a shell acts on is single-quoted, so a
/// suggestion (`try --id 'Country Code'`) can be copied and run.
package enum ShellWord {
    package static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics(scalar) || "_.,:/=@%+-".unicodeScalars.contains(scalar))
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

private enum CharacterSet {
    static func alphanumerics(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
    }
}
