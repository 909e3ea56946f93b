import BrowseyAPI

/// Percent-encoding of query values and path segments (RFC 3986: unreserved bytes stay as
/// they are, every other byte becomes `%XX`).
enum QueryString {
    /// `key=value&…` with each part encoded.
    static func make(_ items: [(String, String?)]) -> String {
        items.compactMap { key, value in value.map { "\(encode(key))=\(encode($0))" } }.joined(separator: "&")
    }

    /// One value, encoded.
    static func encode(_ text: String) -> String { PercentEncoding.queryValue(text) }
}
