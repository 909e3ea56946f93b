internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder that nothing opened through it can leave: paths are resolved from its open
/// descriptor one component at a time, by the kernel, and a `..` or a symlink that would lead out
/// fails with ``FileTreeError/Code/outsideRoot`` instead of following.
///
/// On Linux 5.6 and later this is `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`;
/// elsewhere (and for absolute links, which `openat2` refuses outright) a walk of
/// `openat(O_NOFOLLOW)` calls, each relative to the folder before it. An absolute link counts as
/// inside when its text starts with the root's real path.
///
/// Checking a path and then opening it by name leaves a gap: another program can swap a folder
/// for a link to elsewhere in between. Opening through a contained root closes it: a swap at
/// any moment can make an operation fail or see another item inside, never one outside.
///
/// ```swift
/// let root = try ContainedRoot(path: "/srv/files")
/// let (folder, name) = try root.parent(of: "docs/notes.md")  // the folder held open
/// try FileOperations.makeFolder(named: "drafts", in: folder)
/// ```
public final class ContainedRoot: Sendable {
    /// The root as it was named.
    public let path: String
    /// The root with every symlink resolved.
    public let realPath: String
    /// The root held open.
    public let folder: OpenFolder

    /// Opens the root (a symlink there is followed once, now).
    public init(path: String) throws(FileTreeError) {
        folder = try OpenFolder(path: path)
        self.path = path
        realPath = Self.realPath(of: path)
    }

    /// A contained root on a folder already held open: nothing is opened again by name. Its
    /// real path is where the descriptor is (on Linux, read from the descriptor itself, so a
    /// folder swapped for a link since it was opened does not move it).
    public init(holding folder: OpenFolder) {
        self.folder = folder
        path = folder.path
        realPath = Self.realPath(of: folder)
    }

    /// Where the folder held open is, every link resolved.
    private static func realPath(of folder: OpenFolder) -> String {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/self/fd/\(folder.descriptor)", &buffer, buffer.count - 1)
            if length > 0 && buffer[0] == CChar(UInt8(ascii: "/")) {
                let text = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                // A folder removed since reads " (deleted)" after its path (so may a folder
                // named so): then its name is resolved, below.
                if !text.hasSuffix(" (deleted)") { return text }
            }
        #endif
        // By name, kept only when it names the folder held (not one swapped in since).
        let named = realPath(of: folder.path)
        guard let held = folder.status(), let found = try? FileStatus.read(spelling: named).get(),
            held.device == found.device && held.inode == found.inode
        else { return "/nonexistent/\u{1}" }
        return named
    }

    /// `path` with every symlink resolved; `path` itself when that fails.
    private static func realPath(of path: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &buffer) != nil else { return path }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Opens `relative` as ``open(_:flags:mode:)`` does, given as bytes: components whose names
    /// are not valid UTF-8 (``FileEntry/systemName``) are opened as they are on disk.
    public func open(
        systemPath relative: [UInt8], flags: Int32, mode: UInt32 = 0o600
    ) throws(FileTreeError) -> Int32 {
        let descriptor = cft_open_beneath(
            folder.descriptor, realPath, EntryName.cString(relative), flags, mode)
        guard descriptor >= 0 else {
            throw Self.failure(errno, String(decoding: relative, as: UTF8.self))
        }
        return descriptor
    }

    /// Opens `relative` (`/`-separated, from the root; `""` or `/` is the root) with `open(2)`'s
    /// `flags` and `mode`; `O_NOFOLLOW` refuses a symlink as the last component. The caller
    /// closes the descriptor.
    ///
    /// A name that is not valid UTF-8 reads with U+FFFD in listings (``FileEntry/name``);
    /// such a path opens the one entry whose name reads that way (see
    /// ``systemPath(spelledBy:)``).
    ///
    /// - Throws: `.outsideRoot` when the path leads out, or what `open` says.
    public func open(_ relative: String, flags: Int32, mode: UInt32 = 0o600) throws(FileTreeError) -> Int32 {
        let descriptor = cft_open_beneath(folder.descriptor, realPath, relative, flags, mode)
        guard descriptor >= 0 else {
            let number = errno
            if number == ENOENT, let bytes = systemPath(spelledBy: relative) {
                return try open(systemPath: bytes, flags: flags, mode: mode)
            }
            throw Self.failure(number, relative)
        }
        return descriptor
    }

    /// The status of what `relative` names, links that stay inside followed (a link that leads
    /// out is `.outsideRoot`), read from a descriptor opened below the root only for that. With
    /// `followingLink` false, a link as the last name is described itself (where the system has
    /// no `O_PATH`, its open fails with `.symlinkLoop`).
    public func status(of relative: String, followingLink: Bool = true) throws(FileTreeError) -> FileStatus {
        let descriptor = try open(relative, flags: cft_status_open_flags() | (followingLink ? 0 : O_NOFOLLOW))
        defer { close(descriptor) }
        return try FileStatus(descriptor: descriptor)
    }

    /// Opens the folder `relative` (a symlink that stays inside is followed).
    public func openFolder(_ relative: String) throws(FileTreeError) -> OpenFolder {
        let descriptor = try open(relative, flags: O_RDONLY | O_DIRECTORY)
        return OpenFolder(adopting: descriptor, path: absolute(relative))
    }

    /// The folder that holds `relative`, held open, and the last component's name: what a
    /// write (create, rename, remove) acts on with `*at` calls. The root itself has no parent
    /// (`.invalidArgument`).
    public func parent(of relative: String) throws(FileTreeError) -> (folder: OpenFolder, name: String) {
        let components = relative.split(separator: "/")
        guard let name = components.last, name != "..", name != "." else {
            throw FileTreeError(.invalidArgument, "The root has no parent", path: path)
        }
        let folder = try openFolder(components.dropLast().joined(separator: "/"))
        return (folder, String(name))
    }

    /// Where the symlinks at `relative` finally lead, as a folder held open and a name in it (the
    /// item itself when it is not a link, or a name that does not exist yet): what a write that
    /// goes through links (a save, an upload over a link) acts on. Every step stays inside.
    public func finalTarget(of relative: String) throws(FileTreeError) -> (folder: OpenFolder, name: String) {
        var current = relative
        for _ in 0..<40 {
            let (folder, name) = try parent(of: current)
            guard let status = folder.status(of: name), status.type == .symlink else { return (folder, name) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlinkat(folder.descriptor, name, &buffer, buffer.count - 1)
            guard length >= 0 else { throw FileTreeError(errno: errno, path: folder.path(of: name)) }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let base = "/" + current.split(separator: "/").dropLast().joined(separator: "/")
            if target.hasPrefix("/") {
                guard let inside = relativePath(ofReal: target) else { throw Self.failure(EXDEV, relative) }
                current = inside
            } else {
                guard let inside = Self.joined(base, target) else { throw Self.failure(EXDEV, relative) }
                current = inside
            }
        }
        throw Self.failure(ELOOP, relative)
    }

    /// The absolute path of `relative` under the root as it was named.
    public func absolute(_ relative: String) -> String {
        let trimmed = relative.split(separator: "/").joined(separator: "/")
        if trimmed.isEmpty { return path }
        return PathText.join(path, trimmed)
    }

    /// The path from the root of an absolute path that starts with the root's real path or
    /// its given path; `nil` for anything else.
    func relativePath(ofReal absolute: String) -> String? {
        for prefix in [realPath, path] {
            if prefix == "/" { return absolute }
            if absolute == prefix { return "/" }
            if absolute.hasPrefix(prefix + "/") { return String(absolute.dropFirst(prefix.count)) }
        }
        return nil
    }

    /// `target` taken from the folder `base` (both from the root), `..` resolved; `nil` when a
    /// `..` would climb above the root.
    static func joined(_ base: String, _ target: String) -> String? {
        var parts: [Substring] = base.split(separator: "/")
        for component in target.split(separator: "/") {
            switch component {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(component)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    static func failure(_ number: Int32, _ relative: String) -> FileTreeError {
        if number == EXDEV {
            return FileTreeError(
                .outsideRoot, "The path leads out of the folder", path: relative, errno: EXDEV)
        }
        return FileTreeError(errno: number, path: relative)
    }
}
