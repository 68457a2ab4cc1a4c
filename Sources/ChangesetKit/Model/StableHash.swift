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

    /// Hash of `count` bytes at `base`, under a seed that separates kinds of value.
    @inline(__always)
    package static func bytes(_ base: UnsafeRawPointer?, count: Int, seed: UInt64) -> UInt64 {
        var h = seed &+ prime3 &+ UInt64(truncatingIfNeeded: count) &* prime1
        guard let base, count > 0 else { return avalanche(h) }
        var offset = 0
        while offset + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            h ^= (word &* prime2).rotated(31) &* prime1
            h = h.rotated(27) &* prime1 &+ prime3
            offset += 8
        }
        if offset < count {
            // The 1-7 bytes left, as a little-endian number (the same value a
            // byte-by-byte loop would build), read with at most two loads.
            let left = count - offset
            let tail: UInt64
            if count >= 8 {
                tail = base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> UInt64(64 - 8 * left)
            } else if left >= 4 {
                let low = UInt64(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                let high = UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
                tail = low | high << UInt64(8 * (left - 4))
            } else {
                var bytes: UInt64 = 0
                for index in 0..<left {
                    bytes |= UInt64(base.load(fromByteOffset: offset + index, as: UInt8.self)) << UInt64(8 * index)
                }
                tail = bytes
            }
            h ^= (tail &* prime2).rotated(31) &* prime1
            h = h.rotated(27) &* prime1 &+ prime3
        }
        return avalanche(h)
    }

    package static func bytes(_ buffer: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        bytes(buffer.baseAddress, count: buffer.count, seed: seed)
    }

    package static func string(_ text: String, seed: UInt64) -> UInt64 {
        var copy = text
        return copy.withUTF8 { bytes(UnsafeRawBufferPointer($0), seed: seed) }
    }
}

extension UInt64 {
    @inline(__always)
    func rotated(_ by: UInt64) -> UInt64 { (self << by) | (self >> (64 - by)) }
}
