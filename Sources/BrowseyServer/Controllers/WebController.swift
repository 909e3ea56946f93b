import Hummingbird

/// The web UI: its page at `/` (and at any path outside `/api/`, where the page's own router
/// takes over), and its modules and style under `/assets/`, from the binary or `--web-root`.
struct WebController {
    let web: WebAssets

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/**") { request, _ in web.response(to: request) }
        group.get("/") { request, _ in web.response(to: request) }
    }
}
