internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder held open: every operation on a name inside it is a `*at` call relative to its
/// descriptor, so the folder cannot be swapped for another (a symlink put in its place, say)
/// between a check and the work.
///
/// ```swift
/// let folder = try OpenFolder(path: "/srv/files/docs")
/// let entries = try DirectoryReader().entries(in: folder)
/// try FileOperations.makeFolder(named: "new", in: folder)
/// ```
///
/// The descriptor is closed when the last reference goes away.
public final class OpenFolder: Sendable {
    /// The open descriptor (`O_RDONLY | O_DIRECTORY`).
    public let descriptor: Int32
    /// The folder's path as it was named, for the entries read in it and for messages. It is
    /// never opened again by name.
    public let path: String

    /// Opens the folder at `path` (a symlink there is followed).
    public init(path: String) throws(FileTreeError) {
        let opened = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard opened >= 0 else {
            throw FileTreeError(errno: errno, path: path, operation: "Opening the folder")
        }
        descriptor = opened
        self.path = path
    }

    /// Takes ownership of an open folder descriptor.
    public init(adopting descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// Opens the folder `name` inside this one; a symlink there is refused (`.symlinkLoop`), so
    /// a walk never leaves the tree it started in.
    public func folder(named name: String) throws(FileTreeError) -> OpenFolder {
        try folder(named: EntryName(name))
    }

    /// Opens the folder whose name is `systemName`'s bytes (valid UTF-8 or not, as
    /// ``FileEntry/systemName`` gives them) inside this one; a symlink there is refused, as by
    /// ``folder(named:)``.
    public func folder(systemName: [UInt8]) throws(FileTreeError) -> OpenFolder {
        try folder(named: EntryName(systemName: systemName))
    }

    /// The bytes of the one name here that reads as `name` with U+FFFD for what is not valid
    /// UTF-8 (as ``FileEntry/name`` and listings show it), when `name` itself is not here;
    /// `nil` when it is, or when no name or several read that way.
    public func systemName(readingAs name: String) -> [UInt8]? {
        guard name.unicodeScalars.contains("\u{FFFD}"), !contains(name) else { return nil }
        let copy = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard copy >= 0 else { return nil }
        return SystemNames.onlyName(readingAs: Substring(name), in: copy)
    }

    /// Opens the folder `name` (by its bytes) inside this one, as ``folder(named:)`` does.
    func folder(named name: EntryName) throws(FileTreeError) -> OpenFolder {
        let opened = openat(descriptor, name.cString, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard opened >= 0 else {
            throw FileTreeError(errno: errno, path: path(of: name.text), operation: "Opening the folder")
        }
        return OpenFolder(adopting: opened, path: path(of: name.text))
    }

    /// The status of `name` inside this folder (a symlink itself, not followed); `nil` when
    /// nothing is there.
    public func status(of name: String) -> FileStatus? {
        try? FileStatus.read(name, relativeTo: descriptor, followingSymlink: false).get()
    }

    /// The status of the folder itself.
    public func status() -> FileStatus? {
        try? FileStatus.read(".", relativeTo: descriptor, followingSymlink: false).get()
    }

    /// Whether something (a broken link included) is called `name` here.
    public func contains(_ name: String) -> Bool {
        status(of: name) != nil
    }

    /// The path of `name` inside this folder.
    public func path(of name: String) -> String {
        PathText.join(path, name)
    }

    /// Flushes the folder's entry table to disk.
    public func sync() {
        _ = fsync(descriptor)
    }

    /// Whether this folder is `identity` or lies below it: its parents are opened with `..` up to
    /// the top of the file system, so a name that was renamed meanwhile cannot mislead it.
    func isInside(_ identity: FileIdentity) -> Bool {
        var current = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { return false }
        defer { close(current) }
        for _ in 0..<4096 {
            guard let status = try? FileStatus.read(".", relativeTo: current, followingSymlink: false).get()
            else {
                return false
            }
            if FileIdentity(status) == identity { return true }
            let parent = openat(current, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard parent >= 0 else { return false }
            let parentStatus = try? FileStatus.read(".", relativeTo: parent, followingSymlink: false).get()
            close(current)
            current = parent
            // The top: a folder that is its own parent.
            if let parentStatus, FileIdentity(parentStatus) == FileIdentity(status) { return false }
        }
        return false
    }
}
