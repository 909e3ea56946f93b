import Hummingbird

/// The web UI: its page at `/` (and at any path outside `/api/`, where the page's own router
/// takes over), its script and its style.
struct WebController {
    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/assets/app.js") { request, _ in WebAsset.script.response(to: request) }
        group.get("/assets/app.css") { request, _ in WebAsset.style.response(to: request) }
        group.get("/**") { request, _ in WebAsset.page.response(to: request) }
        group.get("/") { request, _ in WebAsset.page.response(to: request) }
    }

}
