import BrowseyAPI
import Hummingbird
import NIOCore
import NIOPosix

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Signing in and out on a server with accounts: `POST /api/login`, `POST /api/logout`, and
/// `GET /api/session` (who is signed in, and what they may do at a path), which every server
/// answers.
///
/// A login is throttled before its password is hashed (``LoginThrottle``); an unknown user name
/// costs the same hash as a known one, so the answer's time does not tell which names exist.
struct LoginController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    let accounts: Accounts?
    let sessions: SessionStore?
    let throttle: LoginThrottle
    let audit: AuditLog?

    /// What an unknown name is checked against, so that it costs what a known one does.
    static let standIn = try? PasswordHash.make(password: "browsey stand-in")

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.post("/api/login") { request, context in try await login(request, context: context) }
        group.post("/api/logout") { request, context in try await logout(request, context: context) }
        group.get("/api/session") { request, context in try session(request, context: context) }
    }

    func login(_ request: Request, context: FileServerContext) async throws -> Response {
        guard let accounts, let sessions else {
            throw APIError(.notFound, "This server has no accounts", code: .notFound)
        }
        // A login sent by a form elsewhere would sign this browser in as someone else.
        try requireJSONFromThisSite(request)
        let body = try await decode(LoginRequest.self, from: request)
        let address = context.clientAddress
        let name = String(body.username.prefix(64))
        let wait: Duration?
        do {
            wait = try await throttle.wait(address: address, user: name)
        } catch {
            throw APIError.state(error, "Signing in cannot be checked")
        }
        if let wait {
            audit?.record("loginThrottled", user: name, address: address)
            throw APIError.slowDown("Too many failed logins", wait: wait)
        }
        let account = accounts.users[name]
        let password = body.password
        let hash = account?.password ?? Self.standIn
        let matches = try await NIOThreadPool.singleton.runIfActive { hash?.verify(password) ?? false }
        guard let account, matches else {
            do {
                try await throttle.failed(address: address, user: name)
            } catch {
                // A failure the store did not count is still a failure: answered, not hidden.
                throw APIError.state(error, "Signing in cannot be checked")
            }
            audit?.record("loginFailed", user: name, address: address)
            throw APIError(.unauthorized, "Wrong user name or password", code: .wrongCredentials)
        }
        let token: String
        let expires: Int64
        do {
            try await throttle.succeeded(address: address, user: name)
            (token, expires) = try await sessions.start(
                user: account.name, password: account.password, lifetime: accounts.sessionLifetime)
        } catch {
            throw APIError.state(error, "The session was not started")
        }
        audit?.record("login", user: account.name, address: address)
        var response = JSONBody.response(
            LoginResponse(
                username: account.name, token: token,
                expires: Date(timeIntervalSince1970: Double(expires)), admin: account.isAdministrator))
        let secure = configuration.tls != nil ? "; Secure" : ""
        let maxAge = max(0, expires - configuration.clock().components.seconds)
        response.headers[.setCookie] =
            "\(AccountAuthentication<FileServerContext>.cookieName)=\(token); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax\(secure)"
        response.headers[.cacheControl] = "no-store"
        return response
    }

    func logout(_ request: Request, context: FileServerContext) async throws -> Response {
        // A page elsewhere could end this browser's session (SameSite=Lax lets a sibling site by).
        try requireThisSite(request)
        if let sessions, let token = AccountAuthentication<FileServerContext>.token(of: request) {
            do {
                try await sessions.end(token)
            } catch {
                throw APIError.state(error, "The session was not ended for good")
            }
            if let user = context.identity.user {
                audit?.record("logout", user: user, address: context.clientAddress)
            }
        }
        var response = JSONBody.response(LogoutResponse())
        let secure = configuration.tls != nil ? "; Secure" : ""
        response.headers[.setCookie] =
            "\(AccountAuthentication<FileServerContext>.cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax\(secure)"
        return response
    }

    func session(_ request: Request, context: FileServerContext) throws -> Response {
        let raw = request.uri.queryParameters.get("path") ?? ""
        let rules = try context.access.rules()
        let place = (try? rules.resolve(raw.isEmpty ? "/" : raw))?.relative ?? "/"
        let rights = context.access.rights(at: place)
        var names: [String] = []
        for (right, name) in [
            (Rights.read, "read"), (.write, "write"), (.upload, "upload"), (.admin, "admin"),
        ]
        where rights.contains(right) {
            names.append(name)
        }
        let user = context.identity.user
        let asksForToken = request.uri.queryParameters.get("include") == "token"
        let token = asksForToken && context.identity == .tokenHolder ? configuration.token : nil
        return JSONBody.response(
            SessionResponse(
                accounts: accounts != nil, username: user,
                admin: user.map { accounts?.users[$0]?.isAdministrator ?? false } ?? false, rights: names,
                token: token))
    }
}

/// What `POST /api/logout` answers.
struct LogoutResponse: Encodable, Sendable {
    var ok = true
}
