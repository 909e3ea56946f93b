/// A fast 128-bit digest of bytes, the same on every run and machine: xxHash64's stripe loop
/// (four 64-bit lanes, 32 bytes a step, multiply and rotate), with two ways of folding the lanes
/// into the two halves. Not for secrets or signatures; for telling two versions of an answer
/// apart (``BodyTag``).
enum BodyDigest {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The digest of `bytes`, started from `seed`.
    static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> (UInt64, UInt64) {
        let count = bytes.count
        var offset = 0
        var first: UInt64
        var second: UInt64
        if count >= 32 {
            var lanes = (
                seed &+ prime1 &+ prime2, seed &+ prime2, seed, seed &- prime1
            )
            while offset + 32 <= count {
                lanes.0 = round(lanes.0, word(bytes, offset))
                lanes.1 = round(lanes.1, word(bytes, offset + 8))
                lanes.2 = round(lanes.2, word(bytes, offset + 16))
                lanes.3 = round(lanes.3, word(bytes, offset + 24))
                offset += 32
            }
            first = rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
            for lane in [lanes.0, lanes.1, lanes.2, lanes.3] { first = merge(first, lane) }
            // The second half folds the lanes the other way round, from another start.
            second = rotate(lanes.3, 5) &+ rotate(lanes.2, 11) &+ rotate(lanes.1, 23) &+ rotate(lanes.0, 37)
            for lane in [lanes.3, lanes.2, lanes.1, lanes.0] { second = merge(second ^ prime5, lane) }
        } else {
            first = seed &+ prime5
            second = seed &+ prime3
        }
        first &+= UInt64(count)
        second &+= UInt64(count) &* prime1
        while offset + 8 <= count {
            let value = round(0, word(bytes, offset))
            first = rotate(first ^ value, 27) &* prime1 &+ prime4
            second = rotate(second ^ value, 31) &* prime2 &+ prime3
            offset += 8
        }
        while offset < count {
            let value = UInt64(bytes[offset])
            first = rotate(first ^ (value &* prime5), 11) &* prime1
            second = rotate(second ^ (value &* prime1), 13) &* prime2
            offset += 1
        }
        return (avalanche(first), avalanche(second ^ first))
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    private static func merge(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
        (accumulator ^ round(0, lane)) &* prime1 &+ prime4
    }

    private static func avalanche(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }
}
