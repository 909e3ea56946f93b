public import FileTree

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One cell of the document browser: a document (a file or a package folder) or a group.
public struct DocumentItem: Identifiable, Hashable, Sendable {
    /// Whether an item is a document or a group of them.
    public enum Kind: String, Sendable, Hashable {
        /// A file or a package folder with a registered extension.
        case document
        /// A folder marked as a group (a stack), entered to see what it holds.
        case group
    }

    /// The item's path below the library's root (`Sketches/cat.sketch`): stable while the item
    /// keeps its name and place.
    public let id: String
    /// The absolute path.
    public let path: String
    /// The file or folder name.
    public let name: String
    /// Document or group.
    public let kind: Kind
    /// Whether the document is a folder (a package).
    public let isPackage: Bool
    /// Bytes: the file's size, a package's files together, a group's documents together.
    public let size: Int64
    /// The last change: the file's, the newest inside a package or a group.
    public let modified: Timestamp
    /// When the item was created, where the file system says.
    public let created: Timestamp?
    /// How many documents a group holds (counting those in groups inside it); 1 for a document.
    public let documentCount: Int
    /// A group's first documents (newest first, up to four), for a stack's picture.
    public let previewIDs: [String]
    /// The name folded for sorting.
    let sortKey: NaturalSortKey

    init(
        id: String, path: String, name: String, kind: Kind, isPackage: Bool, size: Int64,
        modified: Timestamp, created: Timestamp?, documentCount: Int = 1, previewIDs: [String] = []
    ) {
        self.id = id
        self.path = path
        self.name = name
        self.kind = kind
        self.isPackage = isPackage
        self.size = size
        self.modified = modified
        self.created = created
        self.documentCount = documentCount
        self.previewIDs = previewIDs
        self.sortKey = NaturalSortKey(kind == .group ? name : String(FileName.displayName(of: name)))
    }

    /// The name shown: a document's without its extension, a group's whole.
    public var displayName: String {
        kind == .group ? name : String(FileName.displayName(of: name))
    }

    /// The extension, lowercased (`nil` for a group).
    public var pathExtension: String? {
        kind == .group ? nil : FileName.pathExtension(of: name).map { $0.lowercased() }
    }

    /// The identifier of the folder or group holding the item (`""` for the root).
    public var parentID: String {
        guard let slash = id.lastIndex(of: "/") else { return "" }
        return String(id[..<slash])
    }

    /// The file URL.
    public var url: URL { URL(fileURLWithPath: path, isDirectory: kind == .group || isPackage) }

    /// Whether `self` and `other` show the same thing (same content, same date): what a cell
    /// compares to know whether to redraw.
    public static func == (lhs: DocumentItem, rhs: DocumentItem) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.size == rhs.size && lhs.modified == rhs.modified
            && lhs.created == rhs.created && lhs.documentCount == rhs.documentCount
            && lhs.previewIDs == rhs.previewIDs && lhs.isPackage == rhs.isPackage
    }

    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
