#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A thumbnail as the server sent it (`GET /api/thumb`): JPEG bytes, the ETag that says which
/// version of the picture they show, and the original's size where the server knew it.
public struct ThumbnailImage: Sendable, Hashable {
    /// The JPEG.
    public var bytes: [UInt8]
    /// The server's ETag for these bytes.
    public var etag: String?
    /// The original's width as shown.
    public var width: Int?
    /// The original's height as shown.
    public var height: Int?
    /// When the server last confirmed these bytes.
    public var checked: Date

    /// Makes a thumbnail value.
    public init(bytes: [UInt8], etag: String?, width: Int? = nil, height: Int? = nil, checked: Date = Date())
    {
        self.bytes = bytes
        self.etag = etag
        self.width = width
        self.height = height
        self.checked = checked
    }
}
