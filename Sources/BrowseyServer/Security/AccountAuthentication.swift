public import Hummingbird

/// On a server with accounts (`--config`), who sent each request: the user whose session token
/// it carries (`Authorization: Bearer TOKEN` from apps and the command line, the
/// `browsey_session` cookie from the web UI), or nobody.
///
/// A request without a session goes on as nobody's (``RequestIdentity/anyone``): the folder
/// rules decide what that reaches (``AccessDecision``). A bearer token that opens no session
/// (expired, ended by logout or a password change) is answered 401, so that an app knows to sign
/// in again; a stale cookie is ignored. Tokens are looked up by their SHA-256 digest
/// (``SessionStore``), so the look-up's time tells nothing about a token.
public struct AccountAuthentication<Context: AuthenticatingRequestContext>: RouterMiddleware {
    /// The name of the cookie that carries the session token.
    public static var cookieName: String { "browsey_session" }

    let accounts: Accounts
    let sessions: SessionStore

    /// Looks sessions up in `sessions`, users in `accounts`.
    public init(accounts: Accounts, sessions: SessionStore) {
        self.accounts = accounts
        self.sessions = sessions
    }

    /// Records who sent the request and passes it on.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var decided = context
        if let bearer = TokenAuthentication<Context>.bearer(request.headers[.authorization]) {
            guard let session = try await session(bearer) else {
                throw APIError(
                    .unauthorized, "Session expired or unknown: sign in again", code: .unauthorized,
                    headers: [.wwwAuthenticate: "Bearer realm=\"Browsey\""])
            }
            decided.identity = .user(session.user)
        } else if let cookie = Self.cookie(request.headers[values: .cookie]),
            let session = try await session(cookie)
        {
            decided.identity = .user(session.user)
        }
        return try await next(request, decided)
    }

    /// The session `token` opens; 503 when the store cannot say.
    private func session(_ token: some StringProtocol) async throws(APIError) -> SessionStore.Session? {
        try await sessions.session(token, of: accounts)
    }

    /// The credential cookie's value among `headers`.
    static func cookie(_ headers: [String]) -> String? { CookieHeader.value(named: cookieName, in: headers) }

    /// The session token a request carries, bearer first.
    static func token(of request: Request) -> String? {
        TokenAuthentication<Context>.bearer(request.headers[.authorization]).map(String.init)
            ?? cookie(request.headers[values: .cookie])
    }
}
