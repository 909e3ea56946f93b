internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin wrappers that turn a failed system call into a ``FileTreeError`` with its path.
enum SystemCalls {
    /// `write(2)`, named apart from the methods that call it.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #elseif canImport(Musl)
            Musl.write(descriptor, bytes, count)
        #else
            Darwin.write(descriptor, bytes, count)
        #endif
    }

    /// `read(2)`, named apart from the methods that call it.
    static func read(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(descriptor, bytes, count)
        #elseif canImport(Musl)
            Musl.read(descriptor, bytes, count)
        #else
            Darwin.read(descriptor, bytes, count)
        #endif
    }

    static func check(_ result: Int32, _ path: String, _ operation: String) throws(FileTreeError) {
        if result != 0 { throw FileTreeError(errno: errno, path: path, operation: operation) }
    }

    static func linkStatus(_ path: String) throws(FileTreeError) -> FileStatus {
        switch path.withCString({ FileStatus.read($0, relativeTo: AT_FDCWD, followingSymlink: false) }) {
        case .success(let status): return status
        case .failure(let failure): throw FileTreeError(errno: failure.number, path: path)
        }
    }

    static func status(_ path: String) -> FileStatus? {
        try? path.withCString({ FileStatus.read($0, relativeTo: AT_FDCWD, followingSymlink: true) }).get()
    }

    static func exists(_ path: String) -> Bool {
        (try? linkStatus(path)) != nil
    }

    /// Renames without replacing: `renameat2(RENAME_NOREPLACE)`, or where the file system cannot,
    /// `link` + `unlink` for a file (also atomic) and a checked `rename` for a folder.
    static func renameWithoutReplacing(_ source: String, _ destination: String) throws(FileTreeError) {
        let result = cft_rename_noreplace(AT_FDCWD, source, AT_FDCWD, destination)
        switch result {
        case 0:
            return
        case EINVAL where !isInside(destination, source), ENOSYS, ENOTSUP:
            break
        default:
            throw FileTreeError(
                errno: result, path: result == EEXIST ? destination : source, operation: "Moving")
        }
        let status = try linkStatus(source)
        if status.type != .directory, link(source, destination) == 0 {
            unlink(source)
            return
        }
        if exists(destination) {
            throw FileTreeError(errno: EEXIST, path: destination, operation: "Moving")
        }
        try check(rename(source, destination), source, "Moving")
    }

    /// `rename(2)`: replaces what is at `destination`.
    static func renameReplacing(_ source: String, _ destination: String) -> Int32 {
        rename(source, destination)
    }

    /// Whether `path` is `folder` or lies below it, by text.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// Flushes a folder's entry table to disk, so a rename inside it survives a crash.
    static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// A hidden name next to `name` for a temporary item: never listed, never a clash.
    static func temporaryName(for name: String) -> String {
        let stem = name.utf8.count > 200 ? String(decoding: name.utf8.prefix(200), as: UTF8.self) : name
        return ".\(stem).browsey-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
    }
}
