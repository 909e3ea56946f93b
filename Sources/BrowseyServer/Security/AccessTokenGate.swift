public import Hummingbird

/// The newest Browsey's access-token gate: with a token configured (`BROWSEY_ACCESS_TOKEN`,
/// `--access-token-file`, `--access-token`), every request to the API or to WebDAV must prove it
/// holds the token before anything else looks at it, this server's own `--auth` token and
/// accounts included.
///
/// A request proves it in one of three ways:
/// - the header `X-Browsey-Access-Token` (what Browsey's apps and scripts send);
/// - the HttpOnly cookie `browsey_access`, which `POST /api/access` sets for the web UI (a page
///   cannot add a header to an `<img>`, a download or an `EventSource`; the cookie is never
///   readable by script and never put in a URL);
/// - on `/dav/`, the Basic password: the token alone, or the token, a `:`, and what the server's
///   own protection asks for (its `--auth` token, or an account's password), which goes on as the
///   password with the token taken off. WebDAV clients cannot add a header.
///
/// `OPTIONS` (CORS preflights) and paths outside `/api/` and `/dav/` (the web UI's files, which
/// then ask for the token) pass. So do share links (`/s/…`, `/api/shared/…`): a link is a door
/// its owner opened on purpose, with its own expiry and password. A token in the query string
/// opens nothing, a wrong one is never echoed, and the comparison takes the same time wherever
/// the first difference lies.
public struct AccessTokenGate: RouterMiddleware {
    /// The server's own context: the gate runs in front of its routes.
    public typealias Context = FileServerContext

    /// The header Browsey's clients send the token in.
    public static var headerName: String { "X-Browsey-Access-Token" }
    /// The cookie the web UI holds the token in.
    public static var cookieName: String { "browsey_access" }
    /// The challenge both refusals carry, so a client tells this gate from a bearer refusal.
    static var challenge: String { "Browsey-Access" }

    static var header: HTTPFields.Element.Name { .browseyAccessToken }

    let token: [UInt8]

    /// Requires `token` (a non-empty one: an empty token is no protection, and makes no gate).
    public init(token: String) {
        self.token = Array(token.utf8)
    }

    /// Lets the request through to `next` or answers 401 here.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = Self.normalized(request.uri.path)
        let dav = DAVPath.isDAV(path)
        // WebDAV's Basic password loses the token on every method, OPTIONS included, so that
        // what follows it reaches the server's own check as the password.
        var basicPassed: Request?
        var presented = false
        if dav, let (user, password) = DAVBasicAuthentication.credentials(request.headers[.authorization]) {
            // The token alone, or the token, a colon and the server's own password (a token with a
            // colon of its own is tried whole first).
            let (candidate, rest) = matches(password) ? (password[...], nil) : Self.split(password)
            if matches(candidate) {
                var head = request.head
                head.headerFields[.authorization] =
                    rest.map { DAVBasicAuthentication.basic(user: user, password: $0) }
                basicPassed = Request(head: head, body: request.body)
            } else {
                presented = true
            }
        }
        if let basicPassed { return try await next(basicPassed, context) }
        guard request.method != .options, dav || Self.isGated(path) else {
            return try await next(request, context)
        }
        if let value = request.headers[Self.header], !value.trimmingSpaces().isEmpty {
            if matches(value.trimmingSpaces()) { return try await next(request, context) }
            presented = true
        }
        if let cookie = CookieHeader.value(named: Self.cookieName, in: request.headers[values: .cookie]),
            !cookie.isEmpty
        {
            // The cookie holds the token in hex (AccessController).
            if let bytes = Hex.decode(cookie),
                TokenAuthentication<FileServerContext>.constantTimeEqual(bytes, token)
            {
                return try await next(request, context)
            }
            presented = true
        }
        throw Self.refusal(invalid: presented, dav: dav)
    }

    /// The 401 for a request without the token (`invalid` false) or with another one. On WebDAV
    /// it also asks for Basic credentials, which is how a WebDAV client passes.
    static func refusal(invalid: Bool, dav: Bool) -> APIError {
        var challenges = [challenge]
        if dav { challenges.append(DAVBasicAuthentication.challenge) }
        var headers = HTTPFields()
        for value in challenges { headers.append(HTTPFields.Element(name: .wwwAuthenticate, value: value)) }
        return invalid
            ? APIError(
                .unauthorized, "Invalid Browsey access token", code: .accessTokenInvalid, headers: headers)
            : APIError(
                .unauthorized, "Browsey access token required", code: .accessTokenRequired, headers: headers)
    }

    /// Whether the gate asks `path` (normalized) for the token: the API, but share links.
    static func isGated(_ path: String) -> Bool {
        path.hasPrefix("/api/") && !path.hasPrefix("/api/shared/")
    }

    /// `path` as the router reads it, so that `//api/x` or `/%61pi/x` cannot walk around the gate:
    /// percent escapes decoded (a bad one kept as it is: such a path matches no route) and runs
    /// of slashes made one.
    static func normalized(_ path: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        var input = Array(path.utf8)[...]
        while let byte = input.popFirst() {
            var decoded = byte
            if byte == UInt8(ascii: "%"), input.count >= 2,
                let high = Hex.value(of: input[input.startIndex]),
                let low = Hex.value(of: input[input.startIndex + 1])
            {
                decoded = high << 4 | low
                input = input.dropFirst(2)
            }
            if decoded == UInt8(ascii: "/"), bytes.last == UInt8(ascii: "/") { continue }
            bytes.append(decoded)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A Basic password split at its first `:` into the access token and what follows for the
    /// server's own protection (`nil`: nothing follows).
    static func split(_ password: String) -> (candidate: Substring, rest: String?) {
        guard let colon = password.firstIndex(of: ":") else { return (password[...], nil) }
        return (password[..<colon], String(password[password.index(after: colon)...]))
    }

    func matches(_ candidate: some StringProtocol) -> Bool {
        TokenAuthentication<FileServerContext>.constantTimeEqual(Array(candidate.utf8), token)
    }
}
