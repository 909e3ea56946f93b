public import FileTree

/// What the index knows of one entry: enough to find it, filter it and tell a client what it is.
public struct IndexedEntry: Sendable, Hashable {
    /// What an entry is.
    public enum Kind: UInt8, Sendable, Hashable {
        /// A regular file (or anything that is neither a folder nor a link).
        case file = 0
        /// A folder.
        case directory = 1
        /// A symbolic link (never followed by the index).
        case symlink = 2

        /// The kind of an entry FileTree read (devices, sockets and pipes count as files).
        public init(_ type: EntryType) {
            switch type {
            case .directory: self = .directory
            case .symlink: self = .symlink
            case .regular, .other: self = .file
            }
        }
    }

    /// The name, as the file system holds it.
    public var name: String
    /// What it is.
    public var kind: Kind
    /// The size in bytes.
    public var size: Int64
    /// The modification time, nanoseconds since 1970.
    public var modified: Int64
    /// The inode, which pairs a disappearance with an appearance into a rename.
    public var inode: UInt64

    /// Makes an entry.
    public init(name: String, kind: Kind, size: Int64, modified: Int64, inode: UInt64) {
        self.name = name
        self.kind = kind
        self.size = size
        self.modified = modified
        self.inode = inode
    }
}
