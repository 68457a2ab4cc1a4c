// A cost model, for callgrind, of the records pass a JSON reader of our own
// would make beside (or instead of) yajl: not part of changeset.
//
//   swiftc -O scripts/scan-cost-model.swift -o /tmp/scan-cost-model
//   valgrind --tool=callgrind /tmp/scan-cost-model [--validate] .build/bench-data/100k/old.json
//
// It walks a JSON array (or NDJSON) of flat record objects: finds each
// record's bounds, hashes every member's name and value word by word (the
// step of changeset's StableHash) into an order-free sum, counts lines, and
// crosses strings eight bytes at a time, noting those with an escape, a
// control byte or a byte past ASCII (which a real reader would take on a
// slow path). It decodes no escape, checks no UTF-8 (changeset's scanner
// does, and `json_verify` by default) and keeps no table. Alone it checks
// no grammar and follows no nesting beyond a depth count (so an array's
// elements after the first are hashed as names); with `--validate` it also
// checks the grammar as yajl does (where each token may stand, a stack of
// open containers, numbers' digits, literals' letters, escapes' letters,
// no raw control byte in a string), stopping at the first error. A lower bound on what such a pass costs,
// which docs/performance.md sets beside yajl's own cost (`json_verify`) and
// the reader's. Raw pointers and no bounds checks, since a lower bound is
// the point; one file, so the compiler inlines all of it.
import Foundation

let prime1: UInt64 = 0x9E37_79B1_85EB_CA87, prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F, prime3: UInt64 = 0x1656_67B1_9E37_79F9
let byteOnes: UInt64 = 0x0101_0101_0101_0101, byteHighs: UInt64 = 0x8080_8080_8080_8080

@inline(__always) func rotated(_ x: UInt64, _ by: UInt64) -> UInt64 { (x << by) | (x >> (64 - by)) }

@inline(__always) func avalanche(_ value: UInt64) -> UInt64 {
    var k = value
    k ^= k >> 33; k &*= 0xFF51_AFD7_ED55_8CCD
    k ^= k >> 33; k &*= 0xC4CE_B9FE_1A85_EC53
    return k ^ (k >> 33)
}

/// The high bit set in each byte of `word` that is zero.
@inline(__always) func zeroBytes(_ word: UInt64) -> UInt64 { (word &- byteOnes) & ~word & byteHighs }

/// The bytes `start..<end` hashed eight at a time; the 1-7 left over in one
/// masked load (the file's bytes after them are readable, or read one by one at its end).
@inline(__always)
func hash(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int, fileSize: Int, seed: UInt64) -> UInt64 {
    var h = seed &+ prime3 &+ UInt64(end - start) &* prime1
    func add(_ word: UInt64) {
        h ^= rotated(word &* prime2, 31) &* prime1
        h = rotated(h, 27) &* prime1 &+ prime3
    }
    var index = start
    while index + 8 <= end {
        add(UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
        index += 8
    }
    if index < end {
        if index + 8 <= fileSize {
            add(UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self) & (UInt64.max >> UInt64(64 - 8 * (end - index))))
        } else {
            var word: UInt64 = 0
            for (position, offset) in (index..<end).enumerated() { word |= UInt64(bytes[offset]) << UInt64(8 * position) }
            add(word)
        }
    }
    return avalanche(h)
}

/// The offset of the quote that ends the string whose content starts at
/// `start`; `plain` is cleared if the string holds an escape, a control
/// byte or a byte past ASCII.
@inline(__always)
func stringEnd(_ bytes: UnsafePointer<UInt8>, _ count: Int, from start: Int, plain: inout Bool) -> Int {
    var index = start
    while index + 8 <= count {
        let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
        // A byte below 0x20: with its high bit set first, taking 0x20 away leaves the high bit clear.
        let controls = ~((word | byteHighs) &- (0x20 &* byteOnes)) & byteHighs
        let special = zeroBytes(word ^ (0x22 &* byteOnes)) | zeroBytes(word ^ (0x5C &* byteOnes)) | controls | (word & byteHighs)
        if special != 0 {
            index += special.trailingZeroBitCount >> 3
            break
        }
        index += 8
    }
    while index < count {
        switch bytes[index] {
        case 0x22: return index
        case 0x5C: plain = false; index += 2
        case let byte: if byte < 0x20 || byte >= 0x80 { plain = false }; index += 1
        }
    }
    return count
}

/// Where the grammar allows the next token to stand, and the open
/// containers (true for an object).
struct Grammar {
    enum Expecting { case value, valueOrClose, name, nameOrClose, colon, commaOrClose, nextDocument }
    var expecting = Expecting.value
    var open: [Bool] = []
    let lines: Bool

    @inline(__always) var valueMayStand: Bool {
        expecting == .value || expecting == .valueOrClose || (lines && expecting == .nextDocument)
    }

    @inline(__always) mutating func endValue() { expecting = open.isEmpty ? .nextDocument : .commaOrClose }

    @inline(__always) mutating func openContainer(object: Bool) -> Bool {
        guard valueMayStand else { return false }
        open.append(object)
        expecting = object ? .nameOrClose : .valueOrClose
        return true
    }

    @inline(__always) mutating func closeContainer(object: Bool) -> Bool {
        guard open.last == object, expecting == (object ? .nameOrClose : .valueOrClose) || expecting == .commaOrClose else { return false }
        open.removeLast()
        endValue()
        return true
    }

    var isComplete: Bool { open.isEmpty && (expecting == .nextDocument || (lines && expecting == .value)) }
}

/// The end of the number starting at `start`, if its text follows JSON's grammar.
@inline(__always)
func numberEnd(_ bytes: UnsafePointer<UInt8>, _ count: Int, from start: Int) -> Int? {
    var index = start
    func digits() -> Int {
        let first = index
        while index < count, bytes[index] &- 0x30 < 10 { index += 1 }
        return index - first
    }
    if bytes[index] == 0x2D { index += 1 }
    guard index < count else { return nil }
    if bytes[index] == 0x30 { index += 1 } else if digits() == 0 { return nil }
    if index < count, bytes[index] == 0x2E { index += 1; guard digits() > 0 else { return nil } }
    if index < count, bytes[index] | 0x20 == 0x65 {
        index += 1
        if index < count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
        guard digits() > 0 else { return nil }
    }
    return index
}

/// Whether the escapes of the string `start..<end` are JSON's.
func escapesAreValid(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    var index = start
    while index < end {
        if bytes[index] == 0x5C {
            guard index + 1 < end else { return false }
            switch bytes[index + 1] {
            case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: index += 2
            case 0x75:
                guard index + 6 <= end, (2..<6).allSatisfy({ bytes[index + $0].isHexDigit }) else { return false }
                index += 6
            default: return false
            }
        } else {
            if bytes[index] < 0x20 { return false }
            index += 1
        }
    }
    return true
}

extension UInt8 {
    var isHexDigit: Bool { self &- 0x30 < 10 || (self | 0x20) &- 0x61 < 6 }
}

/// What a pass found: counts and a sum, so that none of its work is optimised away.
struct Totals {
    var records = 0, lineCount = 0, slowStrings = 0, hashSum: UInt64 = 0
    /// Where the grammar was first broken (with `validates`).
    var failure: Int?
}

/// Whether a pass checks the grammar: a type, so that each kind of pass is
/// compiled on its own and the plain one carries none of the checks.
protocol PassKind { static var validates: Bool { get } }
enum PlainPass: PassKind { static var validates: Bool { false } }
enum ValidatingPass: PassKind { static var validates: Bool { true } }

/// One pass over the `count` bytes at `bytes` (an NDJSON file if `lines`).
/// Everything it changes is local: globals touched from the loop cost an
/// exclusivity check each.
func scan<Kind: PassKind>(_ bytes: UnsafePointer<UInt8>, _ count: Int, _ kind: Kind.Type, lines: Bool) -> Totals {
    let validates = Kind.validates
    var records = 0, lineCount = 0, slowStrings = 0, hashSum: UInt64 = 0
    var failure: Int?
    let recordDepth = lines ? 1 : 2
    var index = 0, depth = 0
    var memberSum: UInt64 = 0, nameHash: UInt64 = 0, expectingName = false
    var grammar = Grammar(lines: lines)
    grammar.open.reserveCapacity(64)
    scanning: while index < count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0D: index += 1
        case 0x0A: lineCount += 1; index += 1
        case 0x7B:
            if validates {
                guard grammar.openContainer(object: true) else { failure = index; break scanning }
            }
            depth += 1
            if depth == recordDepth { memberSum = 0 }
            expectingName = true
            index += 1
        case 0x7D:
            if validates {
                guard grammar.closeContainer(object: true) else { failure = index; break scanning }
            }
            if depth == recordDepth {
                records += 1
                hashSum &+= avalanche(memberSum)
            }
            depth -= 1
            index += 1
        case 0x5B:
            if validates {
                guard grammar.openContainer(object: false) else { failure = index; break scanning }
            }
            depth += 1
            index += 1
        case 0x5D:
            if validates {
                guard grammar.closeContainer(object: false) else { failure = index; break scanning }
            }
            depth -= 1
            index += 1
        case 0x2C:
            if validates {
                guard grammar.expecting == .commaOrClose else { failure = index; break scanning }
                grammar.expecting = grammar.open.last! ? .name : .value
            }
            expectingName = true
            index += 1
        case 0x3A:
            if validates {
                guard grammar.expecting == .colon else { failure = index; break scanning }
                grammar.expecting = .value
            }
            expectingName = false
            index += 1
        case 0x22:
            var plain = true
            let end = stringEnd(bytes, count, from: index + 1, plain: &plain)
            if !plain { slowStrings += 1 }
            if validates {
                guard end < count, plain || escapesAreValid(bytes, index + 1, end) else { failure = index; break scanning }
                if grammar.expecting == .name || grammar.expecting == .nameOrClose {
                    grammar.expecting = .colon
                } else {
                    guard grammar.valueMayStand else { failure = index; break scanning }
                    grammar.endValue()
                }
            }
            if expectingName {
                nameHash = hash(bytes, index + 1, end, fileSize: count, seed: 1)
            } else {
                memberSum &+= avalanche(nameHash ^ hash(bytes, index + 1, end, fileSize: count, seed: 2))
            }
            index = end + 1
        default:
            // A number or a literal, up to the next delimiter.
            var end = index + 1
            while end < count, bytes[end] != 0x2C, bytes[end] != 0x7D, bytes[end] != 0x5D, bytes[end] > 0x20 { end += 1 }
            if validates {
                guard grammar.valueMayStand else { failure = index; break scanning }
                let literal: StaticString? = switch bytes[index] { case 0x74: "true"; case 0x66: "false"; case 0x6E: "null"; default: nil }
                if let literal {
                    guard end - index == literal.utf8CodeUnitCount,
                          (0..<literal.utf8CodeUnitCount).allSatisfy({ bytes[index + $0] == literal.utf8Start[$0] }) else { failure = index; break scanning }
                } else {
                    guard numberEnd(bytes, count, from: index) == end else { failure = index; break scanning }
                }
                grammar.endValue()
            }
            memberSum &+= avalanche(nameHash ^ hash(bytes, index, end, fileSize: count, seed: 3))
            index = end
        }
    }
    if validates && failure == nil && !grammar.isComplete { failure = count }
    return Totals(records: records, lineCount: lineCount, slowStrings: slowStrings, hashSum: hashSum, failure: failure)
}

let validates = CommandLine.arguments.contains("--validate")
let path = CommandLine.arguments.last!
let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
let totals = data.withUnsafeBytes { raw in
    let bytes = raw.bindMemory(to: UInt8.self).baseAddress!, lines = path.hasSuffix(".ndjson") || path.hasSuffix(".jsonl")
    return validates ? scan(bytes, raw.count, ValidatingPass.self, lines: lines) : scan(bytes, raw.count, PlainPass.self, lines: lines)
}
if let failure = totals.failure {
    print("\(path): invalid JSON at byte \(failure)")
    exit(1)
}
print("\(path): \(totals.records) records, \(totals.lineCount) lines, \(totals.slowStrings) strings for a slow path, \(data.count) bytes (sum \(totals.hashSum))\(validates ? ", valid" : "")")
