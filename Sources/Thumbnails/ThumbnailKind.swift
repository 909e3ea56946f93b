/// What a thumbnail is made from.
public enum ThumbnailKind: Sendable, Hashable {
    /// A picture decoded in process.
    case picture(ImageFormat)
    /// A video's frame, by ffmpeg.
    case video
    /// A PDF's first page, by pdftoppm.
    case pdf
}
