/// What a thumbnail is encoded as: JPEG always; WebP where libwebp's encoder is installed
/// (about half the bytes of a JPEG of the same picture, for a few milliseconds more to encode).
public enum ThumbnailEncoding: String, Sendable, Hashable, CaseIterable {
    /// Baseline JPEG with optimized Huffman tables, JFIF only.
    case jpeg
    /// Lossy WebP (VP8), no metadata.
    case webp

    /// The `Content-Type` of a thumbnail encoded so.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        }
    }

    /// Whether this process can encode thumbnails so (WebP: libwebp with its encoder was found;
    /// looking loads the library, once).
    public var isAvailable: Bool {
        switch self {
        case .jpeg: true
        case .webp: WebPLibrary.shared?.encodeRGB != nil
        }
    }
}
