import FileTree
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The work behind a ``NameIndex``: reads the last run's file, reconciles it with the disk,
/// then turns each batch of the watcher's changes into new folder records, the events that
/// describe them, and the rows to write.
struct IndexMaintainer: Sendable {
    let options: NameIndex.Options
    /// A watcher the index was given rather than started (not stopped here).
    let sharedWatcher: DirectoryWatcher?
    let logger: Logger
    /// The root held open: folders are read below it, never through a link that leads out (a
    /// folder swapped for one between a change and its reading puts no outside name in the index).
    let root: ContainedRoot?
    /// How far the published catalog has followed the watcher.
    let appliedChanges: AppliedChanges

    init(
        options: NameIndex.Options, sharedWatcher: DirectoryWatcher?, appliedChanges: AppliedChanges,
        logger: Logger
    ) {
        self.options = options
        self.sharedWatcher = sharedWatcher
        self.appliedChanges = appliedChanges
        self.logger = logger
        root = try? ContainedRoot(path: options.root)
    }

    /// Hands a new catalog, the phase and the changes to the index; `false` means stop.
    typealias Publish = @Sendable (Catalog, NameIndex.Phase, [TreeChange]) -> Bool

    func run(publish: Publish) async {
        let clock = ContinuousClock()
        let started = clock.now
        let store = openStore()
        var catalog = Catalog()
        if let store {
            do {
                catalog = try store.load()
                if !catalog.folders.isEmpty {
                    logger.info(
                        "Search index: answering from the last run's \(catalog.entryCount) entries after \(clock.now - started), checking the disk"
                    )
                    guard publish(catalog, .reconciling, []) else { return }
                }
            } catch {
                logger.warning("Search index: the saved index cannot be read, building it again (\(error))")
            }
        }
        // Watch before reading the disk, so that nothing done meanwhile is missed.
        var watcher = sharedWatcher
        if watcher == nil {
            do {
                watcher = try DirectoryWatcher(
                    path: options.root,
                    options: .init(coalescing: options.coalescing, filter: options.filter),
                    logger: logger)
            } catch {
                logger.warning(
                    "Search index: the folder cannot be watched, results will not follow changes (\(error))")
            }
        }
        // The count of changes before the disk is read: each one after it comes in a batch.
        let reportedBeforeReading = watcher?.changesReported
        var writes: [IndexStore.Change] = []
        catalog = reconcile(catalog, writes: &writes)
        save(writes, to: store)
        guard !Task.isCancelled, publish(catalog, .ready, []) else { return }
        if let watcher, let reportedBeforeReading {
            appliedChanges.follow(watcher, applied: reportedBeforeReading)
        }
        logger.info("Search index: \(catalog.entryCount) entries ready in \(clock.now - started)")
        guard let watcher else { return }
        let owned = sharedWatcher == nil
        defer { if owned { watcher.stop() } }
        for await batch in watcher.changes {
            guard !Task.isCancelled else { break }
            var writes: [IndexStore.Change] = []
            let paths =
                batch.needsRescan
                ? [options.root] + catalog.folders.map { options.root + $0.path } : batch.paths
            let changes = apply(paths, to: &catalog, writes: &writes)
            save(writes, to: store)
            guard publish(catalog, .ready, changes) else { break }
            appliedChanges.applied(through: batch.sequence)
        }
    }

    // MARK: Storage

    private func openStore() -> IndexStore? {
        guard let path = options.storePath else { return nil }
        makeFolders(upTo: path)
        do {
            return try IndexStore.openOrRecreate(path: path, root: options.root) { damage in
                logger.warning("Search index: \(path) is damaged, building it again (\(damage))")
            }
        } catch {
            logger.warning("Search index: cannot keep the index in \(path), keeping it in memory (\(error))")
            return nil
        }
    }

    private func save(_ writes: [IndexStore.Change], to store: IndexStore?) {
        guard let store, !writes.isEmpty else { return }
        do {
            try store.apply(writes)
        } catch {
            logger.warning("Search index: cannot save changes (\(error)); searches still see them")
        }
    }

    private func makeFolders(upTo file: String) {
        var folder = ""
        for component in file.split(separator: "/").dropLast() {
            folder += "/" + component
            _ = mkdir(folder, 0o700)
        }
    }

    // MARK: Reading the disk

    /// A folder's entries, or `nil` when it is no longer a readable folder.
    func read(_ folder: String) -> [IndexedEntry]? {
        let reader = DirectoryReader(filter: options.filter)
        guard let root, let descriptor = try? root.open(folder, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW),
            let listing = try? reader.listing(
                in: OpenFolder(adopting: descriptor, path: root.absolute(folder)))
        else {
            return nil
        }
        return listing.items.map { item in
            let modified = item.status?.modified.nanosecondsSince1970 ?? 0
            return IndexedEntry(
                name: listing.name(of: item), kind: IndexedEntry.Kind(item.type), size: item.size,
                modified: modified,
                inode: item.status?.inode ?? 0)
        }
    }

    /// Reads `top` and every folder below it into `catalog`.
    func scan(_ top: String, into catalog: inout Catalog, writes: inout [IndexStore.Change]) {
        var pending = [top]
        while let folder = pending.popLast() {
            guard let entries = read(folder) else { continue }
            let record = FolderRecord(path: folder, entries: entries)
            catalog.put(record)
            writes.append(.folder(record))
            for entry in entries where entry.kind == .directory { pending.append(folder + "/" + entry.name) }
        }
    }

    /// The disk as it is now; `writes` gets only what differs from `known`.
    func reconcile(_ known: Catalog, writes: inout [IndexStore.Change]) -> Catalog {
        var fresh = Catalog()
        var all: [IndexStore.Change] = []
        scan("", into: &fresh, writes: &all)
        for case .folder(let record) in all
        where known.record(at: record.path).map({ !$0.entries.holdsTheSame(as: record.entries) }) ?? true {
            writes.append(.folder(record))
        }
        for record in known.folders where fresh.record(at: record.path) == nil {
            writes.append(.removeSubtree(record.path))
        }
        return fresh
    }

    // MARK: Applying changes

    /// Reads again the folders that `paths` (absolute, as the watcher reports them) touch, and
    /// returns what changed.
    func apply(
        _ paths: [String], to catalog: inout Catalog, writes: inout [IndexStore.Change]
    ) -> [TreeChange] {
        var folders = Set<String>()
        for path in paths {
            guard let relative = relativePath(path) else { continue }
            if relative.isEmpty {
                folders.insert("")
                continue
            }
            folders.insert(parent(of: relative))
            if catalog.record(at: relative) != nil { folders.insert(relative) }
        }
        var created: [TreeChange] = []
        var deleted: [TreeChange] = []
        var changes: [TreeChange] = []
        var vanished: [String] = []
        for folder in folders.sorted(by: { $0.count < $1.count }) {
            guard let old = catalog.record(at: folder) else { continue }  // new folders come whole
            guard let entries = read(folder) else {
                vanished.append(folder)
                continue
            }
            guard !old.entries.holdsTheSame(as: entries) else { continue }
            var before: [String: IndexedEntry] = [:]
            for entry in old.entries { before[entry.name] = entry }
            for entry in entries {
                let path = folder + "/" + entry.name
                if let previous = before.removeValue(forKey: entry.name) {
                    if previous.kind != entry.kind || previous.size != entry.size
                        || previous.modified != entry.modified
                    {
                        changes.append(TreeChange(kind: .modified, path: path, entry: entry))
                    }
                } else {
                    created.append(TreeChange(kind: .created, path: path, entry: entry))
                }
            }
            for entry in before.values {
                deleted.append(TreeChange(kind: .deleted, path: folder + "/" + entry.name, entry: entry))
            }
            let record = FolderRecord(path: folder, entries: entries)
            catalog.put(record)
            writes.append(.folder(record))
        }
        // A disappearance and an appearance of the same inode are one rename.
        var deletedByInode: [UInt64: Int] = [:]
        for (offset, change) in deleted.enumerated() where change.entry.inode != 0 {
            deletedByInode[change.entry.inode] = offset
        }
        var renamedFrom = Set<Int>()
        for change in created {
            if let offset = deletedByInode[change.entry.inode], !renamedFrom.contains(offset),
                deleted[offset].entry.kind == change.entry.kind
            {
                renamedFrom.insert(offset)
                let from = deleted[offset].path
                changes.append(TreeChange(kind: .renamed, path: change.path, from: from, entry: change.entry))
                if change.entry.kind == .directory {
                    catalog.moveSubtree(from: from, to: change.path)
                    writes.append(.moveSubtree(from: from, to: change.path))
                    if let entries = read(change.path) {
                        let record = FolderRecord(path: change.path, entries: entries)
                        catalog.put(record)
                        writes.append(.folder(record))
                    }
                }
            } else {
                changes.append(change)
                if change.entry.kind == .directory { scan(change.path, into: &catalog, writes: &writes) }
            }
        }
        for (offset, change) in deleted.enumerated() where !renamedFrom.contains(offset) {
            changes.append(change)
            if change.entry.kind == .directory { vanished.append(change.path) }
        }
        for folder in vanished where catalog.record(at: folder) != nil {
            catalog.removeSubtree(folder)
            writes.append(.removeSubtree(folder))
        }
        return changes
    }

    /// `/a/b` for `<root>/a/b`, `""` for the root, `nil` outside it.
    private func relativePath(_ path: String) -> String? {
        if path == options.root { return "" }
        let prefix = options.root == "/" ? "" : options.root
        guard path.hasPrefix(prefix + "/") else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    private func parent(of relative: String) -> String {
        guard let slash = relative.lastIndex(of: "/") else { return "" }
        return String(relative[..<slash])
    }
}
