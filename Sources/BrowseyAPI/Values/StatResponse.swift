#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// `GET /api/stat`: one item's metadata.
public struct StatResponse: Codable, Sendable, Hashable {
    /// The name.
    public var name: String
    /// What it is.
    public var type: ItemType
    /// Size in bytes.
    public var size: Int64
    /// Last modification.
    public var modified: Date
    /// Birth time where the file system keeps one, else the last status change (as Node does).
    public var created: Date
    /// The extension, `null` for folders and dot-names.
    public var `extension`: String?
    /// The absolute filesystem path.
    public var absolutePath: String
    /// The path relative to the served root (additive).
    public var path: String?
    /// The MIME type (additive).
    public var mimeType: String?
    /// POSIX permissions as `rwxr-xr-x` (additive).
    public var permissions: String?

    /// Makes a stat answer.
    public init(
        name: String, type: ItemType, size: Int64, modified: Date, created: Date, extension: String?,
        absolutePath: String, path: String? = nil, mimeType: String? = nil, permissions: String? = nil
    ) {
        self.name = name
        self.type = type
        self.size = size
        self.modified = modified
        self.created = created
        self.extension = `extension`
        self.absolutePath = absolutePath
        self.path = path
        self.mimeType = mimeType
        self.permissions = permissions
    }

    enum CodingKeys: String, CodingKey {
        case name, type, size, modified, created, `extension`, absolutePath, path, mimeType, permissions
    }

    /// Writes `extension` as `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        try container.encode(size, forKey: .size)
        try container.encode(modified, forKey: .modified)
        try container.encode(created, forKey: .created)
        try container.encode(`extension`, forKey: .extension)
        try container.encode(absolutePath, forKey: .absolutePath)
        try container.encodeIfPresent(path, forKey: .path)
        try container.encodeIfPresent(mimeType, forKey: .mimeType)
        try container.encodeIfPresent(permissions, forKey: .permissions)
    }
}
