/// Writes JSON straight into bytes, for the hot answers (big listings) where a reflective encoder
/// costs 25 times more than the work itself. The output is what `JSONEncoder.browsey()` writes
/// for the same values: compact, keys in the order the caller writes them (sorted, by
/// convention), slashes unescaped, non-ASCII as UTF-8.
public struct JSONWriter {
    /// Where the bytes go: a growable buffer written with `memcpy`, without the uniqueness and
    /// capacity checks of an `Array` on every byte (they cost more than the JSON itself).
    @usableFromInline final class Storage {
        // Unchecked: a class's stored properties are otherwise checked for exclusive access at
        // run time on every byte written, which cost more than writing the JSON itself.
        @exclusivity(unchecked) @usableFromInline var start: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) @usableFromInline var count = 0
        @exclusivity(unchecked) @usableFromInline var capacity: Int

        @usableFromInline init(capacity: Int) {
            self.capacity = max(capacity, 64)
            start = .allocate(capacity: self.capacity)
        }

        deinit { start.deallocate() }

        @inlinable @inline(__always) func reserve(_ extra: Int) {
            guard count + extra > capacity else { return }
            let grown = max(capacity * 2, count + extra)
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            larger.update(from: start, count: count)
            start.deallocate()
            start = larger
            capacity = grown
        }

        @inlinable @inline(__always) func append(_ byte: UInt8) {
            reserve(1)
            start[count] = byte
            count += 1
        }

        @inlinable @inline(__always) func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            reserve(bytes.count)
            (start + count).update(from: base, count: bytes.count)
            count += bytes.count
        }

        /// A literal's bytes, without the closure (and the retain) of `withUTF8Buffer` when, as
        /// for every string literal, they are a pointer.
        @inlinable @inline(__always) func append(literal text: StaticString) {
            if text.hasPointerRepresentation {
                append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
            } else {
                text.withUTF8Buffer { append($0) }
            }
        }

        @inlinable func append(contentsOf bytes: [UInt8]) { bytes.withUnsafeBufferPointer { append($0) } }

        /// The day the last date was on, and its text.
        @exclusivity(unchecked) var lastDay = BrowseyDate.LastDay()

        /// A date in quotes, 26 bytes.
        func appendDate(millisecondsSince1970 milliseconds: Int64) {
            reserve(26)
            start[count] = UInt8(ascii: "\"")
            BrowseyDate.write(millisecondsSince1970: milliseconds, to: start + count + 1, day: &lastDay)
            start[count + 25] = UInt8(ascii: "\"")
            count += 26
        }
    }

    @usableFromInline let storage: Storage

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 1024) { storage = Storage(capacity: capacity) }

    /// The bytes written so far, copied into an array.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.start, count: storage.count)) }

    /// How many bytes have been written.
    public var count: Int { storage.count }

    /// Lends the bytes written so far, without copying them.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage.start, count: storage.count))
    }

    /// Appends raw JSON punctuation or a literal (`{`, `,`, `null`, …).
    @inlinable public mutating func raw(_ text: StaticString) {
        storage.append(literal: text)
    }

    /// Appends `"key":`.
    @inlinable public mutating func key(_ name: StaticString) {
        storage.append(UInt8(ascii: "\""))
        storage.append(literal: name)
        storage.append(UInt8(ascii: "\""))
        storage.append(UInt8(ascii: ":"))
    }

    /// Appends a JSON string, escaping quotes, backslashes and control characters.
    public mutating func string(_ value: String) {
        storage.append(UInt8(ascii: "\""))
        appendEscaped(value.utf8)
        storage.append(UInt8(ascii: "\""))
    }

    /// Appends a JSON string from a substring.
    public mutating func string(_ value: Substring) {
        storage.append(UInt8(ascii: "\""))
        appendEscaped(value.utf8)
        storage.append(UInt8(ascii: "\""))
    }

    /// Appends a JSON string made of bytes already escaped with ``escaped(_:)`` followed by
    /// `suffix`: for many strings that share a long beginning (the folder of a listing).
    public mutating func string(escapedPrefix prefix: [UInt8], _ suffix: String) {
        storage.append(UInt8(ascii: "\""))
        storage.append(contentsOf: prefix)
        appendEscaped(suffix.utf8)
        storage.append(UInt8(ascii: "\""))
    }

    /// Appends a JSON string from UTF-8 bytes, such as a file name as the system gives it; an
    /// invalid sequence is written as U+FFFD, as `String(decoding:as:)` reads it.
    public mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        string(escapedPrefix: [], utf8: bytes)
    }

    /// Appends a JSON string made of bytes already escaped with ``escaped(_:)`` followed by
    /// UTF-8 bytes (see ``string(utf8:)``).
    public mutating func string(escapedPrefix prefix: [UInt8], utf8 suffix: UnsafeBufferPointer<UInt8>) {
        storage.append(UInt8(ascii: "\""))
        storage.append(contentsOf: prefix)
        // One pass decides: plain ASCII (most names) is copied as it is.
        if suffix.allSatisfy({ $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C }) {
            storage.append(suffix)
        } else if suffix.allSatisfy({ $0 < 0x80 }) {
            appendEscaped(buffer: suffix)
        } else {
            appendEscaped(String(decoding: suffix, as: UTF8.self).utf8)
        }
        storage.append(UInt8(ascii: "\""))
    }

    /// The escaped inside of a JSON string, without the quotes.
    public static func escaped(_ value: String) -> [UInt8] {
        var writer = JSONWriter(capacity: value.utf8.count + 16)
        writer.appendEscaped(value.utf8)
        return writer.bytes
    }

    private mutating func appendEscaped<Bytes: Collection<UInt8>>(_ utf8: Bytes) {
        if utf8.withContiguousStorageIfAvailable({ appendEscaped(buffer: $0) }) == nil {
            Array(utf8).withUnsafeBufferPointer { appendEscaped(buffer: $0) }
        }
    }

    private func appendEscaped(buffer utf8: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            storage.append(UnsafeBufferPointer(rebasing: utf8[start..<index]))
            start = index + 1
            storage.append(0x5C)
            switch byte {
            case 0x22: storage.append(0x22)
            case 0x5C: storage.append(0x5C)
            case 0x0A: storage.append(UInt8(ascii: "n"))
            case 0x0D: storage.append(UInt8(ascii: "r"))
            case 0x09: storage.append(UInt8(ascii: "t"))
            case 0x08: storage.append(UInt8(ascii: "b"))
            case 0x0C: storage.append(UInt8(ascii: "f"))
            default:
                let hex: StaticString = "0123456789abcdef"
                hex.withUTF8Buffer { digits in
                    storage.append(UInt8(ascii: "u"))
                    storage.append(0x30)
                    storage.append(0x30)
                    storage.append(digits[Int(byte >> 4)])
                    storage.append(digits[Int(byte & 0xF)])
                }
            }
        }
        storage.append(UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
    }

    /// Appends a string, or `null`.
    public mutating func string(orNull value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    /// Appends an integer.
    @inlinable public mutating func integer(_ value: Int64) {
        if value < 0 { storage.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { scratch in
            var position = scratch.count
            repeat {
                position -= 1
                scratch[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            storage.append(UnsafeBufferPointer(rebasing: scratch.bindMemory(to: UInt8.self)[position...]))
        }
    }

    /// Appends `true` or `false`.
    @inlinable public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Appends a date in the contract's form, from milliseconds since 1970.
    public mutating func date(millisecondsSince1970 milliseconds: Int64) {
        storage.appendDate(millisecondsSince1970: milliseconds)
    }
}
