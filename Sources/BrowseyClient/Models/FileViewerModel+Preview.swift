extension FileViewerModel {
    /// A screen-sized preview of the picture shown (`size`: the screen's longest side in device
    /// pixels), so the viewer need not download the original until the user zooms in; `nil`
    /// when the file is not a picture or the server makes no thumbnail of it.
    public func preview(size: Int) async -> ThumbnailImage? {
        guard case .image = content else { return nil }
        return try? await client.thumbnail(of: path, size: size)
    }
}
