/// A thumbnail: a small picture with no metadata, encoded as asked, and what is known of the
/// picture it shows.
public struct Thumbnail: Sendable, Hashable {
    /// The encoded picture.
    public var encoded: [UInt8]
    /// How ``encoded`` is encoded.
    public var encoding: ThumbnailEncoding
    /// The thumbnail's width in pixels.
    public var width: Int
    /// The thumbnail's height in pixels.
    public var height: Int
    /// The original's width as shown (after EXIF orientation), when known.
    public var sourceWidth: Int?
    /// The original's height as shown, when known.
    public var sourceHeight: Int?

    /// Makes a thumbnail value.
    public init(
        encoded: [UInt8], encoding: ThumbnailEncoding = .jpeg, width: Int, height: Int,
        sourceWidth: Int? = nil,
        sourceHeight: Int? = nil
    ) {
        self.encoded = encoded
        self.encoding = encoding
        self.width = width
        self.height = height
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
    }
}
