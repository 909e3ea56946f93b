internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading folders held open: the same entries, filters and order as the path-based reads, with
/// the folder named by its descriptor instead of its path (see ``OpenFolder``).
extension DirectoryReader {
    /// The entries of an open folder, in the reader's order.
    public func entries(in folder: OpenFolder) throws(FileTreeError) -> [FileEntry] {
        let scanner = Scanner(reader: self, extras: extraAttributes, cancellation: nil)
        let (entries, error) = scanner.entries(of: folder.path, in: folder.descriptor)
        guard let entries else {
            throw error ?? FileTreeError(.ioError, "The folder could not be read", path: folder.path)
        }
        return entries
    }

    /// An open folder for a listing (see ``listing(at:)``).
    public func listing(in folder: OpenFolder) throws(FileTreeError) -> FolderListing {
        let scanner = Scanner(reader: self, extras: [], cancellation: nil)
        let (listing, error) = scanner.listing(
            of: folder.path, in: folder.descriptor, expectedCount: Int((folder.status()?.size ?? 0) / 24))
        guard let listing else {
            throw error ?? FileTreeError(.ioError, "The folder could not be read", path: folder.path)
        }
        return listing
    }

    /// An open folder for a listing, on a background thread.
    public func listing(in folder: OpenFolder) async throws(FileTreeError) -> FolderListing {
        try await BlockingWork.run { () throws(FileTreeError) in try self.listing(in: folder) }
    }

    /// The entry of `name` in an open folder (a symlink there is described, not followed).
    public func entry(named name: String, in folder: OpenFolder) throws(FileTreeError) -> FileEntry {
        let scanner = Scanner(reader: self, extras: extraAttributes, cancellation: nil)
        var entry = name.withCString { cName in
            scanner.makeEntry(
                name: name, cName: cName, folder: folder.descriptor, parentPath: folder.path,
                direntType: UInt8(truncatingIfNeeded: CFT_DT_UNKNOWN))
        }
        // A name spelled with U+FFFD, as listings show one that is not UTF-8: the one it stands for.
        if entry.error?.errno == ENOENT, let bytes = folder.systemName(readingAs: name) {
            entry = scanner.makeEntry(
                name: name, cName: EntryName.cString(bytes), folder: folder.descriptor,
                parentPath: folder.path,
                direntType: UInt8(truncatingIfNeeded: CFT_DT_UNKNOWN), systemName: bytes)
        }
        if let error = entry.error { throw error }
        return entry
    }
}
