import BrowseyAPI
import Hummingbird
import SearchIndex

/// What the server says about itself: `GET /api/health` and `GET /api/openapi.json`.
struct ServerInfoController {
    let configuration: ServerConfiguration
    /// When the server started (its uptime is reported from it).
    let startedAt: ContinuousClock.Instant
    /// The content index, whose progress the health check reports.
    var contentIndex: ContentIndex? = nil
    /// Where sessions and links live, which `/api/ready` asks.
    var state: (any StateStore)? = nil

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/api/health") { _, context in
            // Nobody signed in on a server with accounts learns no more of the machine than the
            // token mode tells someone without the token.
            configuration.accounts != nil && context.identity.user == nil ? anonymousHealth() : health()
        }
        group.get("/api/ready") { _, _ in try await ready() }
        group.get("/api/openapi.json") { request, _ in try OpenAPIFile.response(to: request) }
    }

    /// `GET /api/health`.
    func health() -> Response {
        var health = HealthResponse(
            readonly: configuration.readOnly, host: HostInfo.current(since: startedAt),
            auth: configuration.token != nil,
            hidden: configuration.showsHidden)
        health.contentIndex = contentIndex.map { HealthResponse.ContentIndex($0.progress) }
        health.serverId = configuration.serverId
        if configuration.accessToken?.isEmpty == false { health.accessToken = true }
        if let state, state.kind != "sqlite" {
            health.stateStore = HealthResponse.StateStore(kind: state.kind, reachable: state.lastCallReached)
        }
        return JSONBody.response(health)
    }

    /// `GET /api/ready`: whether this instance can serve everything now, for a balancer's health
    /// checks: 200, or 503 `stateUnavailable` while its database cannot be reached.
    func ready() async throws(APIError) -> Response {
        do {
            try await state?.ping()
        } catch {
            throw APIError.state(error, "Not ready")
        }
        return JSONBody.response(ReadyResponse(ready: true, state: state?.kind))
    }

    /// `GET /api/health` for someone not signed in on a server with accounts: the mode, never the
    /// host (its name, kernel, architecture, uptime).
    func anonymousHealth() -> Response {
        JSONBody.response(
            AnonymousHealth(
                ok: true, auth: false, readonly: configuration.readOnly, hidden: configuration.showsHidden,
                serverId: configuration.serverId,
                accessToken: configuration.accessToken?.isEmpty == false ? true : nil))
    }

}

/// What `/api/health` tells someone not signed in on a server with accounts.
private struct AnonymousHealth: Encodable, Sendable {
    let ok: Bool
    let auth: Bool
    let readonly: Bool
    let hidden: Bool
    let serverId: String?
    let accessToken: Bool?
}

/// What `/api/ready` answers when the instance can serve everything.
struct ReadyResponse: Encodable {
    /// Always `true` (a 503 says otherwise).
    let ready: Bool
    /// Where its sessions and links live: `sqlite` or `postgresql`.
    let state: String?
}
