import CThumbnailCodecs
import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes thumbnails: pictures decoded in process (JPEG with DCT scaling, PNG, GIF, BMP; WebP,
/// TIFF, HEIC and AVIF when libwebp, libtiff and libheif are installed), video frames and PDF pages by helper programs when they are
/// installed; turned upright by EXIF, brought down by area averaging, encoded as JPEG (or WebP
/// where libwebp is installed, when asked) with no metadata.
///
/// Synchronous and thread-safe: run it on a worker thread, never on an event loop.
///
/// ```swift
/// let thumbnail = try Thumbnailer().thumbnail(of: bytes, longest: 256)
/// ```
public struct Thumbnailer: Sendable {
    /// Changes whenever the same input would give different bytes; part of every cache key.
    public static let encoderVersion = 2
    /// Pictures with more pixels than this are refused from their header (default 100 MP).
    public var maximumPixels: Int
    /// JPEG quality of the thumbnails (1-100).
    public var quality = 78
    /// WebP quality of the thumbnails (0-100): at 75 a WebP thumbnail is about half the bytes
    /// of the JPEG at ``quality``.
    public var webpQuality = 75
    /// The largest file read into memory to decode.
    public var maximumFileSize = 512 << 20
    /// The helper programs for videos and PDFs.
    public var posters: PosterTools

    /// A thumbnailer; `posters` says which helper programs there are (none by default:
    /// ``PosterTools/find(path:)`` looks on `PATH`).
    public init(posters: PosterTools = PosterTools(), maximumPixels: Int = 100_000_000) {
        self.posters = posters
        self.maximumPixels = maximumPixels
    }

    /// Video extensions ffmpeg is asked about.
    public static let videoExtensions: Set<String> = [
        "mp4", "m4v", "mov", "webm", "mkv", "avi", "3gp", "mpg", "mpeg",
    ]

    /// The picture formats this process decodes.
    public static let decodedFormats: Set<ImageFormat> = {
        var formats: Set<ImageFormat> = [.jpeg, .png, .gif, .bmp]
        // Looked for, not loaded: each library is loaded by the first picture that needs it.
        if WebPLibrary.isInstalled { formats.insert(.webp) }
        if LibraryProbe.isInstalled(["libtiff.so.6", "libtiff.so.5", "libtiff.6.dylib"]) {
            formats.insert(.tiff)
        }
        if LibraryProbe.isInstalled(["libheif.so.1", "libheif.1.dylib"]) {
            formats.formUnion([.heif, .avif])
        }
        return formats
    }()

    /// What a file of this name would be made into a thumbnail from, by its extension; `nil`
    /// when this machine makes none for its type.
    public func kind(forFileName name: String) -> ThumbnailKind? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return kind(forExtension: name[name.index(after: dot)...].lowercased())
    }

    /// ``kind(forFileName:)`` for a lower-cased extension without the dot.
    public func kind(forExtension ext: String) -> ThumbnailKind? {
        if let format = ImageFormat.forExtension(ext) {
            return Self.decodedFormats.contains(format) ? .picture(format) : nil
        }
        if posters.ffmpeg != nil, Self.videoExtensions.contains(ext) { return .video }
        if posters.pdftoppm != nil, ext == "pdf" { return .pdf }
        return nil
    }

    /// Every lower-cased extension ``kind(forExtension:)`` knows, for listings to mark.
    public var extensions: Set<String> {
        var all: Set<String> = [
            "jpg", "jpeg", "jpe", "jfif", "png", "apng", "gif", "webp", "bmp", "dib", "tif", "tiff", "heic",
            "heif",
            "hif", "avif", "pdf",
        ]
        all.formUnion(Self.videoExtensions)
        return all.filter { kind(forExtension: $0) != nil }
    }

    /// A thumbnail of a picture's bytes (its format known from them), at most `longest` pixels
    /// on its longest side, encoded as `encoding` (JPEG when that is not available).
    public func thumbnail(
        of bytes: [UInt8], longest: Int, encoding: ThumbnailEncoding = .jpeg
    ) throws(ThumbnailError) -> Thumbnail {
        var bytes = bytes
        return try thumbnail(of: &bytes, rearranging: false, longest: longest, encoding: encoding)
    }

    /// ``thumbnail(of:longest:encoding:)``; with `rearranging`, a PNG's bytes are rearranged
    /// while it decodes (and put back), so that a caller whose array is its own lends it instead
    /// of having it copied.
    private func thumbnail(
        of bytes: inout [UInt8], rearranging: Bool, longest: Int, encoding: ThumbnailEncoding
    ) throws(ThumbnailError) -> Thumbnail {
        guard !bytes.isEmpty else { throw ThumbnailError(.notThumbnailable, "The file is empty") }
        guard let format = ImageFormat.sniff(bytes) else {
            throw ThumbnailError(.notThumbnailable, "Not a picture this server reads")
        }
        let longest = max(1, longest)
        let image: PixelImage
        switch format {
        case .jpeg: image = try SystemCodecs.jpeg(bytes, longest: longest, maximumPixels: maximumPixels)
        case .png:
            image =
                rearranging
                ? try SystemCodecs.png(rearranging: &bytes, longest: longest, maximumPixels: maximumPixels)
                : try SystemCodecs.png(bytes, longest: longest, maximumPixels: maximumPixels)
        case .gif: image = try GIFDecoder.thumbnail(bytes, longest: longest, maximumPixels: maximumPixels)
        case .bmp: image = try BMPDecoder.thumbnail(bytes, longest: longest, maximumPixels: maximumPixels)
        case .webp:
            guard let library = WebPLibrary.shared else {
                throw ThumbnailError(.notThumbnailable, "libwebp is not installed: no thumbnails of WebP")
            }
            image = try library.thumbnail(bytes, longest: longest, maximumPixels: maximumPixels)
        case .heif, .avif:
            // libheif turns the picture as the file says: no EXIF orientation on top.
            let (picture, width, height) = try SystemCodecs.heif(
                bytes, longest: longest, maximumPixels: maximumPixels)
            return try encode(picture, as: encoding, sourceWidth: width, sourceHeight: height)
        case .tiff:
            // libtiff turns the picture by the file's orientation tag: nothing on top.
            let (picture, width, height) = try SystemCodecs.tiff(
                bytes, longest: longest, maximumPixels: maximumPixels)
            return try encode(picture, as: encoding, sourceWidth: width, sourceHeight: height)
        }
        let metadata = ImageMetadata.read(Array(bytes.prefix(ImageMetadata.headerLength)))
        let upright = image.oriented(metadata?.orientation ?? 1)
        return try encode(
            upright, as: encoding, sourceWidth: metadata?.displayWidth, sourceHeight: metadata?.displayHeight)
    }

    /// A thumbnail of the open file `descriptor` (named `name`, for its type), at most
    /// `longest` pixels on its longest side, encoded as `encoding`.
    public func thumbnail(
        ofFile descriptor: Int32, name: String, longest: Int, encoding: ThumbnailEncoding = .jpeg
    ) throws(ThumbnailError) -> Thumbnail {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw ThumbnailError(.unreadable, "The file cannot be read")
        }
        guard Int(status.st_size) <= maximumFileSize else {
            throw ThumbnailError(.imageTooLarge, "The file is too large to make a thumbnail of")
        }
        let head = FileContents.read(descriptor, limit: 32) ?? []
        if ImageFormat.sniff(head) == nil, let kind = kind(forFileName: name) {
            let longest = max(1, longest)
            switch kind {
            case .video:
                let frame = try posters.videoFrame(input: descriptor, longest: longest)
                return try poster(frame, longest: longest, encoding: encoding)
            case .pdf:
                let page = try posters.pdfPage(input: descriptor, longest: longest)
                return try poster(page, longest: longest, encoding: encoding)
            case .picture: break
            }
        }
        guard ImageFormat.sniff(head) != nil else {
            throw ThumbnailError(.notThumbnailable, "Not a picture this server reads")
        }
        // After a file of a megabyte or more, what the decode freed goes back to the system: glibc
        // would keep it in the decoding thread's arena (20 MB over a thousand photos), and a
        // 12-megapixel PNG needs that room.
        defer { if status.st_size >= 1 << 20 { bt_trim_heap() } }
        return try thumbnail(
            reading: descriptor, size: Int(status.st_size), longest: longest, encoding: encoding)
    }

    /// Reads the `size` bytes of the picture open at `descriptor` and makes its thumbnail, lending
    /// the bytes to the decoder (a PNG's are rearranged in place). They are freed when this
    /// returns, so that the caller trims the heap after them.
    private func thumbnail(
        reading descriptor: Int32, size: Int, longest: Int, encoding: ThumbnailEncoding
    ) throws(ThumbnailError) -> Thumbnail {
        guard var bytes = FileContents.read(descriptor, limit: size) else {
            throw ThumbnailError(.unreadable, "The file cannot be read")
        }
        return try thumbnail(of: &bytes, rearranging: true, longest: longest, encoding: encoding)
    }

    /// The duration and shown size of the video open at `descriptor`, from `ffprobe` (bounded
    /// in time and output, like the posters).
    public func videoDetails(ofFile descriptor: Int32) throws(ThumbnailError) -> VideoDetails {
        try posters.videoDetails(input: descriptor)
    }

    /// A thumbnail of the file at `path`.
    public func thumbnail(atPath path: String, longest: Int) throws(ThumbnailError) -> Thumbnail {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ThumbnailError(.unreadable, "\(path) cannot be opened") }
        defer { close(descriptor) }
        return try thumbnail(ofFile: descriptor, name: FileName.lastComponent(of: path), longest: longest)
    }

    private func poster(
        _ ppm: [UInt8], longest: Int, encoding: ThumbnailEncoding
    ) throws(ThumbnailError) -> Thumbnail {
        let image = try PPMDecoder.thumbnail(ppm, longest: longest, maximumPixels: maximumPixels)
        return try encode(image, as: encoding, sourceWidth: nil, sourceHeight: nil)
    }

    /// `image` encoded as `encoding`, or as JPEG when this process has no WebP encoder.
    private func encode(
        _ image: PixelImage, as encoding: ThumbnailEncoding, sourceWidth: Int?, sourceHeight: Int?
    ) throws(ThumbnailError) -> Thumbnail {
        if encoding == .webp, let webp = WebPLibrary.shared?.encode(image, quality: webpQuality) {
            return Thumbnail(
                encoded: webp, encoding: .webp, width: image.width, height: image.height,
                sourceWidth: sourceWidth, sourceHeight: sourceHeight)
        }
        return Thumbnail(
            encoded: try SystemCodecs.encodeJPEG(image, quality: quality), encoding: .jpeg,
            width: image.width,
            height: image.height, sourceWidth: sourceWidth, sourceHeight: sourceHeight)
    }
}
