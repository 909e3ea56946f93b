import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small operations on absolute paths as text.
enum Paths {
    /// `folder/name`, without doubling the slash of `/`.
    static func join(_ folder: String, _ name: some StringProtocol) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The folder that holds `path` (`/` for a top-level item).
    static func parent(of path: String) -> String {
        let components = path.split(separator: "/")
        return components.count <= 1 ? "/" : "/" + components.dropLast().joined(separator: "/")
    }

    /// Whether something (a broken link included) is at `path`.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// What is at `path` (a link itself, not followed); `nil` when nothing is.
    static func type(at path: String) -> EntryType? {
        var status = stat()
        if lstat(path, &status) != 0 {
            // A path that spells a name that is not UTF-8 with U+FFFD: the name it stands for.
            guard errno == ENOENT, let bytes = SystemNames.cPath(spelling: path), lstat(bytes, &status) == 0
            else { return nil }
        }
        return type(of: status)
    }

    /// What is at `relative` (a path inside the root, `/` first) below the root held open as
    /// `root`, a link itself not followed: ``type(at:)`` of the same place, reached below the
    /// root (a folder on its way swapped for a link out is not followed, so nothing outside is
    /// looked at; a search checks each of its hits). `nil` when nothing is there, or it lies
    /// out of the root by now.
    static func type(at relative: String, below root: ContainedRoot) -> EntryType? {
        do throws(FileTreeError) {
            return try root.status(of: relative, followingLink: false).type
        } catch  where error.code == .symlinkLoop {
            return .symlink  // a system without O_PATH refuses to open the link itself
        } catch {
            return nil
        }
    }

    private static func type(of status: stat) -> EntryType {
        switch UInt32(status.st_mode) & UInt32(S_IFMT) {
        case UInt32(S_IFDIR): return .directory
        case UInt32(S_IFLNK): return .symlink
        case UInt32(S_IFREG): return .regular
        default: return .other
        }
    }
}
