internal import CFileTreeSystem
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The hot path of every read: one folder's entries from `openat` + `readdir` + `statx`
/// relative to the open folder, so the kernel never walks the full path again per entry.
struct Scanner {
    let filter: EntryFilter
    let order: EntryOrder?
    let registry: ContentTypeRegistry
    let linkSortsAsFolder: (@Sendable (String) -> Bool)?
    let extras: [AnyEntryAttribute]
    let cancellation: CancellationFlag?

    init(reader: DirectoryReader, extras: [AnyEntryAttribute], cancellation: CancellationFlag?) {
        filter = reader.filter
        order = reader.order
        registry = reader.registry
        linkSortsAsFolder = reader.linkSortsAsFolder
        var unique: [AnyEntryAttribute] = []
        for attribute in extras where !unique.contains(attribute) { unique.append(attribute) }
        self.extras = unique
        self.cancellation = cancellation
    }

    /// Whether a walk goes into this entry: a real folder (not a link), not a package.
    func shouldDescend(into entry: FileEntry) -> Bool {
        entry.type == .directory && entry.status != nil && !entry.contentType.isPackage
    }

    /// The children of a folder as nodes, `levels` deep. Sibling folders are read in parallel
    /// when `parallel` is set: the cost of a deep read is mostly system calls, and they scale with
    /// cores.
    func children(
        ofFolderAt path: String, levels: Int, visited: VisitedFolders, parallel: Bool
    ) -> ([FileNode]?, FileTreeError?) {
        guard levels > 0 else { return (nil, nil) }
        if cancellation?.isCancelled == true { return (nil, nil) }
        var nodes: [FileNode] = []
        let (opened, error) = scan(path) { nodes.append(FileNode(entry: $0)) }
        guard opened else { return (nil, error) }
        if let order {
            let sorted = order.sortedIndices(of: nodes.map(\.entry), linkSortsAsFolder: linkSortsAsFolder)
            nodes = sorted.map { nodes[$0] }
        }
        guard levels > 1 else { return (nodes, error) }

        var folders: [Int] = []
        for index in nodes.indices where shouldDescend(into: nodes[index].entry) {
            if visited.insert(FileIdentity(nodes[index].entry.status)) {
                folders.append(index)
            } else {
                nodes[index].readError = FileTreeError.loop(at: nodes[index].entry.path)
            }
        }
        let paths = folders.map { nodes[$0].entry.path }
        var results = [([FileNode]?, FileTreeError?)](repeating: (nil, nil), count: paths.count)
        if parallel && paths.count > 1 {
            results.withUnsafeMutableBufferPointer { buffer in
                let slots = ResultSlots(buffer: buffer)
                DispatchQueue.concurrentPerform(iterations: paths.count) { index in
                    slots[index] = children(
                        ofFolderAt: paths[index], levels: levels - 1, visited: visited, parallel: true)
                }
            }
        } else {
            for index in paths.indices {
                results[index] = children(
                    ofFolderAt: paths[index], levels: levels - 1, visited: visited, parallel: parallel)
            }
        }
        for (slot, index) in folders.enumerated() {
            (nodes[index].children, nodes[index].readError) = results[slot]
        }
        return (nodes, error)
    }

    /// One folder's entries, filtered, in `readdir` order, handed to `consume` one by one.
    /// Returns whether the folder could be opened, and what went wrong (an error with
    /// `opened == true` means `readdir` failed part-way).
    func scan(
        _ path: String, in folder: Int32? = nil, _ consume: (FileEntry) -> Void
    ) -> (opened: Bool, error: FileTreeError?) {
        let checksNames = !filter.excludedNames.isEmpty
        return readFolder(path, in: folder) { cName, kind, descriptor in
            let name = String(cString: cName)
            if checksNames && !filter.includes(name: name) { return }
            let entry = makeEntry(
                name: name, cName: cName, folder: descriptor, parentPath: path, direntType: kind,
                systemName: Self.systemName(cName, ifNotSpelledBy: name))
            if filter.foldersOnly && entry.type != .directory { return }
            if let predicate = filter.predicate, !predicate(entry) { return }
            consume(entry)
        }
    }

    /// Opens a folder and hands each name `readdir` gives (with its `d_type` and the folder's
    /// descriptor for `*at` calls) to `visit`, after the rules that need no system call: `.`
    /// and `..`, hidden names, and what is surely not a folder in a folders-only read. With
    /// `folder`, the folder is that open descriptor (read afresh, never reopened by name) and
    /// `path` only names it.
    func readFolder(
        _ path: String, in folder: Int32? = nil, _ visit: (UnsafePointer<CChar>, UInt8, Int32) -> Void,
        whileOpen: ((Int32) -> Void)? = nil
    ) -> (opened: Bool, error: FileTreeError?) {
        var descriptor =
            if let folder { openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) } else {
                path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            }
        // A path that spells a name that is not UTF-8 with U+FFFD: the folder it stands for.
        if descriptor < 0, folder == nil, errno == ENOENT, let bytes = SystemNames.cPath(spelling: path) {
            descriptor = open(bytes, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard descriptor >= 0 else { return (false, FileTreeError(errno: errno, path: path)) }
        guard let directory = fdopendir(descriptor) else {
            let number = errno
            close(descriptor)
            return (false, FileTreeError(errno: number, path: path))
        }
        defer { closedir(directory) }

        var failure: FileTreeError?
        let skipsHidden = !filter.includesHidden
        let foldersOnly = filter.foldersOnly
        while true {
            var kind: UInt8 = 0
            var number: Int32 = 0
            guard let cName = cft_next_entry(directory, &kind, &number) else {
                if number != 0 {
                    failure = FileTreeError(errno: number, path: path, operation: "Reading the folder")
                }
                break
            }
            if cName[0] == 0x2E {  // "."
                if cName[1] == 0 || (cName[1] == 0x2E && cName[2] == 0) || skipsHidden { continue }
            }
            // A folder-only walk skips what readdir already says is not a folder (or a link,
            // which may be one only when followed, and is never entered anyway).
            if foldersOnly && kind != UInt8(truncatingIfNeeded: CFT_DT_DIR)
                && kind != UInt8(truncatingIfNeeded: CFT_DT_UNKNOWN)
            {
                continue
            }
            visit(cName, kind, descriptor)
        }
        whileOpen?(descriptor)
        return (true, failure)
    }

    /// One folder's entries in the reader's order; `nil` when it cannot be opened.
    func entries(
        of path: String, in folder: Int32? = nil, expectedCount: Int = 0
    ) -> ([FileEntry]?, FileTreeError?) {
        var entries: [FileEntry] = []
        entries.reserveCapacity(min(max(expectedCount, 16), 1 << 20))
        let (opened, error) = scan(path, in: folder) { entries.append($0) }
        guard opened else { return (nil, error) }
        if let order { order.sort(&entries, linkSortsAsFolder: linkSortsAsFolder) }
        return (entries, error)
    }

    /// One entry by absolute path, as `scan` would have made it.
    func entry(at path: String) -> FileEntry {
        let parent = PathText.parent(of: path)
        let name = PathText.lastComponent(of: path)
        return name.withCString { cName in
            makeEntry(
                name: name, cName: cName, folder: AT_FDCWD, parentPath: path == "/" ? "" : parent,
                direntType: UInt8(truncatingIfNeeded: CFT_DT_UNKNOWN), statPath: path)
        }
    }

    /// The bytes of `cName` when `name` (read from them) does not spell them: they are not
    /// valid UTF-8, and each invalid sequence became U+FFFD.
    static func systemName(_ cName: UnsafePointer<CChar>, ifNotSpelledBy name: String) -> [UInt8]? {
        let length = strlen(cName)
        var name = name
        let same = name.withUTF8 { text in
            guard let start = text.baseAddress else { return length == 0 }
            return text.count == length && memcmp(start, cName, length) == 0
        }
        if same { return nil }
        return cName.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    func makeEntry(
        name: String, cName: UnsafePointer<CChar>, folder: Int32, parentPath: String, direntType: UInt8,
        statPath: String? = nil, systemName: [UInt8]? = nil
    ) -> FileEntry {
        let result: Result<FileStatus, SystemError> =
            if let statPath {
                statPath.withCString { FileStatus.read($0, relativeTo: AT_FDCWD, followingSymlink: false) }
            } else {
                FileStatus.read(cName, relativeTo: folder, followingSymlink: false)
            }
        switch result {
        case .success(let status):
            let type = status.type
            var symlink: SymlinkInfo?
            let contentType: ContentType
            switch type {
            case .regular: contentType = registry.type(forFileName: name)
            case .directory: contentType = registry.type(forFileName: name, isDirectory: true)
            case .symlink:
                contentType = .symbolicLink
                symlink = readLink(
                    name: name, cName: statPath == nil ? cName : nil, folder: folder,
                    parentPath: parentPath)
            case .other: contentType = .item
            }
            let extraValues =
                extras.isEmpty
                ? [:] : loadExtras(name: name, parentPath: parentPath, type: type, status: status)
            return FileEntry(
                name: name, parentPath: parentPath, type: type, status: status, contentType: contentType,
                symlink: symlink, extras: extraValues, systemName: systemName)
        case .failure(let failure):
            let number = failure.number
            let type = EntryType(direntType: direntType)
            let error = FileTreeError(
                errno: number, path: PathText.join(parentPath, name), operation: "Reading metadata")
            return FileEntry(
                name: name, parentPath: parentPath, type: type, status: nil,
                contentType: type == .directory ? .folder : registry.type(forFileName: name), error: error,
                systemName: systemName)
        }
    }

    private func readLink(
        name: String, cName: UnsafePointer<CChar>?, folder: Int32, parentPath: String
    ) -> SymlinkInfo? {
        let path = PathText.join(parentPath, name)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length: Int =
            if let cName { readlinkat(folder, cName, &buffer, buffer.count - 1) } else {
                readlink(path, &buffer, buffer.count - 1)
            }
        guard length >= 0 else { return nil }
        let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let resolved = PathText.normalize(target, base: parentPath.isEmpty ? "/" : parentPath)
        let followed: Result<FileStatus, SystemError> =
            if let cName { FileStatus.read(cName, relativeTo: folder, followingSymlink: true) } else {
                path.withCString { FileStatus.read($0, relativeTo: AT_FDCWD, followingSymlink: true) }
            }
        let targetStatus = try? followed.get()
        return SymlinkInfo(
            target: target, resolvedPath: resolved, targetType: targetStatus?.type, targetStatus: targetStatus
        )
    }

    private func loadExtras(
        name: String, parentPath: String, type: EntryType, status: FileStatus
    ) -> [String: any Sendable] {
        let context = EntryAttributeContext(
            path: PathText.join(parentPath, name), name: name, type: type, status: status)
        var values: [String: any Sendable] = [:]
        for attribute in extras {
            if let value = attribute.load(context) { values[attribute.name] = value }
        }
        return values
    }
}

/// The folders a deep read has entered, shared by the threads of a parallel read.
final class VisitedFolders: Sendable {
    private let identities: Mutex<Set<FileIdentity>>

    init(_ first: FileIdentity) { identities = Mutex([first]) }

    /// Records a folder; `false` when it was already there (a loop).
    func insert(_ identity: FileIdentity) -> Bool {
        identities.withLock { $0.insert(identity).inserted }
    }
}

/// Lets the iterations of `concurrentPerform` each write their own slot of one buffer.
private struct ResultSlots<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>

    subscript(index: Int) -> Element {
        get { buffer[index] }
        nonmutating set { buffer[index] = newValue }
    }
}
