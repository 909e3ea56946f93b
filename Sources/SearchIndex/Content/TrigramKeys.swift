/// The number under which the content index keeps a trigram: three folded characters. Each
/// ASCII character has a six-bit code (letters of either case and digits their own, the common
/// punctuation and spaces their own, the rest of ASCII sharing), and three ASCII characters are
/// their codes side by side (below 2^18); any other three share 2^18 numbers by a hash of their
/// bytes. A shared code or a hash's collision only names a file that is then read and found not
/// to match: every file the index names is matched again. The numbers are few so that the table
/// a segment is built with (four bytes a number: 2 MiB) stays in the processor's cache.
///
/// ```swift
/// TrigramKeys.key(of: Array("abc".utf8))  // 0 << 12 | 1 << 6 | 2
/// ```
enum TrigramKeys {
    /// How many numbers there are: keys are below this.
    static let count = 1 << 19

    /// Each byte's six-bit code (bytes from 0x80 have none: they are never looked up).
    static let codes: [UInt8] = {
        var codes = [UInt8](repeating: 63, count: 256)
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") {
            codes[Int(byte)] = byte - UInt8(ascii: "a")
            codes[Int(byte - 32)] = byte - UInt8(ascii: "a")
        }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { codes[Int(byte)] = 26 + byte - UInt8(ascii: "0") }
        for (offset, character) in " \n\t.,;:'\"-_()/\\[]{}<>=+*#!?".utf8.enumerated() {
            codes[Int(character)] = 36 + UInt8(offset)
        }
        codes[Int(UInt8(ascii: "\r"))] = codes[Int(UInt8(ascii: "\n"))]
        return codes
    }()

    /// The key of one trigram, given as its folded UTF-8 bytes.
    static func key(of trigram: [UInt8]) -> UInt32 {
        trigram.withUnsafeBufferPointer { bytes in
            bytes.count == 3 && (bytes[0] | bytes[1] | bytes[2]) < 0x80
                ? UInt32(codes[Int(bytes[0])]) << 12 | UInt32(codes[Int(bytes[1])]) << 6
                    | UInt32(codes[Int(bytes[2])])
                : hashed(UnsafeBufferPointer(rebasing: bytes[...]))
        }
    }

    /// Calls `body` with the key of every run of three characters of `text`, in order,
    /// duplicates included. `text` is folded UTF-8 (see ``NameFolding``), but ASCII capitals
    /// need not be lowered (they have the codes of their small letters), so an ASCII file needs
    /// no folded copy. A byte that does not start a UTF-8 character counts as one character.
    /// `ascii` says whether every byte is below 0x80, when the caller knows (`nil`: looked at).
    @inline(__always)
    static func forEach(in text: UnsafeBufferPointer<UInt8>, ascii: Bool? = nil, _ body: (UInt32) -> Void) {
        guard text.count >= 3 else { return }
        codes.withUnsafeBufferPointer { codes in
            if ascii ?? isASCII(text) {
                // The last characters' codes roll through a 64-bit number, masked off the chain.
                var rolling = UInt64(codes[Int(text[0])]) << 6 | UInt64(codes[Int(text[1])])
                for index in 2..<text.count {
                    rolling = rolling << 6 | UInt64(codes[Int(text[index])])
                    body(UInt32(truncatingIfNeeded: rolling) & 0x3_FFFF)
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
                            ? UInt32(codes[Int(text[first])]) << 12 | UInt32(codes[Int(text[first + 1])]) << 6
                                | UInt32(codes[Int(text[first + 2])])
                            : hashed(UnsafeBufferPointer(rebasing: text[first..<index])))
                }
                first = second
                second = start
            }
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

    /// FNV-1a of the bytes, folded into the upper half of the numbers.
    private static func hashed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return 1 << 18 | (hash ^ hash >> 18) & 0x3_FFFF
    }
}
