/// A word a suggested command line can hold as it is: a name with spaces,
/// quotes or other characters a shell acts on is single-quoted, so a
/// suggestion (`try --id 'Country Code'`) can be copied and run.
package enum ShellWord {
    package static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics(scalar) || "_.,:/=@%+-".unicodeScalars.contains(scalar))
        }
        if plain { return word }
        // A character a terminal would not show (a control character, a bidi
        // mark) is printed as an escape, never as itself (`TerminalText`):
        // inside $'...' (bash, zsh, ksh, POSIX.1-2024) its UTF-8 bytes as
        // \xHH are the character again, whatever the shell's locale.
        if word.unicodeScalars.contains(where: TerminalText.isInvisible) {
            var text = "$'"
            for scalar in word.unicodeScalars {
                switch scalar {
                case "\\": text += "\\\\"
                case "'": text += "\\'"
                case _ where TerminalText.isInvisible(scalar):
                    for byte in String(scalar).utf8 { text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
                default: text.unicodeScalars.append(scalar)
                }
            }
            return text + "'"
        }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `quoted`, for a word set in a sentence: a plain word in double quotes
    /// (`did you mean "capital"?`), which a shell reads as the word too.
    package static func quotedInText(_ word: String) -> String {
        let shell = quoted(word)
        return shell == word ? "\"" + word + "\"" : shell
    }
}

private enum CharacterSet {
    static func alphanumerics(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
    }
}
