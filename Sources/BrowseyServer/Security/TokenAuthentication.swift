public import Hummingbird

/// The bearer token that `--auth` requires of every request but `/api/health`.
///
/// A client proves it has the token in one of three ways: `Authorization: Bearer TOKEN` (apps and
/// scripts), the `browsey_token` cookie (the web UI, after its first visit), or `?token=TOKEN`
/// in the URL that the banner and its QR code carry. A page opened with `?token=` is answered
/// with a redirect to the same URL without it, setting an HttpOnly, SameSite=Strict cookie, so
/// the token does not stay in the address bar or the browser's history. Tokens are compared in
/// constant time.
///
/// The decision goes into the context (``AuthenticatingRequestContext/identity``): a request that
/// passes is a ``RequestIdentity/tokenHolder``.
public struct TokenAuthentication<Context: AuthenticatingRequestContext>: RouterMiddleware {
    /// The name of the cookie that carries the token.
    public static var cookieName: String { "browsey_token" }

    let token: [UInt8]
    /// The server's identity, which even the answer without the token carries: it is no
    /// secret (the Bonjour record says it too), and a client needs it to know the server.
    let serverId: String?

    /// Requires `token`.
    public init(token: String, serverId: String? = nil) {
        self.token = Array(token.utf8)
        self.serverId = serverId
    }

    /// Lets the request through to `next` or answers it here.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // Already proven by a middleware in front (WebDAV's Basic, ``DAVBasicAuthentication``).
        if context.identity == .tokenHolder { return try await next(request, context) }
        var holder = context
        holder.identity = .tokenHolder
        let path = request.uri.path
        if path == "/api/health" {
            // The health check needs no token; without one it tells only that the server is up
            // and that a token is needed, nothing about the machine.
            if isAuthenticated(request) { return try await next(request, holder) }
            return JSONBody.response(MinimalHealth(ok: true, auth: true, serverId: serverId))
        }
        if let bearer = Self.bearer(request.headers[.authorization]), matches(bearer) {
            return try await next(request, holder)
        }
        if let cookie = Self.cookie(request.headers[values: .cookie]), matches(cookie) {
            return try await next(request, holder)
        }
        if let query = request.uri.queryParameters.get("token"), matches(query) {
            guard !path.hasPrefix("/api/"), request.method == .get else {
                return try await next(request, holder)
            }
            // A page: keep the token in a cookie and show the address without it.
            let rest = (request.uri.query ?? "").split(separator: "&")
                .filter { !$0.hasPrefix("token=") && $0 != "token" }.joined(separator: "&")
            let location = Self.sameOriginPath(path)
            return Response(
                status: .seeOther,
                headers: [
                    .location: rest.isEmpty ? location : location + "?" + rest,
                    .setCookie:
                        "\(Self.cookieName)=\(String(decoding: token, as: UTF8.self)); Path=/; HttpOnly; SameSite=Strict",
                    .cacheControl: "no-store",
                ])
        }
        throw APIError(
            .unauthorized,
            code: .unauthorized, body: .init(error: "Unauthorized", message: "Valid API token required"),
            headers: [.wwwAuthenticate: "Bearer realm=\"Browsey API\""])
    }

    /// The path as a redirect that stays on this server: `//evil.example/x` (or `/\\evil.example`)
    /// would be read by a browser as another host, so leading slashes and backslashes become one `/`.
    static func sameOriginPath(_ path: String) -> String {
        "/" + path.drop { $0 == "/" || $0 == "\\" }
    }

    /// Whether the request carries the token in a header or the cookie (the query form counts
    /// only where a page is redirected).
    func isAuthenticated(_ request: Request) -> Bool {
        if let bearer = Self.bearer(request.headers[.authorization]), matches(bearer) { return true }
        if let cookie = Self.cookie(request.headers[values: .cookie]), matches(cookie) { return true }
        if let query = request.uri.queryParameters.get("token"), matches(query) { return true }
        return false
    }

    /// Compares in time that depends only on the lengths, never on where the first difference is.
    func matches(_ candidate: some StringProtocol) -> Bool {
        Self.constantTimeEqual(Array(candidate.utf8), token)
    }

    static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        return difference == 0 && left.count == right.count
    }

    static func bearer(_ header: String?) -> Substring? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        return header.dropFirst(7)
    }

    /// The credential cookie's value among `headers`.
    static func cookie(_ headers: [String]) -> String? { CookieHeader.value(named: cookieName, in: headers) }
}

/// What `/api/health` tells a client without the token.
private struct MinimalHealth: Encodable, Sendable {
    let ok: Bool
    let auth: Bool
    let serverId: String?
}
