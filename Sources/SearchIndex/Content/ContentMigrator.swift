/// The content index file's schema, one migration per version (`PRAGMA user_version` says
/// which have run). Schema changes are added here, never written ad hoc elsewhere.
enum ContentMigrator {
    /// Each migration, in order; version N is the N-th.
    static let migrations: [String] = [
        """
        CREATE TABLE file (
            id INTEGER PRIMARY KEY,    -- the body's rowid; a file read again gets a new, higher one
            path TEXT NOT NULL UNIQUE, -- relative to the root: '/docs/a.md'
            size INTEGER NOT NULL,
            modified INTEGER NOT NULL, -- nanoseconds since 1970
            indexed INTEGER NOT NULL   -- 1 when its text is in body, 0 when it was not text
        );
        CREATE VIRTUAL TABLE body USING fts5(text, tokenize = 'trigram');
        CREATE TABLE info (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        """,
        // Version 2: the trigram lists keep no places (a third of the size, and built faster;
        // searches ask for trigrams one by one and read each candidate anyway), and each file's
        // distinct trigrams are given once (TrigramTokenizer, registered on every connection
        // before this runs). Every file is forgotten, so the next build reads them all again.
        """
        DROP TABLE body;
        CREATE VIRTUAL TABLE body USING fts5(text, tokenize = 'browsey_trigram', detail = 'none');
        DELETE FROM file;
        """,
    ]

    /// Brings `database` to the latest version.
    ///
    /// - Throws: ``SearchIndexError`` `.newerVersion` for a file from a newer schema.
    static func migrate(_ database: SQLiteDatabase) throws(SearchIndexError) {
        let version = Int(try database.pragma("user_version"))
        guard version <= migrations.count else {
            throw SearchIndexError(
                .newerVersion,
                "The content index has schema \(version); this Browsey knows \(migrations.count)")
        }
        for (offset, sql) in migrations.enumerated().dropFirst(version) {
            try database.transaction { () throws(SearchIndexError) in
                try database.execute(sql)
                try database.execute("PRAGMA user_version = \(offset + 1)")
            }
        }
    }
}
