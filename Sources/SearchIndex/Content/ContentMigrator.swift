/// The content index file's schema, one migration per version (`PRAGMA user_version` says
/// which have run). Schema changes are added here, never written ad hoc elsewhere.
///
/// Versions 1 and 2 kept the trigram lists in an FTS5 table (2 with a tokenizer of its own,
/// which a table cannot even be dropped without); version 3 numbered trigrams by seven-bit
/// characters; version 4 kept a row a trigram. Their files are not migrated: the index is a
/// cache of what the files say, so such a file is removed and the index built anew.
enum ContentMigrator {
    /// The first version this Browsey migrates from; older files are made anew.
    static let baseline = 5

    /// Each migration, in order; the N-th brings a file to version `baseline + N - 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE file (
            id INTEGER PRIMARY KEY,    -- given in order; a file read again gets a new, higher one
            path TEXT NOT NULL UNIQUE, -- relative to the root: '/docs/a.md'
            size INTEGER NOT NULL,
            modified INTEGER NOT NULL, -- nanoseconds since 1970
            indexed INTEGER NOT NULL   -- 1 when its text is in the postings, 0 when it was not text
        );
        CREATE TABLE info (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        -- The files with ids first ..< first + span, indexed together.
        CREATE TABLE segment (first INTEGER PRIMARY KEY, span INTEGER NOT NULL);
        -- Which of a segment's files hold each trigram, 64 trigrams a row (see PostingBlock):
        -- id is the segment's first × 8192 + the block's number (TrigramKeys' number >> 6).
        CREATE TABLE posting (id INTEGER PRIMARY KEY, data BLOB NOT NULL);
        """
    ]

    /// The version a file has after every migration.
    static var latest: Int { baseline + migrations.count - 1 }

    /// Brings `database` to the latest version.
    ///
    /// - Throws: ``SearchIndexError`` `.newerVersion` for a file from a newer schema, and
    ///   `.olderVersion` for one older than ``baseline``.
    static func migrate(_ database: SQLiteDatabase) throws(SearchIndexError) {
        let version = Int(try database.pragma("user_version"))
        guard version <= latest else {
            throw SearchIndexError(
                .newerVersion, "The content index has schema \(version); this Browsey knows \(latest)")
        }
        guard version == 0 || version >= baseline else {
            throw SearchIndexError(
                .olderVersion, "The content index has schema \(version), older than \(baseline)")
        }
        let done = version == 0 ? 0 : version - baseline + 1
        for (offset, sql) in migrations.enumerated().dropFirst(done) {
            try database.transaction { () throws(SearchIndexError) in
                try database.execute(sql)
                try database.execute("PRAGMA user_version = \(baseline + offset)")
            }
        }
    }
}
