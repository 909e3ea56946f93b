extension DirectoryBrowserModel {
    /// The thumbnail of a row the server makes thumbnails of (`"thumbnail": true` in the
    /// listing), at most `size` pixels on its longest side (the grid cell's size in device
    /// pixels); `nil` for other rows, when the server refuses, or when the cell's task was
    /// cancelled. Kept in ``APIClient/thumbnails``: a grid scrolled twice asks nothing.
    ///
    /// ```swift
    /// .task(id: row) { image = await model.thumbnail(for: row, size: 256) }
    /// ```
    public func thumbnail(for row: BrowserRow, size: Int = 256) async -> ThumbnailImage? {
        guard row.item?.hasThumbnail == true, !Task.isCancelled else { return nil }
        return try? await client.thumbnail(of: row.path, size: size)
    }
}
