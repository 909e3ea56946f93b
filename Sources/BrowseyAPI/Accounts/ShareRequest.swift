#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A new share link: `POST /api/share`.
public struct ShareRequest: Codable, Sendable, Hashable {
    /// The file or folder to share.
    public var path: String
    /// When the link stops working; never when `nil`.
    public var expires: Date?
    /// A password the link asks for (HTTP Basic, any user name); none when `nil`.
    public var password: String?
    /// A file request into the folder (add files, see nothing) instead of a read-only view.
    public var upload: Bool?

    /// Makes a share request.
    public init(path: String, expires: Date? = nil, password: String? = nil, upload: Bool? = nil) {
        self.path = path
        self.expires = expires
        self.password = password
        self.upload = upload
    }
}
