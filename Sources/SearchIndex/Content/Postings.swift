/// How one segment keeps which of its files hold one trigram: the files' places in the segment
/// (file id minus the segment's first id, below 65,536), as whichever is smaller of a list of
/// 16-bit places (first byte 0) or a bitmap of 64-bit words (first byte 1; trailing empty words
/// left out). Little-endian both.
///
/// A trigram in nearly every file costs one bit a file; one in a few files, two bytes each.
enum Postings {

    /// How many 64-bit words a bitmap of `span` files takes.
    static func words(span: Int) -> Int { (span + 63) >> 6 }

    /// The smaller encoding of `bitmap` (a segment's words, `count` bits set).
    static func encode(_ bitmap: UnsafeBufferPointer<UInt64>, count: Int) -> [UInt8] {
        var used = bitmap.count
        while used > 0 && bitmap[used - 1] == 0 { used -= 1 }
        if count * 2 < used * 8 {
            return [UInt8](unsafeUninitializedCapacity: 1 + count * 2) { bytes, initialized in
                bytes[0] = 0
                var offset = 1
                for word in 0..<used {
                    var bits = bitmap[word]
                    while bits != 0 && offset + 2 <= bytes.count {
                        let place = word << 6 | bits.trailingZeroBitCount
                        bytes[offset] = UInt8(truncatingIfNeeded: place)
                        bytes[offset + 1] = UInt8(truncatingIfNeeded: place >> 8)
                        offset += 2
                        bits &= bits - 1
                    }
                }
                initialized = offset
            }
        }
        return [UInt8](unsafeUninitializedCapacity: 1 + used * 8) { bytes, initialized in
            bytes[0] = 1
            let raw = UnsafeMutableRawBufferPointer(bytes)
            for word in 0..<used {
                raw.storeBytes(of: bitmap[word].littleEndian, toByteOffset: 1 + word * 8, as: UInt64.self)
            }
            initialized = 1 + used * 8
        }
    }

    /// Applies encoded `data` to `bitmap`: sets its bits (`intersect` false) or keeps only the
    /// bits both have (`intersect` true). Places past the bitmap are ignored.
    static func apply(
        _ data: UnsafeRawBufferPointer, to bitmap: UnsafeMutableBufferPointer<UInt64>, intersect: Bool
    ) {
        guard let tag = data.first else {
            if intersect { bitmap.update(repeating: 0) }
            return
        }
        if tag == 1 {
            let words = min((data.count - 1) / 8, bitmap.count)
            for word in 0..<words {
                let value = UInt64(
                    littleEndian: data.loadUnaligned(fromByteOffset: 1 + word * 8, as: UInt64.self))
                bitmap[word] = intersect ? bitmap[word] & value : bitmap[word] | value
            }
            if intersect && words < bitmap.count {
                bitmap[words...].update(repeating: 0)
            }
            return
        }
        if intersect {
            // Keep the listed places that are set: gather them, clear, set them again.
            var kept: [Int] = []
            forEachListed(in: data) { place in
                if place >> 6 < bitmap.count, bitmap[place >> 6] & (1 << UInt64(place & 63)) != 0 {
                    kept.append(place)
                }
            }
            bitmap.update(repeating: 0)
            for place in kept { bitmap[place >> 6] |= 1 << UInt64(place & 63) }
        } else {
            forEachListed(in: data) { place in
                if place >> 6 < bitmap.count { bitmap[place >> 6] |= 1 << UInt64(place & 63) }
            }
        }
    }

    /// Calls `body` with every place `data` holds, in order.
    static func forEachPlace(in data: UnsafeRawBufferPointer, _ body: (Int) -> Void) {
        guard let tag = data.first else { return }
        guard tag == 1 else { return forEachListed(in: data, body) }
        for word in 0..<(data.count - 1) / 8 {
            var bits = UInt64(littleEndian: data.loadUnaligned(fromByteOffset: 1 + word * 8, as: UInt64.self))
            while bits != 0 {
                body(word << 6 | bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
    }

    private static func forEachListed(in data: UnsafeRawBufferPointer, _ body: (Int) -> Void) {
        var offset = 1
        while offset + 2 <= data.count {
            body(Int(data[offset]) | Int(data[offset + 1]) << 8)
            offset += 2
        }
    }
}
