/// A 64-bit content hash that is the same in every run and on every machine.
///
/// Swift's `Hasher` is seeded per process, so it cannot give fingerprints that
/// two runs (or a patch file and the run that applies it) agree on. This is a
/// small multiply-rotate hash in the style of xxHash64, finished with
/// MurmurHash3's avalanche step; it is not cryptographic.
package enum StableHash {
    static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let prime3: UInt64 = 0x1656_67B1_9E37_79F9

    /// MurmurHash3's 64-bit finaliser: every input bit affects every output bit.
    @inline(__always)
    package static func avalanche(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k &*= 0xFF51_AFD7_ED55_8CCD
        k ^= k >> 33
        k &*= 0xC4CE_B9FE_1A85_EC53
        k ^= k >> 33
        return k
    }

    /// Order-sensitive combination of two hashes.
    @inline(__always)
    package static func combine(_ a: UInt64, _ b: UInt64) -> UInt64 {
        avalanche(a ^ (b &* prime1 &+ 0x2545_F491_4F6C_DD1D) &+ (a << 6) &+ (a >> 2))
    }

    /// Hash of the bytes of `span`, under a seed that separates kinds of
    /// value: eight bytes a step, the 1-7 left over as one little-endian
    /// number, so the same bytes hash alike on every machine.
    @inline(__always)
    package static func bytes(_ span: Span<UInt8>, seed: UInt64) -> UInt64 {
        var accumulator = Accumulator(seed: seed, count: span.count)
        span.forEachLittleEndianWord { accumulator.add($0) }
        return accumulator.finished
    }

    /// `bytes(_:seed:)` a word at a time, for a caller that reads the words
    /// itself (the CSV reader, from a row where it lies): start with the
    /// byte count, add each little-endian word in order (the 1-7 bytes left
    /// over as one number), then take `finished`.
    struct Accumulator {
        private var h: UInt64

        @inline(__always)
        init(seed: UInt64, count: Int) {
            h = seed &+ prime3 &+ UInt64(truncatingIfNeeded: count) &* prime1
        }

        @inline(__always)
        mutating func add(_ word: UInt64) {
            h ^= (word &* prime2).rotated(31) &* prime1
            h = h.rotated(27) &* prime1 &+ prime3
        }

        @inline(__always)
        var finished: UInt64 { avalanche(h) }
    }

    package static func string(_ text: String, seed: UInt64) -> UInt64 {
        text.withBytes { bytes($0, seed: seed) }
    }

    /// The hash of no bytes.
    package static func empty(seed: UInt64) -> UInt64 {
        avalanche(seed &+ prime3)
    }
}

extension UInt64 {
    @inline(__always)
    func rotated(_ by: UInt64) -> UInt64 { (self << by) | (self >> (64 - by)) }
}
