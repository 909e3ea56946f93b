/// Percent-encoding of query values and path segments (RFC 3986: unreserved bytes stay as
/// they are, every other byte becomes `%XX`).
enum QueryString {
    /// `key=value&…` with each part encoded.
    static func make(_ items: [(String, String?)]) -> String {
        items.compactMap { key, value in value.map { "\(encode(key))=\(encode($0))" } }.joined(separator: "&")
    }

    /// One value, encoded.
    static func encode(_ text: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0xF)]))
            }
        }
        return encoded
    }
}
