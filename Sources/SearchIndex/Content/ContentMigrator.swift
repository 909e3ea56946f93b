/// The content index file's schema, one migration per version (`PRAGMA user_version` says
/// which have run). Schema changes are added here, never written ad hoc elsewhere.
///
/// Versions 1 and 2 kept the trigram lists in an FTS5 table (2 with a tokenizer of its own,
/// which a table cannot even be dropped without); version 3 numbered trigrams by seven-bit
/// characters; version 4 kept a row a trigram; version 5 kept the postings in the file, a row a
/// block of 64 trigrams (now each segment's are a file of their own: see ``SegmentShelf``). Their files are not migrated: the index is a
/// cache of what the files say, so such a file is removed and the index built anew.
enum ContentMigrator {
    /// The first version this Browsey migrates from; older files are made anew.
    static let baseline = 6

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
        -- The files with ids first ..< first + span, indexed together; which of them hold each
        -- trigram is the segment's file, `first-span.seg` in the folder beside this one.
        CREATE TABLE segment (first INTEGER PRIMARY KEY, span INTEGER NOT NULL);
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
