#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a text file says, from its bytes: UTF-8 (with or without a byte order mark), or UTF-16
/// with one; `nil` for anything that looks binary (a NUL byte in UTF-8, or an odd UTF-16 length).
public enum TextDecoding {
    /// Up to `limit` bytes of an open file, from where it stands; `nil` for a larger file or a
    /// failed read.
    public static func bytes(of descriptor: Int32, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { return nil }
        }
    }

    /// The text of `bytes`, or `nil` when they are not text.
    public static func text(of bytes: UnsafeRawBufferPointer) -> String? {
        switch form(of: bytes.bindMemory(to: UInt8.self)) {
        case .utf8(let body): String(decoding: body, as: UTF8.self)
        case .utf16(let text): text
        case nil: nil
        }
    }

    /// What `bytes` hold as text: UTF-8 (the bytes after a byte order mark, if any, not yet
    /// checked: a reader that needs only ASCII need not decode), UTF-16 (decoded), or `nil` when
    /// they are not text.
    enum Form {
        case utf8(UnsafeBufferPointer<UInt8>)
        case utf16(String)
    }

    /// The form of `bytes` (see ``Form``).
    static func form(of bytes: UnsafeBufferPointer<UInt8>) -> Form? {
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE {
            return utf16(UnsafeBufferPointer(rebasing: bytes[2...]), bigEndian: false).map(Form.utf16)
        }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            return utf16(UnsafeBufferPointer(rebasing: bytes[2...]), bigEndian: true).map(Form.utf16)
        }
        var body = bytes[...]
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { body = bytes[3...] }
        let rebased = UnsafeBufferPointer(rebasing: body)
        if let base = rebased.baseAddress, memchr(base, 0, rebased.count) != nil { return nil }
        return .utf8(rebased)
    }

    /// The text of an array of bytes.
    public static func text(of bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { text(of: $0) }
    }

    private static func utf16(_ bytes: UnsafeBufferPointer<UInt8>, bigEndian: Bool) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 0
        while index < bytes.count {
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            let unit = bigEndian ? first << 8 | second : second << 8 | first
            guard unit != 0 else { return nil }
            units.append(unit)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}
