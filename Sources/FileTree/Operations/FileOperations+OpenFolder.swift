internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The operations on names in folders held open (see ``OpenFolder``): every call is relative to a
/// folder's descriptor, and a walk below goes from descriptor to descriptor with `O_NOFOLLOW`, so
/// a folder swapped for a symlink meanwhile is never followed, and trees deeper than `PATH_MAX`
/// are copied and removed whole. The path-based operations are these, on the folders their
/// paths name.
extension FileOperations {
    /// Creates the folder `name` in `folder`; fails with `.alreadyExists` when the name is taken.
    public static func makeFolder(
        named name: String, in folder: OpenFolder,
        permissions: FilePermissions = FilePermissions(rawValue: 0o755)
    ) throws(FileTreeError) {
        try SystemCalls.check(
            mkdirat(folder.descriptor, name, mode_t(permissions.rawValue)), folder.path(of: name),
            "Creating a folder")
    }

    /// Moves `name` from `source` to `newName` in `destination`, never replacing what is there;
    /// across file systems it copies, then removes the original.
    ///
    /// - Throws: `.alreadyExists` when the new name is taken, `.intoItself` for a folder moved
    ///   below itself, `.notFound` when `name` is missing.
    public static func move(
        named name: String, in source: OpenFolder, to newName: String, in destination: OpenFolder
    ) throws(FileTreeError) {
        let status = try transferable(name, in: source, to: destination, "moved")
        do {
            try renameWithoutReplacing(name, in: source, to: newName, in: destination, status: status)
        } catch  where error.errno == EXDEV {
            try copyItem(name, in: source, to: newName, in: destination)
            try remove(named: name, in: source)
        }
    }

    /// Moves `name` from `source` into `destination` under the same name; returns the new path.
    @discardableResult
    public static func move(
        named name: String, in source: OpenFolder, into destination: OpenFolder
    ) throws(FileTreeError)
        -> String
    {
        try move(named: name, in: source, to: name, in: destination)
        return destination.path(of: name)
    }

    /// Renames `name` within `folder`; `newName` must be one path component. Returns the new path.
    @discardableResult
    public static func rename(
        named name: String, in folder: OpenFolder, to newName: String
    ) throws(FileTreeError)
        -> String
    {
        guard FileName.isValidComponent(newName) else {
            throw FileTreeError(.invalidName, "A name must be one path component", path: newName)
        }
        try move(named: name, in: folder, to: newName, in: folder)
        return folder.path(of: newName)
    }

    /// Renames the item whose name is `systemName`'s bytes (not valid UTF-8, say: see
    /// ``OpenFolder/systemName(readingAs:)``) within `folder`, never replacing what is there:
    /// the way to give a name from another system's encoding a name in UTF-8. Returns the new
    /// path.
    @discardableResult
    public static func rename(
        systemName: [UInt8], in folder: OpenFolder, to newName: String
    ) throws(FileTreeError) -> String {
        guard FileName.isValidComponent(newName) else {
            throw FileTreeError(.invalidName, "A name must be one path component", path: newName)
        }
        let name = EntryName(systemName: systemName)
        guard
            case .success(let status) = FileStatus.read(
                name.cString, relativeTo: folder.descriptor, followingSymlink: false)
        else {
            throw FileTreeError(errno: ENOENT, path: folder.path(of: name.text), operation: "Moving")
        }
        try renameWithoutReplacing(name, in: folder, to: newName, in: folder, status: status)
        return folder.path(of: newName)
    }

    /// Copies `name` from `source` to `newName` in `destination`, which must be free (a file, a
    /// folder with everything in it, or a symlink as a link); the copy appears under its name
    /// only when complete.
    public static func copy(
        named name: String, in source: OpenFolder, to newName: String, in destination: OpenFolder
    ) throws(FileTreeError) {
        _ = try transferable(name, in: source, to: destination, "copied")
        try copyItem(name, in: source, to: newName, in: destination)
    }

    /// Copies `name` from `source` into `destination` under a free name (`name (copy).ext` when
    /// the name is taken); returns the new path.
    @discardableResult
    public static func copy(
        named name: String, in source: OpenFolder, into destination: OpenFolder
    ) throws(FileTreeError)
        -> String
    {
        let status = try transferable(name, in: source, to: destination, "copied")
        let keepsExtension =
            status.type != .directory || ContentTypeRegistry.standard.isPackage(folderName: name)
        let taken: (String) -> Bool = { destination.contains($0) }
        var candidate = name
        if taken(candidate) {
            candidate = UniqueName.copy(
                of: name, in: destination.path, keepsExtension: keepsExtension, isTaken: taken)
        }
        for _ in 0..<100 {
            do {
                try copyItem(name, in: source, to: candidate, in: destination)
                return destination.path(of: candidate)
            } catch  where error.code == .alreadyExists {
                candidate = UniqueName.copy(
                    of: name, in: destination.path, keepsExtension: keepsExtension, isTaken: taken)
            }
        }
        throw FileTreeError(
            .alreadyExists, "No free name for the copy", path: destination.path, errno: EEXIST)
    }

    /// Removes `name` from `folder`; a folder with everything in it. Symlinks are removed, never
    /// followed.
    public static func remove(named name: String, in folder: OpenFolder) throws(FileTreeError) {
        try remove(EntryName(name), in: folder)
    }

    // MARK: Internals

    /// Removes a name given by its bytes (what is inside a folder goes by its entries' bytes).
    private static func remove(_ name: EntryName, in folder: OpenFolder) throws(FileTreeError) {
        guard
            case .success(let status) = FileStatus.read(
                name.cString, relativeTo: folder.descriptor, followingSymlink: false)
        else {
            throw FileTreeError(errno: ENOENT, path: folder.path(of: name.text), operation: "Removing")
        }
        if status.type == .directory {
            let inside = try folder.folder(named: name)
            for child in try DirectoryReader().entries(in: inside) {
                try remove(EntryName(child), in: inside)
            }
            try SystemCalls.check(
                unlinkat(folder.descriptor, name.cString, AT_REMOVEDIR), folder.path(of: name.text),
                "Removing a folder")
        } else {
            try SystemCalls.check(
                unlinkat(folder.descriptor, name.cString, 0), folder.path(of: name.text), "Removing")
        }
    }

    /// The status of `name`, which a move or a copy into `destination` needs: it must exist, and a
    /// folder may not go below itself (decided by identity, see ``OpenFolder/isInside(_:)``).
    private static func transferable(
        _ name: String, in source: OpenFolder, to destination: OpenFolder, _ verb: String
    ) throws(FileTreeError) -> FileStatus {
        guard let status = source.status(of: name) else {
            throw FileTreeError(
                errno: ENOENT, path: source.path(of: name), operation: verb == "moved" ? "Moving" : "Copying")
        }
        if status.type == .directory, destination.isInside(FileIdentity(status)) {
            throw FileTreeError(
                .intoItself, "A folder cannot be \(verb) into itself", path: source.path(of: name),
                errno: EINVAL)
        }
        return status
    }

    /// Renames without replacing: `renameat2(RENAME_NOREPLACE)`, or where the file system cannot,
    /// `linkat` + `unlinkat` for a file (also atomic) and a checked `renameat` for a folder.
    static func renameWithoutReplacing(
        _ name: String, in source: OpenFolder, to newName: String, in destination: OpenFolder,
        status: FileStatus?
    ) throws(FileTreeError) {
        try renameWithoutReplacing(EntryName(name), in: source, to: newName, in: destination, status: status)
    }

    /// ``renameWithoutReplacing(_:in:to:in:status:)`` for a name given by its bytes.
    private static func renameWithoutReplacing(
        _ name: EntryName, in source: OpenFolder, to newName: String, in destination: OpenFolder,
        status: FileStatus?
    ) throws(FileTreeError) {
        let result = cft_rename_noreplace(source.descriptor, name.cString, destination.descriptor, newName)
        switch result {
        case 0:
            return
        case EINVAL, ENOSYS, ENOTSUP:
            break
        default:
            throw FileTreeError(
                errno: result,
                path: result == EEXIST ? destination.path(of: newName) : source.path(of: name.text),
                operation: "Moving")
        }
        if status?.type != .directory,
            linkat(source.descriptor, name.cString, destination.descriptor, newName, 0) == 0
        {
            unlinkat(source.descriptor, name.cString, 0)
            return
        }
        if destination.contains(newName) {
            throw FileTreeError(errno: EEXIST, path: destination.path(of: newName), operation: "Moving")
        }
        try SystemCalls.check(
            renameat(source.descriptor, name.cString, destination.descriptor, newName),
            source.path(of: name.text), "Moving")
    }

    /// Copies into a hidden temporary item next to the new name, then renames it into place
    /// without replacing.
    static func copyItem(
        _ name: String, in source: OpenFolder, to newName: String, in destination: OpenFolder
    ) throws(FileTreeError) {
        if destination.contains(newName) {
            throw FileTreeError(errno: EEXIST, path: destination.path(of: newName), operation: "Copying")
        }
        let temporary = SystemCalls.temporaryName(for: newName)
        do {
            try copyTree(EntryName(name), in: source, to: EntryName(temporary), in: destination)
            try renameWithoutReplacing(temporary, in: destination, to: newName, in: destination, status: nil)
        } catch {
            try? remove(named: temporary, in: destination)
            throw error
        }
    }

    private static func copyTree(
        _ name: EntryName, in source: OpenFolder, to newName: EntryName, in destination: OpenFolder
    ) throws(FileTreeError) {
        guard
            case .success(let status) = FileStatus.read(
                name.cString, relativeTo: source.descriptor, followingSymlink: false)
        else {
            throw FileTreeError(errno: ENOENT, path: source.path(of: name.text), operation: "Copying")
        }
        switch status.type {
        case .regular:
            try copyFile(name, in: source, to: newName, in: destination, status: status)
        case .directory:
            try SystemCalls.check(
                mkdirat(destination.descriptor, newName.cString, 0o700), destination.path(of: newName.text),
                "Creating a folder")
            let from = try source.folder(named: name)
            let to = try destination.folder(named: newName)
            for child in try DirectoryReader().entries(in: from) {
                try copyTree(EntryName(child), in: from, to: EntryName(child), in: to)
            }
            try SystemCalls.check(
                fchmod(to.descriptor, mode_t(status.mode & 0o7777)), to.path, "Setting permissions")
            setTimes(to.descriptor, status)
        case .symlink:
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlinkat(source.descriptor, name.cString, &buffer, buffer.count - 1)
            guard length >= 0 else {
                throw FileTreeError(
                    errno: errno, path: source.path(of: name.text), operation: "Reading a link")
            }
            buffer[length] = 0
            try SystemCalls.check(
                symlinkat(buffer, destination.descriptor, newName.cString),
                destination.path(of: newName.text),
                "Copying a link")
        case .other:
            throw FileTreeError(
                .unsupported, "Only files, folders and links can be copied", path: source.path(of: name.text))
        }
    }

    private static func copyFile(
        _ name: EntryName, in source: OpenFolder, to newName: EntryName, in destination: OpenFolder,
        status: FileStatus
    ) throws(FileTreeError) {
        let input = openat(source.descriptor, name.cString, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else {
            throw FileTreeError(errno: errno, path: source.path(of: name.text), operation: "Opening")
        }
        defer { close(input) }
        let output = openat(
            destination.descriptor, newName.cString, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
            0o600)
        guard output >= 0 else {
            throw FileTreeError(errno: errno, path: destination.path(of: newName.text), operation: "Creating")
        }
        defer { close(output) }
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer, chunk)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileTreeError(errno: errno, path: source.path(of: name.text), operation: "Reading")
            }
            var offset = 0
            while offset < count {
                let written = SystemCalls.write(output, buffer + offset, count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileTreeError(
                        errno: errno, path: destination.path(of: newName.text), operation: "Writing")
                }
                offset += written
            }
        }
        try SystemCalls.check(
            fchmod(output, mode_t(status.mode & 0o7777)), destination.path(of: newName.text),
            "Setting permissions"
        )
        try SystemCalls.check(fsync(output), destination.path(of: newName.text), "Flushing to disk")
        setTimes(output, status)
    }

    private static func setTimes(_ descriptor: Int32, _ status: FileStatus) {
        var times = [
            timespec(tv_sec: Int(status.accessed.seconds), tv_nsec: Int(status.accessed.nanoseconds)),
            timespec(tv_sec: Int(status.modified.seconds), tv_nsec: Int(status.modified.nanoseconds)),
        ]
        futimens(descriptor, &times)
    }
}
