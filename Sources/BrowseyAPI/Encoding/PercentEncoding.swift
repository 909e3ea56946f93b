/// Percent-encoding of a query value as Browsey writes paths into URLs (RFC 3986's unreserved
/// characters and `/` kept, every other byte as `%XX`): the server's view URLs and the client's
/// requests use the same rule.
///
/// ```swift
/// PercentEncoding.queryValue("/docs/100% done.txt")   // "/docs/100%25%20done.txt"
/// ```
public enum PercentEncoding {
    /// `text` ready to stand as a query value.
    public static func queryValue(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
