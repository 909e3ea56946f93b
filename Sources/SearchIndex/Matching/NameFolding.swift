@_spi(_Unicode) import Swift

/// How names and queries are compared: lowercased, decomposed (NFD) with the accents dropped, so
/// that `resume` finds `Résumé.pdf` whichever normalization the file system used; and a 64-bit
/// summary of which characters a folded name holds, which rules most names out with one `AND`.
enum NameFolding {
    /// Appends the folded form of a name's UTF-8 bytes.
    static func fold(_ name: UnsafeBufferPointer<UInt8>, into folded: inout [UInt8]) {
        if name.allSatisfy({ $0 < 0x80 }) {
            for byte in name { folded.append(byte &+ (byte >= 65 && byte <= 90 ? 32 : 0)) }
            return
        }
        for scalar in String(decoding: name, as: UTF8.self).lowercased()._nfd
        where !(0x300...0x36F).contains(scalar.value) {
            folded.append(contentsOf: UTF8.encode(scalar).map { Array($0) } ?? [])
        }
    }

    /// The folded form of a string (a query).
    static func fold(_ text: String) -> [UInt8] {
        var text = text
        var folded: [UInt8] = []
        text.withUTF8 { fold($0, into: &folded) }
        return folded
    }

    /// Which of 64 character classes occur: letters and digits have a bit each, the rest share.
    static func mask(_ folded: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var mask: UInt64 = 0
        for byte in folded { mask |= 1 << UInt64(bit(byte)) }
        return mask
    }

    /// Which of 32 classes of adjacent byte pairs occur: a name holding a query as a substring
    /// holds every pair of the query, so once only substrings can still enter the results, this
    /// rules out most other names with one `AND`. Four bytes a name: 64 classes ruled out a few
    /// more names, and cost 4 MiB more over a million names.
    static func pairMask(_ folded: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard folded.count > 1 else { return 0 }
        var mask: UInt32 = 0
        for index in 1..<folded.count {
            mask |= 1 << UInt32(pairBit(folded[index - 1], folded[index]))
        }
        return mask
    }

    /// The class of an adjacent pair: the top five bits of a multiplicative hash, 0...31. (The
    /// parentheses matter: Swift shifts before it multiplies.)
    @inline(__always)
    static func pairBit(_ first: UInt8, _ second: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: ((UInt32(first) &* 31 &+ UInt32(second)) &* 2_654_435_761) >> 27)
    }

    @inline(__always)
    static func bit(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 97...122: byte - 97  // a-z: 0...25
        case 48...57: byte - 48 + 26  // 0-9: 26...35
        case 0..<0x80: 36 + byte % 12  // other ASCII: 36...47
        default: 48 + byte % 16  // bytes of other scalars: 48...63
        }
    }
}
