#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// `GET /api/view`: what a viewer needs to show a file.
public struct ViewResponse: Codable, Sendable, Hashable {
    /// What kind of view, as the contract names them.
    public enum Kind: String, Codable, Sendable, Hashable {
        /// Text (Markdown included), with `content`.
        case text
        /// An image, with `url`.
        case image
        /// A video, with `url`.
        case video
    }

    /// Pixel size of an image.
    public struct Dimensions: Codable, Sendable, Hashable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Makes a size.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// What a picture's header says (additive): its size as shown, and from EXIF the date it
    /// was taken, the camera and the orientation.
    public struct Picture: Codable, Sendable, Hashable {
        /// Width in pixels as shown (after the orientation).
        public var width: Int
        /// Height in pixels as shown.
        public var height: Int
        /// EXIF `DateTimeOriginal` as the camera wrote it (`2024:05:01 10:30:00`).
        public var taken: String?
        /// EXIF `Make` and `Model`.
        public var camera: String?
        /// EXIF orientation, 1 to 8, when the file gives one.
        public var orientation: Int?

        /// Makes a picture's description.
        public init(
            width: Int, height: Int, taken: String? = nil, camera: String? = nil, orientation: Int? = nil
        ) {
            self.width = width
            self.height = height
            self.taken = taken
            self.camera = camera
            self.orientation = orientation
        }
    }

    /// What a video's container says (additive): how long it plays and its picture's size as
    /// shown; present when the server has `ffprobe` and it could read the file.
    public struct Video: Codable, Sendable, Hashable {
        /// How long it plays, in seconds.
        public var duration: Double?
        /// Width in pixels as shown (after the container's rotation).
        public var width: Int?
        /// Height in pixels as shown.
        public var height: Int?

        /// Makes a video's description.
        public init(duration: Double? = nil, width: Int? = nil, height: Int? = nil) {
            self.duration = duration
            self.width = width
            self.height = height
        }
    }

    /// What kind of view.
    public var type: Kind
    /// The file's name.
    public var filename: String
    /// The extension, `null` when none.
    public var `extension`: String?
    /// The text, for `text`.
    public var content: String?
    /// Where to fetch the bytes, for `image` and `video`.
    public var url: String?
    /// Size in bytes.
    public var size: Int64
    /// Last modification (text views).
    public var modified: Date?
    /// The highlighter's language name (additive), `plaintext` when none applies.
    public var language: String?
    /// The MIME type (additive).
    public var mimeType: String?
    /// An image's pixel size, read from its header (additive).
    public var dimensions: Dimensions?
    /// A Markdown file rendered to HTML, raw HTML in it escaped (additive).
    public var html: String?
    /// Source code as HTML, its tokens in `<span class="hl-…">` (additive; `c` comment, `s`
    /// string, `n` number, `k` keyword, `t` tag, `a` attribute).
    public var highlighted: String?
    /// For a picture: its size as shown, and EXIF's date taken, camera and orientation (additive).
    public var image: Picture?
    /// For a video: its duration and size as shown (additive).
    public var video: Video?

    /// Makes a view answer.
    public init(
        type: Kind, filename: String, extension: String?, content: String? = nil, url: String? = nil,
        size: Int64, modified: Date? = nil, language: String? = nil, mimeType: String? = nil,
        dimensions: Dimensions? = nil, html: String? = nil, highlighted: String? = nil, image: Picture? = nil,
        video: Video? = nil
    ) {
        self.image = image
        self.video = video
        self.type = type
        self.filename = filename
        self.extension = `extension`
        self.content = content
        self.url = url
        self.size = size
        self.modified = modified
        self.language = language
        self.mimeType = mimeType
        self.dimensions = dimensions
        self.html = html
        self.highlighted = highlighted
    }

    enum CodingKeys: String, CodingKey {
        case type, filename, `extension`, content, url, size, modified, language, mimeType, dimensions, html,
            highlighted, image, video
    }

    /// Writes `extension` as `null` when absent; the rest only when present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(filename, forKey: .filename)
        try container.encode(`extension`, forKey: .extension)
        try container.encodeIfPresent(content, forKey: .content)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encode(size, forKey: .size)
        try container.encodeIfPresent(modified, forKey: .modified)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encodeIfPresent(mimeType, forKey: .mimeType)
        try container.encodeIfPresent(dimensions, forKey: .dimensions)
        try container.encodeIfPresent(html, forKey: .html)
        try container.encodeIfPresent(highlighted, forKey: .highlighted)
        try container.encodeIfPresent(image, forKey: .image)
        try container.encodeIfPresent(video, forKey: .video)
    }
}
