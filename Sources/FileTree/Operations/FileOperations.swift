internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// File operations that never lose data: nothing is replaced unless a call says so, writes are
/// atomic, and a failure part-way leaves the destination as it was.
///
/// ```swift
/// try FileOperations.writeAtomically(Array("hello".utf8), to: "/srv/files/notes.txt")
/// let copy = try FileOperations.copy("/srv/files/notes.txt", into: "/srv/files")
/// // copy == "/srv/files/notes (copy).txt"
/// try FileOperations.move("/srv/files/a.txt", to: "/srv/files/archive/a.txt") // never replaces
/// ```
public enum FileOperations {
    /// Replaces (or creates) the file at `path` with `bytes` atomically: a reader sees the old
    /// contents or the new, never a mix; the file's permissions are kept.
    public static func writeAtomically(
        _ bytes: some Collection<UInt8>, to path: String, permissions: FilePermissions? = nil
    ) throws(FileTreeError) {
        let writer = try AtomicFileWriter(destination: path, permissions: permissions)
        try writer.write(bytes)
        try writer.commit(replacing: true)
    }

    /// Creates a new file with `bytes`; fails with `.alreadyExists` when the name is taken,
    /// leaving what is there untouched.
    public static func createFile(_ bytes: some Collection<UInt8>, at path: String) throws(FileTreeError) {
        let writer = try AtomicFileWriter(destination: path)
        try writer.write(bytes)
        try writer.commit(replacing: false)
    }

    /// Creates a folder; fails with `.alreadyExists` when the name is taken.
    public static func makeFolder(
        at path: String, permissions: FilePermissions = FilePermissions(rawValue: 0o755)
    )
        throws(FileTreeError)
    {
        try SystemCalls.check(mkdir(path, mode_t(permissions.rawValue)), path, "Creating a folder")
    }

    /// Moves (renames) `source` to `destination` without ever replacing what is there
    /// (`renameat2` with `RENAME_NOREPLACE` on Linux). Across file systems it copies, then
    /// removes the source.
    ///
    /// - Throws: `.alreadyExists` when `destination` is taken, `.intoItself` for a folder
    ///   moved below itself, `.notFound` when `source` is missing.
    public static func move(_ source: String, to destination: String) throws(FileTreeError) {
        let from = absolute(source)
        let to = absolute(destination)
        _ = try SystemCalls.linkStatus(from)
        if SystemCalls.isInside(to, from) {
            throw FileTreeError(
                .intoItself, "A folder cannot be moved into itself", path: from, errno: EINVAL)
        }
        try move(
            named: PathText.lastComponent(of: from), in: OpenFolder(path: PathText.parent(of: from)),
            to: PathText.lastComponent(of: to), in: OpenFolder(path: PathText.parent(of: to)))
    }

    /// Moves `source` into `folder`, keeping its name; returns the new path.
    @discardableResult
    public static func move(_ source: String, into folder: String) throws(FileTreeError) -> String {
        let from = absolute(source)
        let destination = PathText.join(absolute(folder), PathText.lastComponent(of: from))
        try move(from, to: destination)
        return destination
    }

    /// Renames an item within its folder; `newName` must be one path component.
    @discardableResult
    public static func rename(_ path: String, to newName: String) throws(FileTreeError) -> String {
        guard FileName.isValidComponent(newName) else {
            throw FileTreeError(.invalidName, "A name must be one path component", path: newName)
        }
        let from = absolute(path)
        let destination = PathText.join(PathText.parent(of: from), newName)
        try move(from, to: destination)
        return destination
    }

    /// Copies `source` (a file, a folder with everything in it, or a symlink as a link) to
    /// `destination`, which must not exist. Permissions and modification dates are kept; the copy
    /// appears under its name only when complete.
    public static func copy(_ source: String, to destination: String) throws(FileTreeError) {
        let from = absolute(source)
        let to = absolute(destination)
        if SystemCalls.isInside(to, from) {
            throw FileTreeError(
                .intoItself, "A folder cannot be copied into itself", path: from, errno: EINVAL)
        }
        try copy(
            named: PathText.lastComponent(of: from), in: OpenFolder(path: PathText.parent(of: from)),
            to: PathText.lastComponent(of: to), in: OpenFolder(path: PathText.parent(of: to)))
    }

    /// Copies `source` into `folder` under a free name (`name (copy).ext` when the name is
    /// taken); returns the new path.
    @discardableResult
    public static func copy(_ source: String, into folder: String) throws(FileTreeError) -> String {
        let from = absolute(source)
        let target = absolute(folder)
        if SystemCalls.isInside(target, from) {
            throw FileTreeError(
                .intoItself, "A folder cannot be copied into itself", path: from, errno: EINVAL)
        }
        return try copy(
            named: PathText.lastComponent(of: from), in: OpenFolder(path: PathText.parent(of: from)),
            into: OpenFolder(path: target))
    }

    /// Removes an item; a folder with everything in it. Symlinks are removed, never followed.
    public static func remove(_ path: String) throws(FileTreeError) {
        let target = absolute(path)
        _ = try SystemCalls.linkStatus(target)
        try remove(
            named: PathText.lastComponent(of: target), in: OpenFolder(path: PathText.parent(of: target)))
    }

    // MARK: Replacing folders whole

    /// A hidden name in the same folder as `path`, free at the time of the call, for building a
    /// replacement (a package document's new version) before it is swapped in.
    public static func temporarySibling(of path: String) -> String {
        let target = absolute(path)
        return PathText.join(
            PathText.parent(of: target), SystemCalls.temporaryName(for: PathText.lastComponent(of: target)))
    }

    /// Puts the folder `replacement` (built beside it, see ``temporarySibling(of:)``) in place of
    /// `destination` in one step, so a reader sees the old folder or the new one, never a mix:
    /// `renameat2(RENAME_EXCHANGE)` (`renamex_np(RENAME_SWAP)` on Apple platforms) swaps the
    /// two, the folder's entry table is flushed, then the old version is removed. Where the file
    /// system cannot swap, the old folder is first renamed aside (so it is never lost) and
    /// removed only once the new one is in place. A missing `destination` is simply created.
    public static func replaceFolder(_ destination: String, with replacement: String) throws(FileTreeError) {
        let target = absolute(destination)
        let source = absolute(replacement)
        let folder = PathText.parent(of: target)
        guard SystemCalls.exists(target) else {
            try SystemCalls.renameWithoutReplacing(source, target)
            SystemCalls.syncFolder(folder)
            return
        }
        let result = cft_rename_exchange(AT_FDCWD, source, AT_FDCWD, target)
        switch result {
        case 0:
            SystemCalls.syncFolder(folder)
            // The new version is in place: a failure to remove the old one is no failure of
            // the replacement (a hidden leftover at worst).
            try? remove(source)
        case EINVAL, ENOSYS, ENOTSUP:
            let aside = temporarySibling(of: target)
            try SystemCalls.check(
                SystemCalls.renameReplacing(target, aside), target, "Moving the old version aside")
            do {
                try SystemCalls.renameWithoutReplacing(source, target)
            } catch {
                _ = SystemCalls.renameReplacing(aside, target)
                throw error
            }
            SystemCalls.syncFolder(folder)
            try? remove(aside)
        default:
            throw FileTreeError(errno: result, path: target, operation: "Replacing")
        }
    }

    /// Flushes a folder's entry table to disk, so that the names created or renamed in it
    /// survive a crash.
    public static func syncFolder(_ path: String) {
        SystemCalls.syncFolder(absolute(path))
    }

    private static func absolute(_ path: String) -> String {
        PathText.normalize(path, base: DirectoryReader.currentDirectory())
    }
}
