import Hummingbird

/// The OpenAPI 3.1 description of every route: `Assets/openapi.json` as the build embedded it,
/// served at `/api/openapi.json` with a strong `ETag`, 304s and a gzip variant. Tests hold it
/// against the routes ``ServerComposition/documentedRoutes()`` adds, so a route cannot be added without
/// it, and against the JSON the server sends, so a wire shape cannot drift from its schema.
enum OpenAPIFile {
    /// The embedded file, ready to answer with.
    static let asset = EmbeddedAsset.named("openapi.json").map(ServedAsset.init)

    /// The answer to a GET (or HEAD) of `/api/openapi.json`.
    static func response(to request: Request) throws(APIError) -> Response {
        // The build embeds every file of the Assets folder; only a build without it lands here.
        guard let asset else { throw APIError.internalError }
        return asset.response(to: request)
    }
}
