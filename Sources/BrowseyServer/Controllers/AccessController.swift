import Hummingbird

/// `POST /api/access`: the web UI hands over the access token it asked its user for, once, and
/// gets it back as an HttpOnly cookie, so that its pictures, downloads and event stream (which
/// cannot carry a header) pass ``AccessTokenGate`` too. The request itself passed the gate with
/// the header, so the token it carries is the right one.
struct AccessController {
    /// Whether the server has the gate; without it the route answers 404.
    let gated: Bool
    /// Whether the cookie goes only over HTTPS.
    let overTLS: Bool

    /// How long a browser keeps the token: 30 days, then it asks again.
    static let cookieLifetime = 30 * 24 * 3600

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.post("/api/access") { request, _ in try remember(request) }
    }

    func remember(_ request: Request) throws -> Response {
        guard gated else { throw APIError(.notFound, "This server has no access token", code: .notFound) }
        guard let value = request.headers[AccessTokenGate.header]?.trimmingSpaces(), !value.isEmpty else {
            // Through the gate by its cookie alone: nothing new to keep.
            return JSONBody.response(AccessResponse(ok: true))
        }
        var response = JSONBody.response(AccessResponse(ok: true))
        let secure = overTLS ? "; Secure" : ""
        // Hex: a token may hold bytes a cookie cannot (spaces, `;`, `,`).
        response.headers[.setCookie] =
            "\(AccessTokenGate.cookieName)=\(Hex.encode(value.utf8)); Path=/; Max-Age=\(Self.cookieLifetime); HttpOnly; SameSite=Strict\(secure)"
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

/// What `POST /api/access` answers.
private struct AccessResponse: Encodable, Sendable {
    let ok: Bool
}
