#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One deleted item kept in the server's trash.
public struct TrashItem: Codable, Sendable, Hashable {
    /// The entry's identifier, for `POST /api/restore`.
    public var id: String
    /// The item's name.
    public var name: String
    /// Where it was, relative to the served root.
    public var originalPath: String
    /// What it is.
    public var type: ItemType
    /// Its size in bytes (everything inside, for a folder).
    public var size: Int64
    /// When it was deleted.
    public var deletedAt: Date

    /// Describes a trash entry.
    public init(id: String, name: String, originalPath: String, type: ItemType, size: Int64, deletedAt: Date)
    {
        self.id = id
        self.name = name
        self.originalPath = originalPath
        self.type = type
        self.size = size
        self.deletedAt = deletedAt
    }
}
