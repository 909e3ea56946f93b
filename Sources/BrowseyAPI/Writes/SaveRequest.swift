#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// `POST /api/save`: replaces a text file's contents, if it is still the version the client read.
///
/// Both bases are required: the server answers 409 with the file's current `modified` and `size`
/// when either differs. An `If-Match` header with the file's `ETag` may be sent as well; it
/// catches two writes within one millisecond, which `baseModified` cannot.
public struct SaveRequest: Codable, Sendable, Hashable {
    /// The file, as for every endpoint.
    public var path: String
    /// The new text, UTF-8 (at most 5 MiB).
    public var content: String
    /// The `modified` date the client read (from `/api/view` or `/api/stat`).
    public var baseModified: Date?
    /// The `size` the client read.
    public var baseSize: Int64?

    /// Makes a save request.
    public init(path: String, content: String, baseModified: Date?, baseSize: Int64?) {
        self.path = path
        self.content = content
        self.baseModified = baseModified
        self.baseSize = baseSize
    }
}
