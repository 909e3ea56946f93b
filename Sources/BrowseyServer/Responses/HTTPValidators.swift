import FileTree
import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The header logic of file responses: validators, conditional requests, ranges, and
/// `Content-Disposition`.
enum HTTPValidators {
    /// A strong validator that changes with any write: inode, size and the nanosecond mtime, in
    /// hexadecimal (`"inode-size-nanoseconds"`).
    static func etag(_ status: FileStatus) -> String {
        var buffer = ByteBuffer()
        writeETag(status, into: &buffer)
        return String(buffer: buffer)
    }

    /// Writes ``etag(_:)`` without making a string, between `quote`s: `"` for a header,
    /// `&quot;` inside XML (WebDAV's `getetag`). The one place its format is written.
    static func writeETag(_ status: FileStatus, quote: StaticString = "\"", into output: inout ByteBuffer) {
        let nanos = Int64(status.modified.seconds) * 1_000_000_000 + Int64(status.modified.nanoseconds)
        output.writeStaticString(quote)
        writeHex(status.inode, into: &output)
        output.writeInteger(UInt8(ascii: "-"))
        writeHex(status.size, into: &output)
        output.writeInteger(UInt8(ascii: "-"))
        writeHex(nanos, into: &output)
        output.writeStaticString(quote)
    }

    /// `value` in lowercase hexadecimal, as `String(value, radix: 16)` writes it.
    private static func writeHex(_ value: some BinaryInteger, into output: inout ByteBuffer) {
        if value < 0 { output.writeInteger(UInt8(ascii: "-")) }
        let magnitude = UInt64(value.magnitude)
        let digits = max(1, (64 - magnitude.leadingZeroBitCount + 3) / 4)
        for index in stride(from: digits - 1, through: 0, by: -1) {
            let digit = UInt8(truncatingIfNeeded: magnitude >> UInt64(index * 4)) & 0xF
            output.writeInteger(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Seconds since 1970 of an IMF-fixdate, `nil` for anything else.
    static func parseHTTPDate(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int32(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int32(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int32($0) }
        guard clock.count == 3 else { return nil }
        var components = tm()
        components.tm_year = year - 1900
        components.tm_mon = Int32(month)
        components.tm_mday = day
        components.tm_hour = clock[0]
        components.tm_min = clock[1]
        components.tm_sec = clock[2]
        return Int64(timegm(&components))
    }

    /// Whether the client's copy is current: `If-None-Match` when present, else
    /// `If-Modified-Since`.
    static func isNotModified(_ headers: HTTPFields, etag: String, modifiedSeconds: Int64) -> Bool {
        if let match = headers[.ifNoneMatch] {
            return listContains(match, etag: etag, weak: true)
        }
        if let since = headers[.ifModifiedSince].flatMap(parseHTTPDate) { return modifiedSeconds <= since }
        return false
    }

    /// Whether an `If-Match` / `If-None-Match` list names `etag` (`*` names any). `If-Match`
    /// compares strongly (RFC 9110): a weak `W/` tag never matches it.
    static func listContains(_ list: String, etag: String, weak: Bool = false) -> Bool {
        list.trimmingSpaces() == "*"
            || list.split(separator: ",").contains { tag in
                let trimmed = tag.trimmingSpaces()
                return trimmed == etag || (weak && trimmed == "W/" + etag)
            }
    }

    /// Whether a `Range` applies: no `If-Range`, or one that still matches.
    static func rangeApplies(_ headers: HTTPFields, etag: String, lastModified: String) -> Bool {
        guard let condition = headers[.ifRange] else { return true }
        return condition == etag || condition == lastModified
    }

    enum RangeAnswer: Equatable {
        case range(ClosedRange<Int>)
        case unsatisfiable
    }

    /// A single `bytes=` range (`a-b`, `a-`, `-n`); `nil` to ignore the header (malformed or
    /// several ranges: the whole file is sent, as RFC 9110 allows).
    static func parseRange(_ header: String, size: Int) -> RangeAnswer? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).trimmingSpaces()
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]) else { return nil }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .range(max(0, size - suffix)...(size - 1))
        }
        guard let start = Int(parts[0]), start >= 0 else { return nil }
        guard start < size else { return .unsatisfiable }
        if parts[1].isEmpty { return .range(start...(size - 1)) }
        guard let end = Int(parts[1]), end >= start else { return nil }
        return .range(start...min(end, size - 1))
    }

    /// `attachment` (or `inline`) with an ASCII `filename` and, for other names, RFC 6266's
    /// `filename*` in UTF-8.
    static func contentDisposition(_ name: String, attachment: Bool) -> String {
        let kind = attachment ? "attachment" : "inline"
        let ascii = String(
            name.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\"
                    && scalar.value != 0x7F
                    ? Character(scalar) : "_"
            })
        var value = "\(kind); filename=\"\(ascii)\""
        if ascii != name || name.contains("%") {
            let encoded = name.utf8.map { byte -> String in
                let safe =
                    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                    || (byte >= 0x61 && byte <= 0x7A)
                    || "!#$&+-.^_`|~".utf8.contains(byte)
                let hex = String(byte, radix: 16, uppercase: true)
                return safe ? String(UnicodeScalar(byte)) : (byte < 0x10 ? "%0" : "%") + hex
            }.joined()
            value += "; filename*=UTF-8''\(encoded)"
        }
        return value
    }
}
