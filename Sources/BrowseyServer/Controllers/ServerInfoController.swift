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

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/api/health") { _, _ in health() }
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
        return JSONBody.response(health)
    }

}
