public import BrowseyAPI

extension APIClient {
    /// `GET /api/search?in=content`: files under `folder` whose text holds every word of
    /// `query` (or, with `regex`, matches it as a regular expression, case-insensitively when
    /// `ignoresCase`), best first, each with up to `lines` matching lines.
    public func searchContent(
        _ query: String, in folder: String = "/", regex: Bool = false, ignoresCase: Bool = false,
        limit: Int = 50, lines: Int = 3
    ) async throws(BrowseyClientError) -> ContentSearchResponse {
        var parameters = [
            ("in", "content"), ("path", folder), ("q", query), ("limit", String(limit)),
            ("lines", String(lines)),
        ]
        if regex { parameters.append(("re", "1")) }
        if ignoresCase { parameters.append(("i", "1")) }
        return try await json(ContentSearchResponse.self, "GET", "/api/search", query: parameters)
    }
}
