/// Reading a cookie from a request's `Cookie` headers (RFC 6265's `name=value; name=value`).
enum CookieHeader {
    /// The value of the cookie called `name` among `headers`, the first one sent; `nil` when
    /// there is none.
    static func value(named name: String, in headers: [String]) -> String? {
        for header in headers {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingSpaces() == name {
                    return parts[1].trimmingSpaces()
                }
            }
        }
        return nil
    }
}
