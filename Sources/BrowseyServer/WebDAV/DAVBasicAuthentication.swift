import Hummingbird
import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// WebDAV clients (Finder, Explorer, rclone, davfs2) authenticate with HTTP Basic, not a bearer
/// token: on `/dav/` paths, `Authorization: Basic` whose password is the server's token (any
/// user name) proves the request holds it, and a refused request is challenged with
/// `WWW-Authenticate: Basic` so the client asks its user.
///
/// Basic sends the token in clear on every request, so it is taken only over TLS, from the
/// machine itself (loopback), or anywhere with `--dav-allow-insecure-basic`; elsewhere the
/// header is ignored and only the bearer token works. Sits in front of
/// ``TokenAuthentication``, which lets a request already proven through.
struct DAVBasicAuthentication: RouterMiddleware {
    typealias Context = FileServerContext

    let token: [UInt8]
    let overTLS: Bool
    let allowsInsecure: Bool

    init(token: String, overTLS: Bool, allowsInsecure: Bool) {
        self.token = Array(token.utf8)
        self.overTLS = overTLS
        self.allowsInsecure = allowsInsecure
    }

    /// The challenge WebDAV clients answer.
    static let challenge = "Basic realm=\"Browsey WebDAV\", charset=\"UTF-8\""

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard DAVPath.isDAV(request.uri.path) else { return try await next(request, context) }
        let permitted = overTLS || allowsInsecure || Self.isLoopback(context.connection?.remoteAddress)
        var proven = context
        if permitted, let password = Self.password(request.headers[.authorization]),
            TokenAuthentication<Context>.constantTimeEqual(Array(password.utf8), token)
        {
            proven.identity = .tokenHolder
        }
        do {
            return try await next(request, proven)
        } catch let error as APIError where error.status == .unauthorized && permitted {
            var headers = error.headers
            headers[.wwwAuthenticate] = Self.challenge
            throw APIError(error.status, code: error.code, body: error.body, headers: headers)
        }
    }

    /// The password of a `Basic` header, `nil` for anything else.
    static func password(_ header: String?) -> String? {
        guard let header, header.count > 6, header.prefix(6).lowercased() == "basic " else { return nil }
        guard let decoded = Data(base64Encoded: String(header.dropFirst(6).trimmingSpaces())),
            let text = String(validating: decoded, as: UTF8.self), let colon = text.firstIndex(of: ":")
        else { return nil }
        return String(text[text.index(after: colon)...])
    }

    /// Whether a client address is this machine's loopback.
    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let ip = address?.ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
