import BrowseyAPI
import Hummingbird

/// What the server says about itself: `GET /api/health` and `GET /api/openapi.json`.
struct ServerInfoController {
    let configuration: ServerConfiguration
    /// When the server started (its uptime is reported from it).
    let startedAt: ContinuousClock.Instant

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/api/health") { _, _ in health() }
        group.get("/api/openapi.json") { request, _ in try OpenAPIFile.response(to: request) }
    }

    /// `GET /api/health`.
    func health() -> Response {
        JSONBody.response(
            HealthResponse(
                readonly: configuration.readOnly, host: HostInfo.current(since: startedAt),
                auth: configuration.token != nil,
                hidden: configuration.showsHidden))
    }

}
