import NIOCore

/// Where WebDAV lives (`/dav/`), and the translation between its URLs and paths in the served
/// folder: a request's path percent-decoded once into the path ``SafePath`` resolves, and a
/// path encoded back into the `href` a multistatus answers with.
public enum DAVPath {
    /// The prefix of every WebDAV URL.
    public static let prefix = "/dav"

    /// Whether a request path is WebDAV's (`/dav` or below).
    public static func isDAV(_ path: some StringProtocol) -> Bool {
        path == prefix || path.hasPrefix(prefix + "/")
    }

    /// The path below the root that a raw (still percent-encoded) URL path names, `nil` when it
    /// is not WebDAV's or cannot be decoded (a bad escape, bytes that are not UTF-8, an encoded
    /// NUL or slash, a fragment).
    static func relative(fromURLPath raw: some StringProtocol) -> String? {
        guard isDAV(raw), !raw.contains("#") else { return nil }
        guard let decoded = percentDecoded(raw.dropFirst(prefix.count)) else { return nil }
        return decoded.isEmpty ? "/" : decoded
    }

    /// The path a `Destination` header names: an absolute URL on this server (`http://host/dav/x`)
    /// or an absolute path (`/dav/x`). `nil` for anything else; `foreignHost` is set when the URL
    /// names another authority than `authority`.
    static func destination(
        _ header: String, authority: String?
    ) -> (path: String?, foreignHost: Bool) {
        let trimmed = header.trimmingSpaces()
        if trimmed.hasPrefix("/") { return (relative(fromURLPath: trimmed), false) }
        guard let scheme = trimmed.firstRange(of: "://") else { return (nil, false) }
        let rest = trimmed[scheme.upperBound...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let host = rest[..<slash]
        if let authority, !sameAuthority(host, authority, scheme: trimmed[..<scheme.lowerBound]) {
            return (nil, true)
        }
        let path = rest[slash...]
        let withoutQuery =
            path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return (relative(fromURLPath: withoutQuery.isEmpty ? "/" : withoutQuery), false)
    }

    private static func sameAuthority(_ host: Substring, _ authority: String, scheme: Substring) -> Bool {
        let port = scheme.lowercased() == "https" ? ":443" : ":80"
        func normal(_ text: some StringProtocol) -> String {
            let lowered = text.lowercased()
            let hasPort = lowered.hasPrefix("[") ? lowered.contains("]:") : lowered.contains(":")
            return hasPort ? lowered : lowered + port
        }
        return normal(host) == normal(authority)
    }

    /// The href of a path below the root: `/dav` and each component percent-encoded (everything
    /// but unreserved characters and sub-delimiters that are safe in a path), a folder with a
    /// trailing slash.
    static func href(_ relative: String, isFolder: Bool) -> String {
        var output = ByteBuffer()
        writeHref(relative, isFolder: isFolder, into: &output)
        return String(buffer: output)
    }

    /// ``href(_:isFolder:)``, written into `output`. The href needs no XML escaping: what it
    /// keeps unencoded holds none of XML's special characters.
    static func writeHref(_ relative: String, isFolder: Bool, into output: inout ByteBuffer) {
        output.writeString(prefix)
        // Most paths need nothing encoded and are already in their one spelling.
        var previous: UInt8 = 0
        let plain = relative.utf8.allSatisfy { byte in
            defer { previous = byte }
            return byte == UInt8(ascii: "/") ? previous != byte : isUnreserved(byte)
        }
        if plain && relative.utf8.count > 1 && previous != UInt8(ascii: "/") {
            output.writeString(relative)
            if isFolder { output.writeInteger(UInt8(ascii: "/")) }
            return
        }
        var wroteComponent = false
        var previousWasSlash = true
        for byte in relative.utf8 {
            if byte == UInt8(ascii: "/") {
                previousWasSlash = true
                continue
            }
            if previousWasSlash { output.writeInteger(UInt8(ascii: "/")) }
            previousWasSlash = false
            wroteComponent = true
            if isUnreserved(byte) {
                output.writeInteger(byte)
            } else {
                output.writeInteger(UInt8(ascii: "%"))
                output.writeInteger(hexBytes[Int(byte >> 4)])
                output.writeInteger(hexBytes[Int(byte & 0xF)])
            }
        }
        if isFolder || !wroteComponent { output.writeInteger(UInt8(ascii: "/")) }
    }

    private static let hexBytes: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `component` percent-encoded for one path segment, appended to `output`.
    static func encode(_ component: some StringProtocol, into output: inout String) {
        for byte in component.utf8 {
            if isUnreserved(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += "%"
                output.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                output.unicodeScalars.append(hexDigits[Int(byte & 0xF)])
            }
        }
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789ABCDEF".unicodeScalars)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default: false
        }
    }

    /// `%XX` escapes decoded once; `nil` for a bad escape, an encoded NUL or `/`, or bytes that
    /// are not UTF-8.
    static func percentDecoded(_ text: some StringProtocol) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
            else {
                return nil
            }
            let decoded = high << 4 | low
            if decoded == 0 || decoded == UInt8(ascii: "/") { return nil }
            bytes.append(decoded)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
