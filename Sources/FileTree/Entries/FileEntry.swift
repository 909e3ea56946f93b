#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One file, folder or link and its metadata, as a read found it.
///
/// The default metadata comes from one `statx` call per entry (type, size, allocated size, dates
/// with nanoseconds, birth time where the file system keeps it, permissions, owner and group IDs),
/// plus the content type from the name and, for a symlink, its target. Anything else is an
/// ``EntryAttribute`` asked for on the read and read back with ``subscript(_:)``:
///
/// ```swift
/// let folder = try DirectoryReader(extraAttributes: [.ownerName]).read(at: "/srv/files")
/// for entry in folder {
///     print(entry.name, entry.size, entry[.ownerName] ?? "?")
/// }
/// ```
///
/// Add your own computed properties in an extension, or your own ``EntryAttribute``.
public struct FileEntry: Sendable {
    /// The last path component as text. A name whose bytes are not valid UTF-8 (a file named on
    /// a system with another encoding) has each invalid sequence read as U+FFFD here; its
    /// bytes as they are on disk are ``systemName``.
    public let name: String
    /// The absolute path of the folder holding this entry (`"/"` for an item at the top).
    public let parentPath: String
    /// What the entry is, without following a symlink.
    public let type: EntryType
    /// The status read from the system; `nil` when reading it failed (see ``error``).
    public let status: FileStatus?
    /// The kind of file, from the name and the type (a folder with a package extension is a
    /// package).
    public let contentType: ContentType
    /// For a symbolic link, where it points and whether that exists.
    public var symlink: SymlinkInfo? { symlinkBox?.value }
    /// What went wrong reading this entry's metadata, if anything. The entry is still listed.
    public var error: FileTreeError? { errorBox?.value }
    // Rare values live behind a reference, so that an entry stays small to copy.
    private let symlinkBox: Boxed<SymlinkInfo>?
    private let errorBox: Boxed<FileTreeError>?
    /// The name's bytes, kept only when ``name`` does not spell them exactly.
    private let systemNameBox: Boxed<[UInt8]>?
    /// Extra attributes asked for on the read.
    let extras: [String: any Sendable]

    init(
        name: String, parentPath: String, type: EntryType, status: FileStatus?, contentType: ContentType,
        symlink: SymlinkInfo? = nil, error: FileTreeError? = nil, extras: [String: any Sendable] = [:],
        systemName: [UInt8]? = nil
    ) {
        self.name = name
        self.systemNameBox = systemName.map(Boxed.init)
        self.parentPath = parentPath
        self.type = type
        self.status = status
        self.contentType = contentType
        self.symlinkBox = symlink.map(Boxed.init)
        self.errorBox = error.map(Boxed.init)
        self.extras = extras
    }

    /// The name's bytes exactly as the file system has them: what opens the entry again
    /// relative to its folder (``OpenFolder/folder(systemName:)``), whether or not they are
    /// valid UTF-8.
    public var systemName: [UInt8] { systemNameBox?.value ?? Array(name.utf8) }
    /// Whether ``name`` spells the name's bytes exactly (they are valid UTF-8).
    public var hasExactName: Bool { systemNameBox == nil }

    /// The absolute path.
    public var path: String {
        if parentPath.isEmpty { return name }
        return parentPath.utf8.last == UInt8(ascii: "/") ? parentPath + name : parentPath + "/" + name
    }
    /// A file URL for the path (made on demand: URLs are costly to build in bulk).
    public var url: URL { URL(fileURLWithPath: path, isDirectory: type == .directory) }
    /// The text after the last dot, without it; `nil` for none and for dot-names (`.gitignore`).
    public var pathExtension: String? { FileName.pathExtension(of: name).map(String.init) }
    /// The name without its extension.
    public var displayName: String { String(FileName.displayName(of: name)) }
    /// Whether the name starts with a dot.
    public var isHidden: Bool { FileName.isHidden(name) }

    /// A regular file.
    public var isRegularFile: Bool { type == .regular }
    /// A folder (packages included).
    public var isDirectory: Bool { type == .directory }
    /// A symbolic link.
    public var isSymbolicLink: Bool { type == .symlink }
    /// A folder shown as one document, which deep reads do not enter.
    public var isPackage: Bool { type == .directory && contentType.isPackage }

    /// The size in bytes (0 when unknown).
    public var size: Int64 { status?.size ?? 0 }
    /// The bytes occupied on disk.
    public var allocatedSize: Int64 { status?.allocatedSize ?? 0 }
    /// Last modification of the contents.
    public var modified: Date? { status?.modified.date }
    /// Birth time, where the system knows it.
    public var created: Date? { status?.created?.date }
    /// Last access.
    public var accessed: Date? { status?.accessed.date }
    /// Last metadata change.
    public var statusChanged: Date? { status?.statusChanged.date }
    /// POSIX permissions.
    public var permissions: FilePermissions? { status?.permissions }
    /// The owner's user ID.
    public var ownerID: UInt32? { status?.ownerID }
    /// The group ID.
    public var groupID: UInt32? { status?.groupID }
    /// The content type's identifier, such as `public.png`.
    public var contentTypeIdentifier: String { contentType.identifier }
    /// The MIME type, `application/octet-stream` when none is known.
    public var mimeType: String { contentType.preferredMIMEType ?? "application/octet-stream" }

    /// The value of an extra attribute, when the read asked for it and it could be read.
    public subscript<Value>(attribute: EntryAttribute<Value>) -> Value? {
        extras[attribute.name] as? Value
    }

    /// The names of the extra attributes this entry carries.
    public var extraAttributeNames: [String] { extras.keys.sorted() }
}

/// Where a symbolic link points.
public struct SymlinkInfo: Sendable, Hashable {
    /// The target exactly as stored in the link (relative or absolute).
    public var target: String
    /// The target made absolute, relative to the link's folder, with `.` and `..` resolved by
    /// text (not by the file system).
    public var resolvedPath: String
    /// What the target is, following every link; `nil` when it is broken.
    public var targetType: EntryType?
    /// The target's status, following every link; `nil` when it is broken.
    public var targetStatus: FileStatus?

    /// Whether the target does not exist (or cannot be reached: a loop counts as broken).
    public var isBroken: Bool { targetType == nil }
}

/// An immutable value behind a reference: keeps rarely-set fields from making every copy large.
final class Boxed<Value: Sendable>: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
