internal import CYajl
import Foundation

// Errors of the JSON reader: yajl's messages turned into ours, each placed at
// the line and column the scanner finds for it.
extension JSONRecordReader {
    // MARK: Errors

    func error(_ message: String, at location: InputLocation) -> InputError {
        InputError(source: source, location: location, message: message)
    }

    /// Brings the scanner up to `offset`; if it finds a problem before there,
    /// that problem is the one to report (it comes first in the file).
    /// `acceptedByYajl`: a callback's place, every byte before it read by yajl
    /// without complaint, so the scanner may cross plain bytes quickly
    /// (`JSONTextScanner.skipAccepted`).
    func scanUpTo(_ offset: Int, acceptedByYajl: Bool = false) -> InputError? {
        // The own lexer has checked what the scanner would have.
        if lexer == .own { return nil }
        let end = min(max(offset, scanner.offset), chunkBase + chunk.count)
        if end > scanner.offset, chunk.count > 0 {
            withChunk { chunk in
                if !(acceptedByYajl && scanner.skipAccepted(chunk, chunkBase: chunkBase, upTo: end)) {
                    scanner.scan(chunk, chunkBase: chunkBase, upTo: end)
                }
            }
        }
        if let problem = scanner.failure { return error(problem.message, at: problem.location) }
        return nil
    }

    /// Turns yajl's error into ours, placed by what kind of error it is:
    /// yajl stops *at* a bad character inside a string or number, but *after*
    /// a token that is out of place.
    func yajlError() -> InputError {
        var text = "invalid JSON"
        if let raw = yajl_get_error(handle, 0, nil, 0) {
            text = String(cString: raw)
            yajl_free_error(handle, raw)
        }
        let consumed = chunkBase + Int(yajl_get_bytes_consumed(handle))
        if text.contains("premature EOF") {
            if let earlier = scanUpTo(chunkBase + chunk.count) { return earlier }
            return error("unexpected end of input; expected more JSON", at: currentLocation)
        }
        let insideToken: [(String, String)] = [
            ("invalid character inside string", "control character must be escaped in a string"),
            ("inside a string, '\\' occurs before a character", "invalid escape sequence in string"),
            ("non-hex) character occurs after '\\u'", "invalid \\u escape in string: four hex digits must follow \\u"),
            ("a digit is required after the decimal point", "malformed number: a digit must follow the decimal point"),
            ("a digit is required after the exponent", "malformed number: a digit must follow the exponent"),
            ("a digit is required after the minus sign", "malformed number: a digit must follow the minus sign"),
            ("probable comment found", "comments are not allowed in JSON"),
            ("invalid bytes in UTF8 string", "invalid UTF-8 in string"),
        ]
        for (pattern, message) in insideToken where text.contains(pattern) {
            if let earlier = scanUpTo(consumed) { return earlier }
            return error(message, at: currentLocation)
        }
        // The offending token ends at `consumed`: report where it starts.
        if let earlier = scanUpTo(consumed) { return earlier }
        var token = scanner.lastToken
        if text.contains("after key and value") {
            // Here yajl moves its offset back by the length of the token's
            // content, which depends on the token; instead, the offending token
            // is the first one after the last value yajl accepted, read to its end.
            token = withChunk { scanner.scanThroughToken(after: lastValueEnd, $0, chunkBase: chunkBase) }
            if let problem = scanner.failure { return error(problem.message, at: problem.location) }
        }
        let shown = JSONRecordReader.describeToken(startingWith: token.firstByte)
        let message: String
        if scanner.wordHasLeadingZero && token.firstByte == UInt8(ascii: "0") {
            message = "malformed number: a number may not start with 0 followed by more digits"
        } else if text.contains("trailing garbage") {
            message = layout == .lines
                ? "unexpected \(shown) after a record"
                : "unexpected \(shown) after the end of the JSON document (a .json file holds one document)"
        } else if text.contains("invalid string in json text") {
            message = "invalid literal: expected true, false or null"
        } else if text.contains("invalid char in json text") {
            message = token.firstByte == UInt8(ascii: "'")
                ? "unexpected \(shown): JSON strings use double quotes"
                : "unexpected \(shown); NaN, Infinity and bare words are not JSON"
        } else if text.contains("after array element") {
            message = "expected ',' or ']' after an array element, found \(shown)"
        } else if text.contains("after key and value") {
            message = "expected ',' or '}' after an object member, found \(shown)"
        } else if text.contains("separated by a colon") {
            message = "expected ':' after an object key, found \(shown)"
        } else if text.contains("invalid object key") {
            message = token.firstByte == UInt8(ascii: "}")
                ? "unexpected '}' (a trailing comma is not allowed)"
                : "expected a string as object key, found \(shown)"
        } else if text.contains("unallowed token") {
            message = token.firstByte == UInt8(ascii: "]") || token.firstByte == UInt8(ascii: "}")
                ? "unexpected \(shown) (a trailing comma is not allowed)"
                : "unexpected \(shown)"
        } else {
            message = text.replacingOccurrences(of: "lexical error: ", with: "")
                .replacingOccurrences(of: "parse error: ", with: "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return error(message, at: location(of: token))
    }

    /// A token as a message names it: strings and numbers by kind, anything else by its first character.
    static func describeToken(startingWith byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): "a number"
        default: describe(byte: byte)
        }
    }

    static func describe(byte: UInt8) -> String {
        if byte == UInt8(ascii: "'") { return "\"'\"" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    /// Fails the parse from inside a callback; returns yajl's "cancel".
    func cancel(_ message: String, at location: InputLocation) -> Int32 {
        if failure == nil {
            failure = scanUpTo(callbackOffset) ?? error(message, at: location)
        }
        return 0
    }

    /// `cancel` with a message that may name settings (see `LibrarySetting`).
    func cancel(_ parts: [MessagePart], at location: InputLocation) -> Int32 {
        if failure == nil {
            failure = scanUpTo(callbackOffset) ?? InputError(source: source, location: location, parts: parts)
        }
        return 0
    }

    /// Where the token that triggered the current callback starts.
    func currentTokenStart() -> JSONTextScanner.Mark? {
        // (No line start: the own lexer's marks are never given a column.)
        if lexer == .own { return JSONTextScanner.Mark(offset: ownTokenStart, line: ownLine, lineStart: ownTokenStart, column: nil) }
        if let problem = scanUpTo(callbackOffset, acceptedByYajl: true) {
            failure = problem
            return nil
        }
        return scanner.lastToken
    }

    var callbackOffset: Int { lexer == .own ? ownTokenEnd : chunkBase + Int(yajl_get_bytes_consumed(handle)) }
}
