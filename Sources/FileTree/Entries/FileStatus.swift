internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything one `statx` (or `fstatat`) call says about an item: FileTree's fast default
/// metadata, read once per entry.
public struct FileStatus: Sendable, Hashable {
    /// The type and permission bits (`st_mode`).
    public var mode: UInt32
    /// The owner's user ID.
    public var ownerID: UInt32
    /// The group ID.
    public var groupID: UInt32
    /// The number of hard links.
    public var linkCount: UInt64
    /// The inode number.
    public var inode: UInt64
    /// The device the item lives on.
    public var device: UInt64
    /// The size in bytes (for a symlink, the length of its target).
    public var size: Int64
    /// The bytes the item occupies on disk (512-byte blocks × 512): smaller than ``size`` for a
    /// sparse file, larger for a small one.
    public var allocatedSize: Int64
    /// Last access.
    public var accessed: Timestamp
    /// Last change of the contents.
    public var modified: Timestamp
    /// Last change of the metadata (inode).
    public var statusChanged: Timestamp
    /// Birth time, where the system and the file system keep one (statx on Linux).
    public var created: Timestamp?

    /// What the mode says the item is.
    public var type: EntryType { EntryType(mode: mode) }
    /// The permission bits of the mode.
    public var permissions: FilePermissions { FilePermissions(rawValue: UInt16(truncatingIfNeeded: mode)) }

    init(_ raw: cft_status) {
        mode = raw.mode
        ownerID = raw.uid
        groupID = raw.gid
        linkCount = raw.nlink
        inode = raw.inode
        device = raw.device
        size = raw.size
        allocatedSize = raw.blocks &* 512
        accessed = Timestamp(seconds: raw.access_sec, nanoseconds: Int32(truncatingIfNeeded: raw.access_nsec))
        modified = Timestamp(seconds: raw.modify_sec, nanoseconds: Int32(truncatingIfNeeded: raw.modify_nsec))
        statusChanged = Timestamp(
            seconds: raw.change_sec, nanoseconds: Int32(truncatingIfNeeded: raw.change_nsec))
        created =
            raw.has_birth_time != 0
            ? Timestamp(seconds: raw.birth_sec, nanoseconds: Int32(truncatingIfNeeded: raw.birth_nsec)) : nil
    }

    /// The status of what an open descriptor is (`fstat`): the file a request opened, with no
    /// second lookup by name.
    public init(descriptor: Int32) throws(FileTreeError) {
        var raw = cft_status()
        let failure = cft_status_of_descriptor(descriptor, &raw)
        guard failure == 0 else {
            throw FileTreeError(errno: failure, path: nil, operation: "Reading metadata")
        }
        self.init(raw)
    }

    /// The status of what `path` names, symlinks followed (`statx` or `stat`); `nil` when it
    /// cannot be read. One system call: cheap enough to ask whether a file is still the version
    /// something was made from.
    public init?(path: String) {
        guard case .success(let status) = Self.read(spelling: path) else { return nil }
        self = status
    }

    /// Reads the status of what `path` (absolute, or from the working folder) names, symlinks
    /// followed. A path that does not exist as written and spells names that are not UTF-8 with
    /// U+FFFD is read again as the names it stands for (``SystemNames``).
    static func read(spelling path: String) -> Result<FileStatus, SystemError> {
        let read = path.withCString { Self.read($0, relativeTo: AT_FDCWD, followingSymlink: true) }
        guard case .failure(let failure) = read, failure.number == ENOENT,
            let bytes = SystemNames.cPath(spelling: path)
        else { return read }
        return Self.read(bytes, relativeTo: AT_FDCWD, followingSymlink: true)
    }

    /// Reads the status of `path` relative to the folder `directoryDescriptor` (or `AT_FDCWD`).
    static func read(
        _ path: UnsafePointer<CChar>, relativeTo directoryDescriptor: Int32, followingSymlink: Bool
    ) -> Result<FileStatus, SystemError> {
        var raw = cft_status()
        let failure = cft_status_at(directoryDescriptor, path, followingSymlink ? 1 : 0, &raw)
        return failure == 0 ? .success(FileStatus(raw)) : .failure(SystemError(number: failure))
    }
}

/// A failed system call's `errno`, before it becomes a ``FileTreeError`` with a path.
struct SystemError: Error {
    let number: Int32
}
