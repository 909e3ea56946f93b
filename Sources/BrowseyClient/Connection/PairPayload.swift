#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `browsey pair` puts in its QR code: JSON rather than a URL, so that a stock camera app
/// that scans it never turns the secrets into a browser visit.
///
/// ```json
/// {"v":2,"kind":"browsey-pair","url":"https://nas.example:8443","name":"NAS","access":"…"}
/// ```
///
/// `v` is 1, or 2 when the payload carries `access` (the server's access token) or `cf` (a
/// Cloudflare Access service token); a version 2 payload names an `https` URL, since its secrets
/// must not cross a network in the clear. `token` is the server's own `--auth` bearer token.
/// ``ServerLink/parse(_:name:)`` reads it; ``text`` writes it.
public struct PairPayload: Sendable, Hashable {
    /// The payload's kind: `browsey-pair`.
    public static let kind = "browsey-pair"
    /// The most bytes a whole payload may have: far more than a QR code carries, far less
    /// than could hurt.
    public static let maximumBytes = 16 << 10
    /// The most bytes one field may have.
    public static let maximumFieldBytes = 4 << 10

    /// The server's address: `http(s)://host:port`.
    public var url: String
    /// The name to show for it.
    public var name: String
    /// The server's bearer token (`--auth`), when it has one.
    public var token: String?
    /// The server's access token (the `X-Browsey-Access-Token` gate), when it has one.
    public var access: String?
    /// A Cloudflare Access service token, when the server is reached through a tunnel.
    public var cloudflare: Server.CloudflareAccess?

    /// A payload; ``text`` and ``validated()`` check it.
    public init(
        url: String, name: String, token: String? = nil, access: String? = nil,
        cloudflare: Server.CloudflareAccess? = nil
    ) {
        self.url = url
        self.name = name
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.access = access.flatMap { $0.isEmpty ? nil : $0 }
        self.cloudflare = cloudflare
    }

    /// 2 when it carries a remote secret (`access` or `cf`), else 1.
    public var version: Int { access != nil || cloudflare != nil ? 2 : 1 }

    /// The payload as compact JSON, once ``validated()`` accepts it.
    public func text() throws(BrowseyClientError) -> String {
        _ = try validated()
        // Written field by field, in the contract's order (an encoder's keyed container need
        // not keep it): the code reads the same on every run.
        var fields = [("v", "\(version)"), ("kind", try Self.quoted(Self.kind))]
        fields.append(("url", try Self.quoted(url)))
        fields.append(("name", try Self.quoted(name)))
        if let token { fields.append(("token", try Self.quoted(token))) }
        if let access { fields.append(("access", try Self.quoted(access))) }
        if let cloudflare {
            let object =
                "{\"id\":\(try Self.quoted(cloudflare.id)),\"secret\":\(try Self.quoted(cloudflare.secret))}"
            fields.append(("cf", object))
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// `text` as a JSON string, escaped as JSON needs and no more (`/` stays `/`).
    private static func quoted(_ text: String) throws(BrowseyClientError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(text), as: UTF8.self)
        } catch {
            throw BrowseyClientError(.invalidInput, "the pair code cannot be written: \(error)")
        }
    }

    /// The server this payload pairs with, its secrets in place; throws `invalidInput` for a
    /// field too long or holding control characters, a URL that is not `http(s)`, secrets over
    /// `http`, or Cloudflare credentials without the access token they go with.
    public func validated() throws(BrowseyClientError) -> Server {
        let fields: [(String, String?)] = [
            ("url", url), ("name", name), ("token", token), ("access", access),
            ("cf.id", cloudflare?.id), ("cf.secret", cloudflare?.secret),
        ]
        for case (let field, let value?) in fields {
            guard value.utf8.count <= Self.maximumFieldBytes else {
                throw Self.refusal(
                    "its \(field) is \(value.utf8.count) bytes, more than \(Self.maximumFieldBytes)")
            }
            guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw Self.refusal("its \(field) holds control characters")
            }
        }
        if let cloudflare, cloudflare.id.isEmpty || cloudflare.secret.isEmpty {
            throw Self.refusal("its Cloudflare credentials lack an id or a secret")
        }
        if cloudflare != nil && access == nil {
            throw Self.refusal(
                "it carries Cloudflare credentials without the access token the server checks behind them")
        }
        guard !url.hasPrefix("{") else { throw Self.refusal("its url is not an http(s) address") }
        var server: Server
        do {
            server = try ServerLink.parseURL(url, name: name)
        } catch {
            throw Self.refusal("its url is not an http(s) address: \(error.message)")
        }
        if version == 2 && server.scheme != .https {
            throw Self.refusal("it carries secrets for \(server.baseURL), and secrets travel only over https")
        }
        if let token { server.token = token }
        server.accessToken = access
        server.cloudflareAccess = cloudflare
        return server
    }

    /// Reads a payload; throws `invalidInput` saying what is wrong with one that is not a
    /// Browsey pair code of a version this client knows.
    public static func read(_ text: String) throws(BrowseyClientError) -> PairPayload {
        guard text.utf8.count <= maximumBytes else {
            throw refusal("it is \(text.utf8.count) bytes, more than \(maximumBytes)")
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: Data(text.utf8))
        } catch {
            throw refusal("it is not the JSON of one (\(String(describing: error).prefix(200)))")
        }
        guard wire.kind == kind else {
            throw refusal(
                "its kind is \(wire.kind.map { "\"\($0.prefix(40))\"" } ?? "missing"), not \"\(kind)\"")
        }
        guard let version = wire.v, version == 1 || version == 2 else {
            throw refusal(
                "its version \(wire.v.map { "\($0)" } ?? "(missing)") is not one this client knows (1 or 2)")
        }
        guard let url = wire.url else { throw refusal("it names no url") }
        let payload = PairPayload(
            url: url, name: wire.name ?? "", token: wire.token, access: wire.access,
            cloudflare: wire.cf.map { Server.CloudflareAccess(id: $0.id ?? "", secret: $0.secret ?? "") })
        if version == 1 && payload.version == 2 {
            throw refusal("a version 1 code cannot carry an access token or Cloudflare credentials")
        }
        // A version 2 code without secrets asks nothing a version 1 code does not: accepted,
        // but still held to https by `validated()`.
        if version == 2, URLScheme.of(url) != "https" {
            throw refusal("a version 2 code must name an https URL, not \(url.prefix(80))")
        }
        return payload
    }

    static func refusal(_ why: String) -> BrowseyClientError {
        BrowseyClientError(.invalidInput, "This is not a Browsey pair code this app accepts: \(why).")
    }

    /// The JSON as it is read: every field optional, so what is missing is said in words.
    private struct Wire: Decodable {
        struct Cloudflare: Decodable {
            var id: String?
            var secret: String?
        }
        var v: Int?
        var kind: String?
        var url: String?
        var name: String?
        var token: String?
        var access: String?
        var cf: Cloudflare?
    }
}

/// The scheme of a URL, lowercased.
enum URLScheme {
    static func of(_ url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        return url[..<colon].lowercased()
    }
}
