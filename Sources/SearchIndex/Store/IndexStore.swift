#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The index on disk: every entry's folder, name, kind, size and modification time, so that the
/// next start answers at once from what the last one knew (and then reconciles with the disk).
final class IndexStore {
    private let database: SQLiteDatabase
    private let deleteFolder: SQLiteDatabase.Statement
    private let deleteSubtree: SQLiteDatabase.Statement
    private let moveSubtree: SQLiteDatabase.Statement
    private let insert: SQLiteDatabase.Statement

    /// Opens the index file at `path`, made and migrated as needed, and checks it is sound.
    init(path: String, root: String) throws(SearchIndexError) {
        database = try SQLiteDatabase(path: path)
        // The entries live in memory (the catalog); the file only keeps them for the next start,
        // so SQLite's own page cache stays small (256 KiB, not its default 2 MiB): it would hold
        // a second copy of what the catalog has, in a server that idles at under 30 MiB.
        try database.execute(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -256")
        let check = try database.prepare("PRAGMA quick_check")
        _ = try check.step()
        guard check.text(0) == "ok" else {
            throw SearchIndexError(.corrupt, "The index \(path): \(check.text(0))")
        }
        try IndexMigrator.migrate(database)
        deleteFolder = try database.prepare("DELETE FROM entry WHERE folder = ?1")
        deleteSubtree = try database.prepare(
            "DELETE FROM entry WHERE folder = ?1 OR (folder >= ?1 || '/' AND folder < ?1 || '0')")
        moveSubtree = try database.prepare(
            "UPDATE entry SET folder = ?2 || substr(folder, length(?1) + 1) WHERE folder = ?1 OR (folder >= ?1 || '/' AND folder < ?1 || '0')"
        )
        insert = try database.prepare(
            "INSERT OR REPLACE INTO entry (folder, name, kind, size, modified, inode) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
        )
        let stored = try database.prepare("SELECT value FROM info WHERE key = 'root'")
        if try stored.step(), stored.text(0) != root {
            try database.execute("DELETE FROM entry")
        }
        let keep = try database.prepare("INSERT OR REPLACE INTO info (key, value) VALUES ('root', ?1)")
        keep.bind(.text(root))
        try keep.step()
    }

    /// Opens the index at `path`; a damaged or unreadable file is removed and made anew.
    static func openOrRecreate(
        path: String, root: String, onDamage: (SearchIndexError) -> Void
    ) throws(SearchIndexError) -> IndexStore {
        do {
            return try IndexStore(path: path, root: root)
        } catch {
            onDamage(error)
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            return try IndexStore(path: path, root: root)
        }
    }

    /// Every folder the file holds.
    func load() throws(SearchIndexError) -> Catalog {
        let rows = try database.prepare(
            "SELECT folder, name, kind, size, modified, inode FROM entry ORDER BY folder")
        var catalog = Catalog()
        var folder: String?
        var entries: [IndexedEntry] = []
        while try rows.step() {
            let path = rows.text(0)
            if path != folder {
                if let folder { catalog.put(FolderRecord(path: folder, entries: entries)) }
                folder = path
                entries.removeAll(keepingCapacity: true)
            }
            entries.append(
                IndexedEntry(
                    name: rows.text(1),
                    kind: IndexedEntry.Kind(rawValue: UInt8(clamping: rows.int64(2))) ?? .file,
                    size: rows.int64(3), modified: rows.int64(4), inode: UInt64(bitPattern: rows.int64(5))))
        }
        if let folder { catalog.put(FolderRecord(path: folder, entries: entries)) }
        return catalog
    }

    /// One change to write.
    enum Change {
        /// A folder read again: its entries replace what was kept.
        case folder(FolderRecord)
        /// A folder and everything below it are gone.
        case removeSubtree(String)
        /// A folder and everything below it moved.
        case moveSubtree(from: String, to: String)
    }

    /// Writes changes in one transaction, then frees the connection's cache: the catalog in
    /// memory answers every search, and a cache filled by a first build's writes would otherwise
    /// stay resident while the server idles (freeing it: 260 KiB less live heap at idle over
    /// 10,000 names, by heaptrack).
    func apply(_ changes: [Change]) throws(SearchIndexError) {
        guard !changes.isEmpty else { return }
        defer { database.releaseMemory() }
        try database.transaction { () throws(SearchIndexError) in
            for change in changes {
                switch change {
                case .removeSubtree(let path):
                    deleteSubtree.bind(.text(path))
                    try deleteSubtree.step()
                case .moveSubtree(let from, let to):
                    moveSubtree.bind(.text(from), .text(to))
                    try moveSubtree.step()
                case .folder(let record):
                    deleteFolder.bind(.text(record.path))
                    try deleteFolder.step()
                    for entry in record.entries {
                        insert.bind(
                            .text(record.path), .text(entry.name), .integer(Int64(entry.kind.rawValue)),
                            .integer(entry.size), .integer(entry.modified),
                            .integer(Int64(bitPattern: entry.inode)))
                        try insert.step()
                    }
                }
            }
        }
    }
}
