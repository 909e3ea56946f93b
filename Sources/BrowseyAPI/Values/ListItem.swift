#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What an entry is, as the contract names it.
public enum ItemType: String, Codable, Sendable, Hashable {
    /// A regular file (and anything that is neither a folder nor a link).
    case file
    /// A folder.
    case directory
    /// A symbolic link; the `target…` fields say where it points.
    case symlink
}

/// One entry of `GET /api/list`.
public struct ListItem: Codable, Sendable, Hashable {
    /// The name.
    public var name: String
    /// What it is.
    public var type: ItemType
    /// Size in bytes.
    public var size: Int64
    /// Last modification.
    public var modified: Date
    /// The extension without the dot, case kept; `null` for folders, dot-names and names without one.
    public var `extension`: String?
    /// The absolute filesystem path (the iOS app sends it back as `path`).
    public var absolutePath: String
    /// For a symlink: the target as stored.
    public var linkTarget: String?
    /// For a symlink: the target relative to the served root, when it lies inside.
    public var targetPath: String?
    /// For a symlink: the target's absolute path.
    public var targetAbsolutePath: String?
    /// For a symlink: what the target is, `null` when broken.
    public var targetType: ItemType?
    /// For a symlink: whether the target is missing.
    public var linkBroken: Bool?
    /// For a symlink leading outside the served folder (additive): its target is not shown.
    public var linkOutside: Bool?
    /// `true` when the server can make a thumbnail of the file (`GET /api/thumb`); absent
    /// otherwise (additive).
    public var thumbnail: Bool?

    /// Makes an item.
    public init(
        name: String, type: ItemType, size: Int64, modified: Date, extension: String?, absolutePath: String,
        linkTarget: String? = nil, targetPath: String? = nil, targetAbsolutePath: String? = nil,
        targetType: ItemType? = nil, linkBroken: Bool? = nil, linkOutside: Bool? = nil
    ) {
        self.linkOutside = linkOutside
        self.name = name
        self.type = type
        self.size = size
        self.modified = modified
        self.extension = `extension`
        self.absolutePath = absolutePath
        self.linkTarget = linkTarget
        self.targetPath = targetPath
        self.targetAbsolutePath = targetAbsolutePath
        self.targetType = targetType
        self.linkBroken = linkBroken
    }

    enum CodingKeys: String, CodingKey {
        case name, type, size, modified, `extension`, absolutePath
        case linkTarget, targetPath, targetAbsolutePath, targetType, linkBroken, linkOutside, thumbnail
    }

    /// Writes `extension` as `null` when absent (the contract always has it); the symlink fields
    /// only for symlinks.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        try container.encode(size, forKey: .size)
        try container.encode(modified, forKey: .modified)
        try container.encode(`extension`, forKey: .extension)
        try container.encode(absolutePath, forKey: .absolutePath)
        if type == .symlink {
            try container.encode(linkTarget, forKey: .linkTarget)
            try container.encode(targetPath, forKey: .targetPath)
            try container.encode(targetAbsolutePath, forKey: .targetAbsolutePath)
            try container.encode(targetType, forKey: .targetType)
            try container.encode(linkBroken ?? false, forKey: .linkBroken)
            try container.encodeIfPresent(linkOutside, forKey: .linkOutside)
        }
        try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
    }
}

/// `GET /api/list`: a folder's entries.
public struct ListResponse: Codable, Sendable, Hashable {
    /// The folder, relative to the served root, with a leading `/`.
    public var path: String
    /// The folder's absolute filesystem path.
    public var absolutePath: String
    /// The entries, folders first, then names.
    public var items: [ListItem]

    /// Makes a listing.
    public init(path: String, absolutePath: String, items: [ListItem]) {
        self.path = path
        self.absolutePath = absolutePath
        self.items = items
    }
}
