/// A server address as people and QR codes carry it: `http(s)://host:port/…`, with the token
/// in `?token=` when the server asks for one (what `browsey serve --auth` prints and encodes),
/// or the JSON pair code `browsey pair` prints (``PairPayload``), which may carry the access
/// token as well.
///
/// ```swift
/// let server = try ServerLink.parse("http://192.168.1.23:8080/?token=abc123abc123abc123")
/// server.host    // "192.168.1.23"
/// server.token   // "abc123abc123abc123"
/// ```
public enum ServerLink {
    /// The server a link or a pair code names, with the secrets it carries; anything else
    /// throws `invalidInput` saying what was expected. `name` is used when the text gives none.
    public static func parse(_ text: String, name: String? = nil) throws(BrowseyClientError) -> Server {
        let trimmed = String(
            text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        guard !trimmed.hasPrefix("{") else {
            var server = try PairPayload.read(trimmed).validated()
            if let name, server.name == server.host { server.name = name }
            return server
        }
        return try parseURL(trimmed, name: name)
    }

    /// The server a plain `http(s)` URL names.
    static func parseURL(_ text: String, name: String? = nil) throws(BrowseyClientError) -> Server {
        let trimmed = String(
            text.drop { $0 == " " || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
        let refuse = BrowseyClientError(
            .invalidInput,
            "\"\(trimmed.prefix(80))\" is not a Browsey server address (expected http://host:port/)")
        let scheme: Server.Scheme
        var rest: Substring
        if trimmed.lowercased().hasPrefix("http://") {
            scheme = .http
            rest = trimmed.dropFirst(7)
        } else if trimmed.lowercased().hasPrefix("https://") {
            scheme = .https
            rest = trimmed.dropFirst(8)
        } else {
            throw refuse
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let authority = rest.prefix { $0 != "/" }
        guard !authority.contains("@") else { throw refuse }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw refuse }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { throw refuse }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        let port: Int
        if let portText {
            guard let value = Int(portText), portText.allSatisfy(\.isNumber) else { throw refuse }
            port = value
        } else {
            port = scheme == .https ? 443 : 80
        }
        var token: String?
        for pair in query.split(separator: "&") where pair.hasPrefix("token=") {
            token = percentDecoded(pair.dropFirst(6), plusIsSpace: true)
        }
        do {
            return try Server(name: name, host: String(host), port: port, scheme: scheme, token: token)
        } catch {
            throw BrowseyClientError(.invalidInput, "\(refuse.message): \(error.message)")
        }
    }

    /// The link for `server`, as the banner prints it (with the token when there is one).
    public static func link(for server: Server) -> String {
        server.baseURL + "/" + (server.token.map { "?token=" + QueryString.encode($0) } ?? "")
    }

    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex),
                let low = utf8.index(index, offsetBy: 2, limitedBy: utf8.endIndex), low < utf8.endIndex,
                let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = utf8.index(after: low)
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A server and a path on it, as a URL names them: `http://nas:8080/docs/a%20b.md`.
public struct ServerLocation: Sendable, Hashable {
    /// The server.
    public var server: Server
    /// The path, decoded (`/docs/a b.md`); `/` for the root.
    public var path: String
}

extension ServerLink {
    /// The server and the path of a URL; the path's percent-escapes are decoded.
    public static func location(_ text: String) throws(BrowseyClientError) -> ServerLocation {
        let server = try parseURL(text)
        var rest = Substring(text.drop { $0 == " " || $0 == "\n" })
        while let last = rest.last, last == " " || last == "\n" { rest.removeLast() }
        if let colon = rest.firstIndex(of: ":") { rest = rest[colon...].dropFirst(3) }
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        guard let slash = rest.firstIndex(of: "/") else { return ServerLocation(server: server, path: "/") }
        let path = percentDecoded(rest[slash...], plusIsSpace: false)
        return ServerLocation(server: server, path: path.isEmpty ? "/" : path)
    }
}
