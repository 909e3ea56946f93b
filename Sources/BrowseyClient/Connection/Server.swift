#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A Browsey server a person connects to: where it is, how to sign in, and when it was last
/// reached.
///
/// Saved servers written before a field existed still decode: every field added since the
/// first release (``accessToken``, ``serverId``, ``otherAddresses``, ``cloudflareAccess``) is
/// optional in the JSON.
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
    /// The value of the server's access-token gate, sent as `X-Browsey-Access-Token` on every
    /// `/api/` request (never in a URL); `nil` for a server without the gate.
    public var accessToken: String?
    /// The server's identity (`serverId` of `/api/health`, or of its Bonjour TXT record), once
    /// known: two entries with the same one are the same server reached at two addresses.
    public var serverId: String?
    /// Other addresses the same server answered at, or was announced at, besides this one
    /// (``host``, ``port``, ``scheme``), in the order they were learned. A server list switches to
    /// one of them when the preferred address stops answering.
    public var otherAddresses: [Address] = []
    /// A Cloudflare Access service token (`CF-Access-Client-Id` and `CF-Access-Client-Secret`),
    /// for a server reached through a Cloudflare tunnel that asks for one.
    public var cloudflareAccess: CloudflareAccess?

    /// A server at `host:port`; throws `invalidInput` for an empty or malformed host or a port
    /// outside 1…65535. An empty `token` or `accessToken` is none.
    public init(
        name: String? = nil, host: String, port: Int, scheme: Scheme = .http, token: String? = nil,
        accessToken: String? = nil, lastConnected: Date? = nil
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
        self.accessToken = accessToken.flatMap { $0.isEmpty ? nil : $0 }
        self.lastConnected = lastConnected
    }

    /// Reads a saved server; the fields added after the first release may be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        host = try container.decode(String.self, forKey: .host)
        port = try container.decode(Int.self, forKey: .port)
        scheme = try container.decode(Scheme.self, forKey: .scheme)
        token = try container.decodeIfPresent(String.self, forKey: .token)
        lastConnected = try container.decodeIfPresent(Date.self, forKey: .lastConnected)
        username = try container.decodeIfPresent(String.self, forKey: .username)
        accessToken = try container.decodeIfPresent(String.self, forKey: .accessToken)
        serverId = try container.decodeIfPresent(String.self, forKey: .serverId)
        otherAddresses = try container.decodeIfPresent([Address].self, forKey: .otherAddresses) ?? []
        cloudflareAccess = try container.decodeIfPresent(CloudflareAccess.self, forKey: .cloudflareAccess)
    }

    private enum CodingKeys: String, CodingKey {
        case name, host, port, scheme, token, lastConnected, username, accessToken, serverId,
            otherAddresses, cloudflareAccess
    }

    /// Where this server answers: its preferred address.
    public var address: Address {
        get { Address(host: host, port: port, scheme: scheme) }
        set {
            host = newValue.host
            port = newValue.port
            scheme = newValue.scheme
        }
    }

    /// Every address known for this server, the preferred one first.
    public var addresses: [Address] { [address] + otherAddresses.filter { $0 != address } }

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

extension Server {
    /// One place a server answers: scheme, host and port.
    public struct Address: Codable, Sendable, Hashable, Identifiable, CustomStringConvertible {
        /// A host name or an IP address (an IPv6 address without brackets).
        public var host: String
        /// The TCP port.
        public var port: Int
        /// `http` or `https`.
        public var scheme: Scheme

        /// An address; not checked (``Server/init(name:host:port:scheme:token:accessToken:lastConnected:)`` checks).
        public init(host: String, port: Int, scheme: Scheme) {
            self.host = host
            self.port = port
            self.scheme = scheme
        }

        /// `scheme://host:port`, as ``Server/id`` spells it.
        public var id: String {
            "\(scheme.rawValue)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }

        /// The same as ``id``.
        public var description: String { id }
    }

    /// A Cloudflare Access service token: sent as `CF-Access-Client-Id` and
    /// `CF-Access-Client-Secret`, it lets requests through a Cloudflare tunnel's edge (the
    /// server's own access token is still needed behind it).
    public struct CloudflareAccess: Codable, Sendable, Hashable {
        /// The client id.
        public var id: String
        /// The client secret.
        public var secret: String

        /// A service token.
        public init(id: String, secret: String) {
            self.id = id
            self.secret = secret
        }
    }
}
