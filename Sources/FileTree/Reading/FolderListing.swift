internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One folder read for a listing: the entries' metadata in small records and their names in one
/// byte buffer, in the reader's order.
///
/// This is the cheap form of ``DirectoryReader/entries(at:extraAttributes:)`` for answers that
/// only write the entries out (a server's listing): no ``FileEntry``, no `String` per name, no
/// content type, so a 10,000-entry folder costs its system calls and little more. Ask for
/// ``entry(of:)`` where the full entry is needed (a symlink's target, extra attributes).
///
/// ```swift
/// let listing = try DirectoryReader(filter: .visible, order: .browsey).listing(at: path)
/// for item in listing.items {
///     print(listing.name(of: item), item.size)
/// }
/// ```
public struct FolderListing: Sendable {
    /// One entry: what `statx` said of it, and where its name lies.
    public struct Item: Sendable {
        /// The entry's own type (a symlink is `.symlink`, whatever it points to).
        public let type: EntryType
        /// Its metadata; `nil` when it could not be read (see ``errorNumber``).
        public let status: FileStatus?
        /// The `errno` of a failed `statx`, else 0.
        public let errorNumber: Int32
        /// Whether it sorts with folders: a folder, or a symlink to one (that the reader's
        /// ``DirectoryReader/linkSortsAsFolder`` did not refuse).
        public let sortsAsFolder: Bool
        let nameStart: Int32
        let nameLength: Int32

        /// The size in bytes (0 when unknown).
        public var size: Int64 { status?.size ?? 0 }
    }

    /// The folder's absolute path.
    public let path: String
    /// The entries, filtered and in the reader's order.
    public internal(set) var items: [Item]
    /// Set when `readdir` failed part-way: the items are those read before it.
    public let readError: FileTreeError?
    let names: [UInt8]

    /// Lends the UTF-8 bytes of an item's name, exactly as the file system holds them.
    public func withName<Result>(
        of item: Item, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try names.withUnsafeBufferPointer { all in
            try body(
                UnsafeBufferPointer(
                    rebasing: all[Int(item.nameStart)..<Int(item.nameStart + item.nameLength)]))
        }
    }

    /// Asks the processor to bring an item's name into its cache, a few items before
    /// ``withName(of:_:)`` reads it: items in name order read names scattered over the storage
    /// in the order the folder gave them, and each would otherwise wait on memory. A hint only.
    public func prefetchName(of item: Item) {
        names.withUnsafeBufferPointer { all in
            if let base = all.baseAddress { cft_prefetch(base + Int(item.nameStart)) }
        }
    }

    /// An item's name (invalid UTF-8 reads as U+FFFD, as in ``FileEntry/name``).
    public func name(of item: Item) -> String {
        withName(of: item) { String(decoding: $0, as: UTF8.self) }
    }

    /// The absolute path of an item.
    public func path(of item: Item) -> String { PathText.join(path, name(of: item)) }

    /// Leaves out the items `isExcluded` picks (a server's access rules, for one reader): their
    /// names stay in the storage, unreachable.
    public mutating func removeItems(where isExcluded: (Item) throws -> Bool) rethrows {
        try items.removeAll(where: isExcluded)
    }

    /// The item's full entry, read again (for a symlink's target, say). A name that is not
    /// valid UTF-8 is read by its bytes (its path as text, with U+FFFD, would not open).
    public func entry(
        of item: Item, reader: DirectoryReader = DirectoryReader()
    ) throws(FileTreeError) -> FileEntry {
        let (name, isUTF8) = withName(of: item) { raw in
            let text = String(decoding: raw, as: UTF8.self)
            return (text, text.utf8.elementsEqual(raw))
        }
        guard !isUTF8 else { return try reader.entry(at: PathText.join(path, name)) }
        let bytes = withName(of: item) { Array($0) }
        // The folder's own path may be spelled with U+FFFD too.
        let folder = SystemNames.bytes(spelling: path) ?? Array(path.utf8)
        let cPath = EntryName.cString(folder + [UInt8(ascii: "/")] + bytes)
        let scanner = Scanner(reader: reader, extras: reader.extraAttributes, cancellation: nil)
        let entry = scanner.makeEntry(
            name: name, cName: cPath, folder: AT_FDCWD, parentPath: path,
            direntType: UInt8(truncatingIfNeeded: CFT_DT_UNKNOWN), systemName: bytes)
        if let error = entry.error { throw error }
        return entry
    }
}
