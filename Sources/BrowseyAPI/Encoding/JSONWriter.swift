/// Writes JSON straight into bytes, for the hot answers (big listings) where a reflective encoder
/// costs 25 times more than the work itself. The output is what `JSONEncoder.browsey()` writes
/// for the same values: compact, keys in the order the caller writes them (sorted, by
/// convention), slashes unescaped, non-ASCII as UTF-8.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    /// Appends raw JSON punctuation or a literal (`{`, `,`, `null`, …).
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `"key":`.
    public mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// Appends a JSON string, escaping quotes, backslashes and control characters.
    public mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        Self.appendEscaped(value.utf8, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a JSON string from a substring.
    public mutating func string(_ value: Substring) {
        bytes.append(UInt8(ascii: "\""))
        Self.appendEscaped(value.utf8, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a JSON string made of bytes already escaped with ``escaped(_:)`` followed by
    /// `suffix`: for many strings that share a long beginning (the folder of a listing).
    public mutating func string(escapedPrefix prefix: [UInt8], _ suffix: String) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: prefix)
        Self.appendEscaped(suffix.utf8, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The escaped inside of a JSON string, without the quotes.
    public static func escaped(_ value: String) -> [UInt8] {
        var result: [UInt8] = []
        appendEscaped(value.utf8, to: &result)
        return result
    }

    private static func appendEscaped<Bytes: Collection<UInt8>>(_ utf8: Bytes, to bytes: inout [UInt8]) {
        if let done: Void = utf8.withContiguousStorageIfAvailable({ appendEscaped(buffer: $0, to: &bytes) }) {
            return done
        }
        Array(utf8).withUnsafeBufferPointer { appendEscaped(buffer: $0, to: &bytes) }
    }

    private static func appendEscaped(buffer utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var start = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
            start = index + 1
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
    }

    /// Appends a string, or `null`.
    public mutating func string(orNull value: String?) {
        if let value { string(value) } else { raw("null") }
    }

    /// Appends an integer.
    public mutating func integer(_ value: Int64) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        while magnitude > 0 {
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        bytes.append(contentsOf: digits.reversed())
    }

    /// Appends `true` or `false`.
    public mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Appends a date in the contract's form, from milliseconds since 1970.
    public mutating func date(millisecondsSince1970 milliseconds: Int64) {
        bytes.append(UInt8(ascii: "\""))
        BrowseyDate.write(millisecondsSince1970: milliseconds, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }
}
