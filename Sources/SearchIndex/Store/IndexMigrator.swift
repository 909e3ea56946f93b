/// The index file's schema, one migration per version (`PRAGMA user_version` says which have
/// run). Schema changes are added here, never written ad hoc elsewhere.
enum IndexMigrator {
    /// Each migration, in order; version N is the N-th.
    static let migrations: [String] = [
        """
        CREATE TABLE entry (
            folder TEXT NOT NULL,      -- '' for the root, else '/a/b'
            name TEXT NOT NULL,
            kind INTEGER NOT NULL,     -- 0 file, 1 folder, 2 link
            size INTEGER NOT NULL,
            modified INTEGER NOT NULL, -- nanoseconds since 1970
            inode INTEGER NOT NULL,
            PRIMARY KEY (folder, name)
        ) WITHOUT ROWID;
        CREATE VIEW entry_path AS
            SELECT folder || '/' || name AS path, name, kind, size, modified FROM entry;
        CREATE TABLE info (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        """
    ]

    /// Brings `database` to the latest version.
    ///
    /// - Throws: ``SearchIndexError`` `.newerVersion` for a file from a newer schema.
    static func migrate(_ database: SQLiteDatabase) throws(SearchIndexError) {
        let version = Int(try database.pragma("user_version"))
        guard version <= migrations.count else {
            throw SearchIndexError(
                .newerVersion, "The index has schema \(version); this Browsey knows \(migrations.count)")
        }
        for (offset, sql) in migrations.enumerated().dropFirst(version) {
            try database.transaction { () throws(SearchIndexError) in
                try database.execute(sql)
                try database.execute("PRAGMA user_version = \(offset + 1)")
            }
        }
    }
}
