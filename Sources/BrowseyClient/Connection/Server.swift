#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A Browsey server a person connects to: where it is, how to sign in, and when it was last
/// reached.
public struct Server: Codable, Sendable, Hashable, Identifiable {
    /// `http` or `https`.
    public enum Scheme: String, Codable, Sendable, Hashable {
        case http, https
    }

    /// `scheme://host:port`, which two saved servers never share.
    public var id: String { "\(scheme.rawValue)://\(authority)" }
    /// The name shown for it.
    public var name: String
    /// A host name or an IP address (an IPv6 address without brackets).
    public var host: String
    /// The TCP port.
    public var port: Int
    /// `http` or `https`.
    public var scheme: Scheme
    /// The token sent as `Authorization: Bearer`, when the server asks for one.
    public var token: String?
    /// When a request last succeeded.
    public var lastConnected: Date?
    /// Who is signed in, on a server with accounts (the token is their session's).
    public var username: String?

    /// A server at `host:port`; throws `invalidInput` for an empty or malformed host or a port
    /// outside 1…65535.
    public init(
        name: String? = nil, host: String, port: Int, scheme: Scheme = .http, token: String? = nil,
        lastConnected: Date? = nil
    ) throws(BrowseyClientError) {
        var host = String(host.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard Self.isValidHost(host) else {
            throw BrowseyClientError(.invalidInput, "\"\(host)\" is not a host name or an IP address")
        }
        guard (1...65_535).contains(port) else {
            throw BrowseyClientError(.invalidInput, "the port must be between 1 and 65535, not \(port)")
        }
        self.name = name.flatMap { $0.isEmpty ? nil : $0 } ?? host
        self.host = host
        self.port = port
        self.scheme = scheme
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.lastConnected = lastConnected
    }

    /// `host:port`, with an IPv6 address in brackets.
    public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `scheme://host:port`, to which request targets are appended.
    public var baseURL: String { "\(scheme.rawValue)://\(authority)" }

    /// Letters, digits, dots, hyphens (a DNS name or IPv4 address), or an IPv6 address.
    static func isValidHost(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 253 else { return false }
        if host.contains(":") {
            return host.allSatisfy {
                $0.isHexDigit || $0 == ":" || $0 == "." || $0 == "%" || $0.isLetter || $0.isNumber
            }
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "_" }
        } || (host.hasSuffix(".") && isValidHost(String(host.dropLast())))
    }
}
