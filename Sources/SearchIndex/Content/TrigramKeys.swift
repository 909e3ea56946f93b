/// The number under which the content index keeps a trigram: three folded characters. Three
/// ASCII characters are their seven-bit codes side by side (below 2^21, each its own number);
/// any other three share 2^21 numbers by a hash of their bytes. A hash's collisions only name a
/// file that is then read and found not to match: every file the index names is matched again.
///
/// ```swift
/// TrigramKeys.key(of: Array("abc".utf8))  // 97 << 14 | 98 << 7 | 99
/// ```
enum TrigramKeys {
    /// How many numbers there are: keys are below this.
    static let count = 1 << 22

    /// The key of one trigram, given as its folded UTF-8 bytes.
    static func key(of trigram: [UInt8]) -> UInt32 {
        trigram.withUnsafeBufferPointer { bytes in
            bytes.count == 3 && (bytes[0] | bytes[1] | bytes[2]) < 0x80
                ? ascii(bytes[0], bytes[1], bytes[2])
                : hashed(UnsafeBufferPointer(rebasing: bytes[...]))
        }
    }

    /// Calls `body` with the key of every run of three characters of `text`, in order,
    /// duplicates included. `text` is folded UTF-8 (see ``NameFolding``); ASCII capitals are
    /// lowered here, so an ASCII file needs no folded copy. A byte that does not start a UTF-8
    /// character counts as one character.
    @inline(__always)
    static func forEach(in text: UnsafeBufferPointer<UInt8>, _ body: (UInt32) -> Void) {
        guard text.count >= 3 else { return }
        if isASCII(text) {
            var key = UInt32(lower(text[0])) << 7 | UInt32(lower(text[1]))
            for index in 2..<text.count {
                key = (key << 7 | UInt32(lower(text[index]))) & 0x1F_FFFF
                body(key)
            }
            return
        }
        var first = -1
        var second = -1
        var index = 0
        while index < text.count {
            let start = index
            let byte = text[index]
            index += byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            if index > text.count { index = text.count }
            if first >= 0 {
                body(
                    index - first == 3 && (text[first] | text[first + 1] | text[first + 2]) < 0x80
                        ? ascii(lower(text[first]), lower(text[first + 1]), lower(text[first + 2]))
                        : hashed(UnsafeBufferPointer(rebasing: text[first..<index])))
            }
            first = second
            second = start
        }
    }

    /// Whether every byte is below 0x80, eight at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= bytes.count {
            high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 65 < 26 ? byte | 0x20 : byte
    }

    @inline(__always)
    private static func ascii(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> UInt32 {
        UInt32(first) << 14 | UInt32(second) << 7 | UInt32(third)
    }

    /// FNV-1a of the bytes, folded into the upper half of the numbers.
    private static func hashed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return 1 << 21 | (hash ^ hash >> 21) & 0x1F_FFFF
    }
}
