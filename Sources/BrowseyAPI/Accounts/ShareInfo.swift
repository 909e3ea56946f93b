#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One share link as its owner (or an administrator) sees it; its password never appears.
public struct ShareInfo: Codable, Sendable, Hashable {
    /// The link's id (128 random bits, hex).
    public var id: String
    /// The link, from the server's root: `/s/ID`.
    public var url: String
    /// What it opens.
    public var path: String
    /// Who made it.
    public var owner: String
    /// Whether it is a file request.
    public var upload: Bool
    /// Whether it asks for a password.
    public var hasPassword: Bool
    /// When it stops working, if ever.
    public var expires: Date?
    /// When it was made.
    public var created: Date
    /// How many downloads it served.
    public var downloads: Int

    /// Makes a share's description.
    public init(
        id: String, url: String, path: String, owner: String, upload: Bool, hasPassword: Bool, expires: Date?,
        created: Date, downloads: Int
    ) {
        self.id = id
        self.url = url
        self.path = path
        self.owner = owner
        self.upload = upload
        self.hasPassword = hasPassword
        self.expires = expires
        self.created = created
        self.downloads = downloads
    }
}
