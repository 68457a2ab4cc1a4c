// A cost model, for callgrind, of the records pass a JSON reader of our own
// would make beside (or instead of) yajl: not part of changeset.
//
//   swiftc -O scripts/scan-cost-model.swift -o /tmp/scan-cost-model
//   valgrind --tool=callgrind /tmp/scan-cost-model .build/bench-data/100k/old.json
//
// It walks a JSON array (or NDJSON) of flat record objects: finds each
// record's bounds, hashes every member's name and value word by word (the
// step of changeset's StableHash) into an order-free sum, counts lines, and
// crosses strings eight bytes at a time, noting those with an escape, a
// control byte or a byte past ASCII (which a real reader would take on a
// slow path). It checks no grammar, decodes no escape, keeps no table and
// follows no nesting beyond a depth count: a lower bound on what such a
// pass costs, which docs/performance.md sets beside yajl's own cost
// (`json_verify`) and the reader's. Raw pointers and no bounds checks,
// since a lower bound is the point; one file, so the compiler inlines all of it.
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
        let controls = (word & ~((word | byteHighs) &- (0x20 &* byteOnes))) & byteHighs
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

let path = CommandLine.arguments[1]
let recordDepth = path.hasSuffix(".ndjson") || path.hasSuffix(".jsonl") ? 1 : 2
let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
var records = 0, lines = 0, slowStrings = 0, hashSum: UInt64 = 0
data.withUnsafeBytes { raw in
    guard let bytes = raw.bindMemory(to: UInt8.self).baseAddress else { return }
    let count = raw.count
    var index = 0, depth = 0
    var memberSum: UInt64 = 0, nameHash: UInt64 = 0, expectingName = false
    while index < count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0D: index += 1
        case 0x0A: lines += 1; index += 1
        case 0x7B:
            depth += 1
            if depth == recordDepth { memberSum = 0 }
            expectingName = true
            index += 1
        case 0x7D:
            if depth == recordDepth {
                records += 1
                hashSum &+= avalanche(memberSum)
            }
            depth -= 1
            index += 1
        case 0x5B: depth += 1; index += 1
        case 0x5D: depth -= 1; index += 1
        case 0x2C: expectingName = true; index += 1
        case 0x3A: expectingName = false; index += 1
        case 0x22:
            var plain = true
            let end = stringEnd(bytes, count, from: index + 1, plain: &plain)
            if !plain { slowStrings += 1 }
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
            memberSum &+= avalanche(nameHash ^ hash(bytes, index, end, fileSize: count, seed: 3))
            index = end
        }
    }
}
print("\(path): \(records) records, \(lines) lines, \(slowStrings) strings for a slow path, \(data.count) bytes (sum \(hashSum))")
