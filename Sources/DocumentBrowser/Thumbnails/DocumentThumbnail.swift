public import FileTree

/// A document's picture for the grid: PNG bytes (the UI decodes them) and the version of the
/// document they show.
public struct DocumentThumbnail: Sendable, Hashable {
    /// The document shown.
    public let id: DocumentItem.ID
    /// The image, PNG-encoded (or whatever the host's generator returned).
    public let imageData: [UInt8]
    /// The document's date when the picture was made: a newer document needs a new picture.
    public let modified: Timestamp

    /// A thumbnail.
    public init(id: DocumentItem.ID, imageData: [UInt8], modified: Timestamp) {
        self.id = id
        self.imageData = imageData
        self.modified = modified
    }
}

/// Makes a thumbnail for a document that carries none (QuickLook on Apple platforms): returns
/// the image's bytes, or `nil` for none. It runs off the main actor and should give up when its
/// task is cancelled.
public typealias ThumbnailGenerator = @Sendable (DocumentItem) async throws -> [UInt8]?
