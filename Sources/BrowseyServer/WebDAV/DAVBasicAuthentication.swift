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
/// On a server with accounts, the password is one of the user's session tokens (what
/// `POST /api/login` or `browsey login` gives: an app password), never the account's own: a
/// client sends Basic with every request, and checking a slow password hash each time would
/// make every request slow and skip the sign-in's backoff. The user name must be the token's.
///
/// Basic sends the token in clear on every request, so it is taken only over TLS, from the
/// machine itself (loopback), or anywhere with `--dav-allow-insecure-basic`; elsewhere the
/// header is ignored and only the bearer token works. Sits in front of
/// ``TokenAuthentication``, which lets a request already proven through.
struct DAVBasicAuthentication: RouterMiddleware {
    typealias Context = FileServerContext

    /// The server's token (`--token`), when it has one.
    let token: [UInt8]?
    /// The accounts and their sessions, when the server has accounts (`--config`).
    let accounts: (Accounts, SessionStore)?
    let overTLS: Bool
    let allowsInsecure: Bool

    init(token: String?, accounts: (Accounts, SessionStore)? = nil, overTLS: Bool, allowsInsecure: Bool) {
        self.token = token.map { Array($0.utf8) }
        self.accounts = accounts
        self.overTLS = overTLS
        self.allowsInsecure = allowsInsecure
    }

    /// The challenge WebDAV clients answer.
    static let challenge = "Basic realm=\"Browsey WebDAV\", charset=\"UTF-8\""

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard DAVPath.isDAV(request.uri.path) else { return try await next(request, context) }
        let permitted = overTLS || allowsInsecure || context.connection?.remoteAddress?.isLoopback == true
        var proven = context
        if permitted, let (user, password) = Self.credentials(request.headers[.authorization]) {
            if let token, TokenAuthentication<Context>.constantTimeEqual(Array(password.utf8), token) {
                proven.identity = .tokenHolder
            } else if let (accounts, sessions) = self.accounts,
                let session = try await sessions.session(password, of: accounts),
                session.user == user
            {
                proven.identity = .user(session.user)
            }
        }
        do {
            return try await next(request, proven)
        } catch let error as APIError where error.status == .unauthorized && permitted {
            var headers = error.headers
            headers[.wwwAuthenticate] = Self.challenge
            throw APIError(error.status, code: error.code, body: error.body, headers: headers)
        }
    }

    /// A `Basic` header's value for `user` and `password`.
    static func basic(user: String, password: String) -> String {
        "Basic " + Data((user + ":" + password).utf8).base64EncodedString()
    }

    /// The user name and password of a `Basic` header, `nil` for anything else.
    static func credentials(_ header: String?) -> (user: String, password: String)? {
        guard let header, header.count > 6, header.prefix(6).lowercased() == "basic " else { return nil }
        guard let decoded = Data(base64Encoded: String(header.dropFirst(6).trimmingSpaces())),
            let text = String(validating: decoded, as: UTF8.self), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }
}
