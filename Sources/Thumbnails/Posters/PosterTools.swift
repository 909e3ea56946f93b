#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The helper programs that make posters: `ffmpeg` for a video's frame, `pdftoppm` (poppler)
/// for a PDF's first page, and `ffprobe` for a video's duration, found on `PATH` once, at
/// start. Any may be missing; then that type has no thumbnails (or videos no duration).
public struct PosterTools: Sendable, Hashable {
    /// Where `ffmpeg` is, if anywhere.
    public var ffmpeg: String?
    /// Where `pdftoppm` is, if anywhere.
    public var pdftoppm: String?
    /// Where `ffprobe` is, if anywhere.
    public var ffprobe: String?
    /// How long a helper may run for one poster.
    public var timeout: Duration = .seconds(20)
    /// The most a helper may write for one poster (a PPM frame).
    public var outputLimit = 64 << 20
    /// Whether each helper runs confined to the system's files and the one file it reads
    /// (``FileTree/Confinement``, where the kernel can): true but for a test that has a helper
    /// write down that it ran.
    public var confined = true

    /// Tools at the given places (`nil`: none).
    public init(ffmpeg: String? = nil, pdftoppm: String? = nil, ffprobe: String? = nil) {
        self.ffmpeg = ffmpeg
        self.pdftoppm = pdftoppm
        self.ffprobe = ffprobe
    }

    /// The tools found on `PATH` (or in `path`, a `PATH`-style list).
    public static func find(path: String? = nil) -> PosterTools {
        PosterTools(
            ffmpeg: ChildProcess.find("ffmpeg", path: path),
            pdftoppm: ChildProcess.find("pdftoppm", path: path),
            ffprobe: ChildProcess.find("ffprobe", path: path))
    }

    /// The duration and shown size of the video read from `input`.
    func videoDetails(input: Int32) throws(ThumbnailError) -> VideoDetails {
        guard let ffprobe else {
            throw ThumbnailError(.notThumbnailable, "No ffprobe: no duration for videos")
        }
        lseekToStart(input)
        let output = try ChildProcess.run(
            ffprobe,
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries",
                "format=duration:stream=width,height:stream_side_data=rotation", "-of",
                "default=noprint_wrappers=1", "/dev/stdin",
            ], input: input, timeout: .seconds(10), outputLimit: 64 << 10, confined: confined)
        guard let details = VideoDetails.parse(ffprobeOutput: output) else {
            throw ThumbnailError(.posterFailed, "ffprobe found no video stream")
        }
        return details
    }

    /// A poster of the video read from `input`, at most `longest` on its longest side, as PPM.
    func videoFrame(input: Int32, longest: Int) throws(ThumbnailError) -> [UInt8] {
        guard let ffmpeg else {
            throw ThumbnailError(.notThumbnailable, "No ffmpeg: no poster for this type")
        }
        // A frame one second in (past a black first frame), else the first one.
        for start in ["1", "0"] {
            lseekToStart(input)
            let output = try ChildProcess.run(
                ffmpeg,
                [
                    "-hide_banner", "-loglevel", "error", "-nostdin", "-ss", start, "-i", "/dev/stdin",
                    "-frames:v", "1", "-vf",
                    // Brought down to fit, never up: a small clip's poster is its own size.
                    "scale=w='min(\(longest),iw)':h='min(\(longest),ih)':force_original_aspect_ratio=decrease",
                    "-f", "image2pipe",
                    "-vcodec", "ppm", "pipe:1",
                ], input: input, timeout: timeout, outputLimit: outputLimit, confined: confined)
            if !output.isEmpty { return output }
        }
        throw ThumbnailError(.posterFailed, "ffmpeg found no frame")
    }

    /// The first page of the PDF read from `input`, at most `longest` on its longest side, as PPM.
    func pdfPage(input: Int32, longest: Int) throws(ThumbnailError) -> [UInt8] {
        guard let pdftoppm else {
            throw ThumbnailError(.notThumbnailable, "No pdftoppm: no poster for this type")
        }
        lseekToStart(input)
        return try ChildProcess.run(
            pdftoppm, ["-f", "1", "-l", "1", "-scale-to", String(longest), "/dev/stdin"], input: input,
            timeout: timeout, outputLimit: outputLimit, confined: confined)
    }
}

/// Rewinds a file a helper reads as its standard input.
private func lseekToStart(_ descriptor: Int32) {
    _ = lseek(descriptor, 0, SEEK_SET)
}
