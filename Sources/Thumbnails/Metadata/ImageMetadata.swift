/// What a picture's header says about it: its size, and from EXIF how to turn it upright,
/// when it was taken and with what.
public struct ImageMetadata: Sendable, Hashable {
    /// The format the bytes are in.
    public var format: ImageFormat
    /// The stored width in pixels (before ``orientation`` is applied).
    public var width: Int
    /// The stored height in pixels.
    public var height: Int
    /// EXIF orientation, 1 to 8 (1: stored upright); `nil` when the file does not say.
    public var orientation: Int?
    /// EXIF `DateTimeOriginal` as the camera wrote it (`2024:05:01 10:30:00`).
    public var taken: String?
    /// EXIF `Make` and `Model`, joined by a space (the make left out when the model repeats it).
    public var camera: String?

    /// Makes metadata.
    public init(
        format: ImageFormat, width: Int, height: Int, orientation: Int? = nil, taken: String? = nil,
        camera: String? = nil
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.taken = taken
        self.camera = camera
    }

    /// Whether the orientation turns the picture a quarter: width and height trade places.
    public var isTransposed: Bool { (orientation ?? 1) >= 5 && (orientation ?? 1) <= 8 }

    /// The width as the picture is shown (after ``orientation``).
    public var displayWidth: Int { isTransposed ? height : width }
    /// The height as the picture is shown (after ``orientation``).
    public var displayHeight: Int { isTransposed ? width : height }
}
