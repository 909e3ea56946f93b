internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Reads folders, one level or the whole tree, with their entries' metadata.
///
/// A reader is a value: its filter, order, extra attributes and content-type registry are the
/// defaults of every read it does, and each read may ask for more attributes.
///
/// ```swift
/// let reader = DirectoryReader(filter: .visible, order: .browsey)
/// let folder = try reader.read(at: "/srv/files")                 // one level
/// let tree = try await reader.read(at: "/srv/files", depth: .deep) // off the caller's thread
/// ```
///
/// Deep reads never follow a symbolic link to a folder, never enter a package (a folder whose
/// extension the registry marks as a package), and never visit a folder twice. A folder that
/// cannot be read, or an entry whose metadata cannot be read, is reported on its node or entry
/// and the walk goes on. On Linux the reads call `openat`, `readdir` and `statx` directly.
public struct DirectoryReader: Sendable {
    /// Which names are kept.
    public var filter: EntryFilter
    /// How each folder's children are ordered; `nil` keeps the order `readdir` gives (fastest).
    public var order: EntryOrder?
    /// Extra metadata loaded for every entry of every read.
    public var extraAttributes: [AnyEntryAttribute]
    /// Where content types and package extensions come from.
    public var registry: ContentTypeRegistry
    /// Whether deep reads read sibling folders on several threads (the default). The result is
    /// the same either way.
    public var readsInParallel: Bool = true
    /// Asked, where the reader orders entries, of each link whose target is a folder, by the
    /// link's path (as its entry names it): whether it sorts with the folders. `nil`: every
    /// such link does. A server that keeps links below its root answers `false` for one that
    /// leads out, so that where the link sorts tells nothing of what lies outside.
    public var linkSortsAsFolder: (@Sendable (String) -> Bool)?

    /// Makes a reader.
    public init(
        filter: EntryFilter = .all,
        order: EntryOrder? = nil,
        extraAttributes: [AnyEntryAttribute] = [],
        registry: ContentTypeRegistry = .standard
    ) {
        self.filter = filter
        self.order = order
        self.extraAttributes = extraAttributes
        self.registry = registry
    }

    // MARK: Reading a tree

    /// Reads the folder at `path` (a symlink to a folder is followed at the top) to `depth`.
    ///
    /// - Parameter extraAttributes: more attributes for this read, on top of the reader's.
    /// - Throws: ``FileTreeError`` when `path` is missing, not a folder, or cannot be opened.
    ///   Problems below the top are reported on the nodes instead.
    public func read(
        at path: String, depth: ReadDepth = .shallow, extraAttributes: [AnyEntryAttribute] = []
    ) throws(FileTreeError) -> FileNode {
        try read(at: path, depth: depth, extraAttributes: extraAttributes, cancellation: nil)
    }

    /// Reads the folder at a file URL.
    public func read(
        at url: URL, depth: ReadDepth = .shallow, extraAttributes: [AnyEntryAttribute] = []
    ) throws(FileTreeError) -> FileNode {
        try read(at: url.path, depth: depth, extraAttributes: extraAttributes)
    }

    /// Reads the folder at `path` on a background thread, so the caller's executor is never
    /// blocked by the disk; cancelling the task stops the walk with `.cancelled`.
    public func read(
        at path: String, depth: ReadDepth = .shallow, extraAttributes: [AnyEntryAttribute] = []
    ) async throws(FileTreeError) -> FileNode {
        let flag = CancellationFlag()
        let result = await withTaskCancellationHandler { () async -> Result<FileNode, FileTreeError> in
            do throws(FileTreeError) {
                return .success(
                    try await BlockingWork.run { () throws(FileTreeError) in
                        try self.read(
                            at: path, depth: depth, extraAttributes: extraAttributes, cancellation: flag)
                    })
            } catch {
                return .failure(error)
            }
        } onCancel: {
            flag.cancel()
        }
        return try result.get()
    }

    /// Reads the folder at a file URL on a background thread.
    public func read(
        at url: URL, depth: ReadDepth = .shallow, extraAttributes: [AnyEntryAttribute] = []
    ) async throws(FileTreeError) -> FileNode {
        try await read(at: url.path, depth: depth, extraAttributes: extraAttributes)
    }

    /// The entries of one folder, in the reader's order, without building nodes: the cheapest
    /// way to list a folder.
    ///
    /// - Throws: ``FileTreeError`` when `path` is missing, not a folder, or cannot be opened.
    public func entries(
        at path: String, extraAttributes: [AnyEntryAttribute] = []
    ) throws(FileTreeError) -> [FileEntry] {
        let root = try rootEntry(at: path)
        let scanner = Scanner(reader: self, extras: self.extraAttributes + extraAttributes, cancellation: nil)
        let (entries, error) = scanner.entries(of: root.path, expectedCount: Int(root.size / 24))
        guard let entries else {
            throw error ?? FileTreeError(.ioError, "The folder could not be read", path: root.path)
        }
        return entries
    }

    /// Reads one folder's entries on a background thread.
    public func entries(
        at path: String, extraAttributes: [AnyEntryAttribute] = []
    ) async throws(FileTreeError)
        -> [FileEntry]
    {
        try await BlockingWork.run { () throws(FileTreeError) in
            try self.entries(at: path, extraAttributes: extraAttributes)
        }
    }

    /// Reads one folder for a listing: the entries of ``entries(at:extraAttributes:)`` (same
    /// filter, same order) as small records and one buffer of names, without a ``FileEntry``
    /// per entry. Extra attributes are not read.
    public func listing(at path: String) throws(FileTreeError) -> FolderListing {
        let root = try rootEntry(at: path)
        let scanner = Scanner(reader: self, extras: [], cancellation: nil)
        let (listing, error) = scanner.listing(of: root.path, expectedCount: Int(root.size / 24))
        guard let listing else {
            throw error ?? FileTreeError(.ioError, "The folder could not be read", path: root.path)
        }
        return listing
    }

    /// Reads one folder for a listing on a background thread.
    public func listing(at path: String) async throws(FileTreeError) -> FolderListing {
        try await BlockingWork.run { () throws(FileTreeError) in try self.listing(at: path) }
    }

    /// Reads one item's entry (a final symlink is not followed).
    public func entry(
        at path: String, extraAttributes: [AnyEntryAttribute] = []
    ) throws(FileTreeError) -> FileEntry {
        let absolute = PathText.normalize(path, base: Self.currentDirectory())
        let scanner = Scanner(reader: self, extras: self.extraAttributes + extraAttributes, cancellation: nil)
        let entry = scanner.entry(at: absolute)
        if let error = entry.error { throw error }
        return entry
    }

    /// Visits every entry below `path`, depth first (a folder, then its contents, then its next
    /// sibling), without building a tree: memory holds one folder's entries per level, however
    /// large the tree. Each folder's entries come in the reader's order.
    ///
    /// - Parameter visit: called with each entry and its level (1 for the folder's own
    ///   contents); its answer says whether to go on, skip a folder's contents, or stop.
    /// - Returns: the problems met on the way (unreadable folders, entries without metadata).
    @discardableResult
    public func walk(
        at path: String, depth: ReadDepth = .deep, extraAttributes: [AnyEntryAttribute] = [],
        visit: (FileEntry, Int) throws -> WalkAction
    ) throws -> [FileTreeError] {
        let root = try rootEntry(at: path)
        return try walk(
            in: OpenFolder(path: root.path), depth: depth, extraAttributes: extraAttributes, visit: visit)
    }

    /// Visits every entry below an open folder, as ``walk(at:depth:extraAttributes:visit:)``
    /// does: each folder below is opened relative to the one that holds it (never by its full
    /// path, and never through a symlink), so a folder swapped for a link meanwhile is not
    /// followed, and a tree deeper than `PATH_MAX` is walked whole.
    @discardableResult
    public func walk(
        in folder: OpenFolder, depth: ReadDepth = .deep, extraAttributes: [AnyEntryAttribute] = [],
        visit: (FileEntry, Int) throws -> WalkAction
    ) throws -> [FileTreeError] {
        let scanner = Scanner(reader: self, extras: self.extraAttributes + extraAttributes, cancellation: nil)
        var problems: [FileTreeError] = []
        var visited: Set<FileIdentity> = [FileIdentity(folder.status())]
        let maximum = depth.maximumLevels
        // One frame per open level: the folder's entries and the next one to visit.
        var stack: [(entries: [FileEntry], next: Int)] = []
        var folders: [OpenFolder] = []
        func push(_ folder: OpenFolder) {
            let (entries, error) = scanner.entries(of: folder.path, in: folder.descriptor)
            if let error { problems.append(error) }
            stack.append((entries ?? [], 0))
            folders.append(folder)
        }
        push(folder)
        while let top = stack.last {
            guard top.next < top.entries.count else {
                stack.removeLast()
                folders.removeLast()
                continue
            }
            let entry = top.entries[top.next]
            stack[stack.count - 1].next += 1
            let level = stack.count
            if let error = entry.error { problems.append(error) }
            switch try visit(entry, level) {
            case .stop: return problems
            case .skipChildren: continue
            case .continue:
                guard level < maximum, scanner.shouldDescend(into: entry) else { continue }
                if visited.insert(FileIdentity(entry.status)).inserted {
                    do {
                        // By the name's bytes: a name that is not UTF-8 is entered too.
                        push(try folders[folders.count - 1].folder(systemName: entry.systemName))
                    } catch {
                        problems.append(error)
                    }
                } else {
                    problems.append(FileTreeError.loop(at: entry.path))
                }
            }
        }
        return problems
    }

    // MARK: Internals

    func read(
        at path: String, depth: ReadDepth, extraAttributes: [AnyEntryAttribute],
        cancellation: CancellationFlag?
    ) throws(FileTreeError) -> FileNode {
        let root = try rootEntry(at: path)
        let scanner = Scanner(
            reader: self, extras: self.extraAttributes + extraAttributes, cancellation: cancellation)
        var node = FileNode(entry: root)
        (node.children, node.readError) = scanner.children(
            ofFolderAt: root.path, levels: depth.maximumLevels,
            visited: VisitedFolders(FileIdentity(root.status)),
            parallel: readsInParallel)
        if cancellation?.isCancelled == true {
            throw FileTreeError(.cancelled, "The read was cancelled", path: root.path)
        }
        if node.children == nil, let error = node.readError { throw error }
        return node
    }

    /// The entry of the folder a read starts at, following a symlink there.
    private func rootEntry(at path: String) throws(FileTreeError) -> FileEntry {
        let absolute = PathText.normalize(path, base: Self.currentDirectory())
        let status: FileStatus
        switch FileStatus.read(spelling: absolute) {
        case .success(let read): status = read
        case .failure(let failure): throw FileTreeError(errno: failure.number, path: absolute)
        }
        guard status.type == .directory else {
            throw FileTreeError(.notADirectory, "Not a folder", path: absolute, errno: ENOTDIR)
        }
        let name = PathText.lastComponent(of: absolute)
        return FileEntry(
            name: name, parentPath: absolute == "/" ? "" : PathText.parent(of: absolute), type: .directory,
            status: status, contentType: registry.type(forFileName: name, isDirectory: true))
    }

    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A device and inode pair: what makes a folder the same folder, wherever it is reached from.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ status: FileStatus?) {
        device = status?.device ?? 0
        inode = status?.inode ?? 0
    }
}

extension FileTreeError {
    static func loop(at path: String) -> FileTreeError {
        FileTreeError(.symlinkLoop, "This folder was already visited (a loop)", path: path, errno: ELOOP)
    }
}
