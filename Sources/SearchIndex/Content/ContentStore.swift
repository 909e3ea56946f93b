#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One connection to the content index file: the indexer writes through one, each search reads
/// through one of its own (WAL lets them run side by side). Used by one thread at a time.
final class ContentStore: @unchecked Sendable {
    /// What the store knows of a file.
    struct Known: Equatable {
        var size: Int64
        var modified: Int64
    }

    let database: SQLiteDatabase
    private var statements: [String: SQLiteDatabase.Statement] = [:]

    /// Opens (and makes and migrates) the file at `path`; `root` is kept in it, and a file made
    /// for another root is emptied.
    init(path: String, root: String, cacheKiB: Int) throws(SearchIndexError) {
        database = try SQLiteDatabase(path: path)
        try TrigramTokenizer.register(on: database.handle)
        try database.execute(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -\(cacheKiB)")
        try ContentMigrator.migrate(database)
        let stored = try statement("SELECT value FROM info WHERE key = 'root'")
        stored.bind()
        defer { stored.reset() }
        if try stored.step(), stored.text(0) != root {
            try database.execute("DELETE FROM body; DELETE FROM file")
        }
        let keep = try statement("INSERT OR REPLACE INTO info (key, value) VALUES ('root', ?1)")
        keep.bind(.text(root))
        try keep.step()
    }

    /// Opens the file at `path` for searches only: it writes nothing, not even its settings.
    init(readingAt path: String, cacheKiB: Int) throws(SearchIndexError) {
        database = try SQLiteDatabase(path: path)
        try TrigramTokenizer.register(on: database.handle)
        try database.execute("PRAGMA cache_size = -\(cacheKiB); PRAGMA query_only = 1")
    }

    /// Opens the file at `path`; a damaged one is removed and made anew.
    static func openOrRecreate(
        path: String, root: String, cacheKiB: Int, onDamage: (SearchIndexError) -> Void
    ) throws(SearchIndexError) -> ContentStore {
        do {
            return try ContentStore(path: path, root: root, cacheKiB: cacheKiB)
        } catch {
            guard path != ":memory:" else { throw error }
            onDamage(error)
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            return try ContentStore(path: path, root: root, cacheKiB: cacheKiB)
        }
    }

    private func statement(_ sql: String) throws(SearchIndexError) -> SQLiteDatabase.Statement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql)
        statements[sql] = statement
        return statement
    }

    // MARK: Writing

    /// What is stored of every file at `folder` and below (`""`: everything).
    func known(under folder: String) throws(SearchIndexError) -> [String: Known] {
        let rows = try statement(
            "SELECT path, size, modified FROM file WHERE ?1 = '' OR path = ?1 OR (path >= ?1 || '/' AND path < ?1 || '0')"
        )
        rows.bind(.text(folder))
        var known: [String: Known] = [:]
        while try rows.step() { known[rows.text(0)] = Known(size: rows.int64(1), modified: rows.int64(2)) }
        return known
    }

    /// Forgets one file.
    func remove(_ path: String) throws(SearchIndexError) {
        let find = try statement("SELECT id FROM file WHERE path = ?1")
        find.bind(.text(path))
        defer { find.reset() }
        guard try find.step() else { return }
        let id = find.int64(0)
        let body = try statement("DELETE FROM body WHERE rowid = ?1")
        body.bind(.integer(id))
        try body.step()
        let file = try statement("DELETE FROM file WHERE id = ?1")
        file.bind(.integer(id))
        try file.step()
    }

    /// Keeps a file's folded text (`nil`: not text, remembered so that it is not read again
    /// until it changes), replacing what was kept of it.
    func put(_ path: String, known: Known, text: String?) throws(SearchIndexError) {
        try remove(path)
        let file = try statement("INSERT INTO file (path, size, modified, indexed) VALUES (?1, ?2, ?3, ?4)")
        file.bind(.text(path), .integer(known.size), .integer(known.modified), .integer(text == nil ? 0 : 1))
        try file.step()
        guard let text else { return }
        let body = try statement("INSERT INTO body (rowid, text) VALUES (?1, ?2)")
        body.bind(.integer(database.lastInsertedRowID), .text(text))
        try body.step()
    }

    /// Runs `body` in one transaction.
    func transaction(_ body: () throws(SearchIndexError) -> Void) throws(SearchIndexError) {
        try database.transaction(body)
    }

    // MARK: Reading

    /// Files whose text holds `query` (an FTS5 expression, or `nil`: every text file), with a
    /// rowid below `before`, under `folder`, newest reading first.
    func candidates(
        _ query: String?, under folder: String, before: Int64, limit: Int
    ) throws(SearchIndexError) -> [ContentCandidate] {
        let rows =
            query == nil
            ? try statement(
                "SELECT id, path FROM file WHERE indexed = 1 AND id < ?2 AND (?3 = '' OR (path >= ?3 || '/' AND path < ?3 || '0')) ORDER BY id DESC LIMIT ?4"
            )
            : try statement(
                "SELECT f.id, f.path FROM body JOIN file f ON f.id = body.rowid WHERE body MATCH ?1 AND body.rowid < ?2 AND (?3 = '' OR (f.path >= ?3 || '/' AND f.path < ?3 || '0')) ORDER BY body.rowid DESC LIMIT ?4"
            )
        rows.bind(.text(query ?? ""), .integer(before), .text(folder), .integer(Int64(limit)))
        var found: [ContentCandidate] = []
        while try rows.step() { found.append(ContentCandidate(id: rows.int64(0), path: rows.text(1))) }
        return found
    }

    /// How many files hold `trigram` (three characters), counted up to `cap`: the cost of
    /// counting grows with the count.
    func fileCount(holding trigram: String, cap: Int) throws(SearchIndexError) -> Int {
        let rows = try statement("SELECT count(*) FROM (SELECT 1 FROM body WHERE body MATCH ?1 LIMIT ?2)")
        rows.bind(.text(TrigramPlan.term(trigram)), .integer(Int64(cap)))
        defer { rows.reset() }
        return try rows.step() ? Int(rows.int64(0)) : 0
    }

    /// How many files hold text.
    func textFileCount() throws(SearchIndexError) -> Int {
        let rows = try statement("SELECT count(*) FROM file WHERE indexed = 1")
        rows.bind()
        defer { rows.reset() }
        return try rows.step() ? Int(rows.int64(0)) : 0
    }
}
