public import BrowseyAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension APIClient {
    /// A thumbnail of the picture at `path`, at most `size` pixels on its longest side (the
    /// server rounds up to its size classes): from ``thumbnails`` when it was confirmed lately,
    /// else asked with the ETag kept (a 304 keeps the kept bytes), else fetched and kept.
    ///
    /// Throws what the server said: `httpStatus` 415 for a file no thumbnail is made of, 413
    /// for a picture past the server's pixel limit.
    public func thumbnail(of path: String, size: Int = 256) async throws(BrowseyClientError) -> ThumbnailImage
    {
        let key = "\(server.id)|\(path)|\(size)"
        let kept = thumbnails.thumbnail(for: key)
        if let kept, thumbnails.isFresh(kept) { return kept }
        var headers: [(name: String, value: String)] = []
        if let etag = kept?.etag { headers.append(("If-None-Match", etag)) }
        let response = try await send(
            "GET", "/api/thumb", query: [("path", path), ("size", String(size))], headers: headers)
        if response.status == 304, var kept {
            kept.checked = Date()
            thumbnails.store(kept, for: key)
            return kept
        }
        let bytes = try await response.collect(limit: 16 << 20)
        let image = ThumbnailImage(
            bytes: bytes, etag: response.header("ETag"),
            width: response.header("X-Image-Width").flatMap { Int($0) },
            height: response.header("X-Image-Height").flatMap { Int($0) })
        thumbnails.store(image, for: key)
        return image
    }
}

extension ListItem {
    /// Whether the server said it makes thumbnails of this file (`"thumbnail": true`).
    public var hasThumbnail: Bool { thumbnail == true }
}
