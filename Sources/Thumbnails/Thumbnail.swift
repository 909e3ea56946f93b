/// A thumbnail: a small JPEG with no metadata, and what is known of the picture it shows.
public struct Thumbnail: Sendable, Hashable {
    /// The encoded JPEG.
    public var jpeg: [UInt8]
    /// The thumbnail's width in pixels.
    public var width: Int
    /// The thumbnail's height in pixels.
    public var height: Int
    /// The original's width as shown (after EXIF orientation), when known.
    public var sourceWidth: Int?
    /// The original's height as shown, when known.
    public var sourceHeight: Int?

    /// Makes a thumbnail value.
    public init(jpeg: [UInt8], width: Int, height: Int, sourceWidth: Int? = nil, sourceHeight: Int? = nil) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
    }
}
