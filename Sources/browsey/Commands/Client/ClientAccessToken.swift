import BrowseyClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The access token a client command sends as `X-Browsey-Access-Token`: the first line of
/// `--access-token-file` (surrounding whitespace dropped), else `$BROWSEY_ACCESS_TOKEN`, else none.
enum ClientAccessToken {
    /// The variable read when no file is given.
    static let environmentVariable = "BROWSEY_ACCESS_TOKEN"

    /// The token from `file`, or from the environment without one. A file that cannot be read
    /// throws `localFile`; one whose first line is blank throws `invalidInput` (an empty token
    /// protects nothing, and sending none would only be refused later, less clearly).
    static func resolve(file: String?) throws(BrowseyClientError) -> String? {
        guard let file else {
            guard let value = getenv(environmentVariable) else { return nil }
            let token = trimmed(Substring(String(cString: value)))
            return token.isEmpty ? nil : token
        }
        let bytes = try firstBytes(of: file, limit: 64 << 10)
        let firstLine =
            bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        let token = trimmed(Substring(decoding: firstLine, as: UTF8.self))
        guard !token.isEmpty else {
            throw BrowseyClientError(
                .invalidInput, "the access token file \(file) has no token on its first line")
        }
        return token
    }

    /// Up to `limit` bytes from the start of `file`.
    private static func firstBytes(of file: String, limit: Int) throws(BrowseyClientError) -> [UInt8] {
        let descriptor = open(file, O_RDONLY)
        guard descriptor >= 0 else { throw unreadable(file) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let got = bytes[count...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw unreadable(file) }
            if got == 0 { break }
            count += got
        }
        return Array(bytes.prefix(count))
    }

    private static func unreadable(_ file: String) -> BrowseyClientError {
        BrowseyClientError(
            .localFile, "the access token file \(file) cannot be read: \(String(cString: strerror(errno)))")
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
