@_spi(_Unicode) import Swift

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Names prepared for the order people expect: case and accents ignored (`é` sorts with `e`,
/// NFC and NFD spellings are equal), runs of digits compared by value (`file 2` before
/// `file 10`), and the exact name as the last tie-breaker so the order is total and the same on
/// every platform.
///
/// Each name is folded once into a byte key that plain `memcmp` orders correctly: lowercase UTF-8,
/// with each run of digits written as `0`, the count of its significant digits, then those
/// digits. Every `0` of the key starts such a run, so a run meets another run or a character,
/// and compares as the old digit-by-digit rules did.
enum NaturalName {
    /// Appends the sort key of `name` to `folded` (for many names in one buffer).
    static func appendKey(of name: String, into folded: inout [UInt8]) {
        var copy = name
        copy.withUTF8 { appendKey(ofUTF8: $0, into: &folded) }
    }

    /// Appends the sort key of a name given as UTF-8 bytes (invalid sequences read as U+FFFD).
    static func appendKey(ofUTF8 utf8: UnsafeBufferPointer<UInt8>, into folded: inout [UInt8]) {
        if utf8.allSatisfy({ $0 < 0x80 }) {
            Self.appendASCIIKey(utf8, into: &folded)
            return
        }
        // Canonical decomposition (NFD) with the combining marks dropped folds accents and makes
        // NFC and NFD spellings equal; the standard library's decomposition is used so that
        // FileTree needs no ICU (Foundation's `folding(options:)` lives there).
        var lowered = ""
        for scalar in String(decoding: utf8, as: UTF8.self)._nfd
        where scalar.properties.canonicalCombiningClass == .notReordered {
            lowered += scalar.properties.lowercaseMapping
        }
        Self.appendKey(lowered.utf8, into: &folded)
    }

    /// The key of an ASCII name, straight from its bytes, written into a scratch buffer and
    /// appended at once (an `Array` append per byte costs more than the folding).
    private static func appendASCIIKey(_ utf8: UnsafeBufferPointer<UInt8>, into key: inout [UInt8]) {
        // A key is at most 3 bytes for every 2 of the name (a one-digit run between letters).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count * 2 + 2) { scratch in
            var written = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte >= 0x30 && byte <= 0x39 {
                    var end = index
                    while end < utf8.count && utf8[end] >= 0x30 && utf8[end] <= 0x39 { end += 1 }
                    var significant = index
                    while significant < end - 1 && utf8[significant] == 0x30 { significant += 1 }
                    scratch[written] = 0x30
                    scratch[written + 1] = UInt8(min(end - significant, 255))
                    written += 2
                    for digit in significant..<end {
                        scratch[written] = utf8[digit]
                        written += 1
                    }
                    index = end
                } else {
                    scratch[written] = byte >= 65 && byte <= 90 ? byte + 32 : byte
                    written += 1
                    index += 1
                }
            }
            key.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written]))
        }
    }

    private static func appendKey(_ bytes: some Sequence<UInt8>, into key: inout [UInt8]) {
        var digits: [UInt8] = []
        func flush() {
            guard !digits.isEmpty else { return }
            var significant = digits[...]
            while significant.count > 1 && significant.first == 0x30 { significant = significant.dropFirst() }
            key.append(0x30)
            key.append(UInt8(min(significant.count, 255)))
            key.append(contentsOf: significant)
            digits.removeAll(keepingCapacity: true)
        }
        for byte in bytes {
            if byte >= 0x30 && byte <= 0x39 {
                digits.append(byte)
            } else {
                flush()
                key.append(byte)
            }
        }
        flush()
    }

    /// `memcmp` order of two keys, the shorter first when one is a prefix of the other.
    @inline(__always)
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        guard common > 0, let left = a.baseAddress, let right = b.baseAddress else {
            return a.count - b.count
        }
        // Eight bytes at a time, read big-endian so that integer order is byte order: names are
        // short and share long beginnings, where a call to `memcmp` costs more than the work.
        var offset = 0
        while offset + 8 <= common {
            let leftWord = UnsafeRawPointer(left + offset).loadUnaligned(as: UInt64.self).bigEndian
            let rightWord = UnsafeRawPointer(right + offset).loadUnaligned(as: UInt64.self).bigEndian
            if leftWord != rightWord { return leftWord < rightWord ? -1 : 1 }
            offset += 8
        }
        while offset < common {
            if left[offset] != right[offset] { return Int(left[offset]) - Int(right[offset]) }
            offset += 1
        }
        return a.count - b.count
    }
}
