import GRDBSQLite
import Logging
import Synchronization

/// The state of one server in an SQLite file in its data folder (or in memory, without one),
/// through GRDB's SQLite module: the C API, since GRDB's Swift layer would bring all of
/// Foundation into the server.
///
/// The schema is versioned by SQLite's `user_version`: each step in ``migrations`` runs once, in
/// one transaction with the version it brings. Files made before versioning (sessions and
/// shares only) are at version 0, and step 1 keeps their rows.
public final class SQLiteStateStore: StateStore {
    private let connection: Mutex<OpaquePointer>
    /// The lock table as it stands, read once: one process writes this file, and a LOCK or a
    /// write checked against thousands of locks must not read them all back each time. Changed
    /// only while `connection` is held.
    private let lockCache = Mutex<[StoredLock]?>(nil)
    private let logger = Logger(label: "browsey.state")

    /// The schema's steps, oldest first; the file's `user_version` counts those it has run.
    static let migrations = [
        """
        CREATE TABLE IF NOT EXISTS session (
            key TEXT PRIMARY KEY NOT NULL, user TEXT NOT NULL, stamp TEXT NOT NULL,
            expires INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS share (
            id TEXT PRIMARY KEY NOT NULL, owner TEXT NOT NULL, path TEXT NOT NULL,
            upload INTEGER NOT NULL, password TEXT, expires INTEGER, created INTEGER NOT NULL,
            downloads INTEGER NOT NULL DEFAULT 0);
        """,
        """
        CREATE TABLE throttle (
            key TEXT PRIMARY KEY NOT NULL, failures INTEGER NOT NULL, next INTEGER NOT NULL);
        """,
        """
        CREATE TABLE lock (
            token TEXT PRIMARY KEY NOT NULL, root TEXT NOT NULL, deep INTEGER NOT NULL,
            exclusive INTEGER NOT NULL, owner TEXT NOT NULL, holder TEXT NOT NULL,
            seconds INTEGER NOT NULL, expires INTEGER NOT NULL);
        """,
    ]

    /// `sqlite`.
    public var kind: String { "sqlite" }

    /// Opens (or makes) the store at `path`, bringing its schema up to date; in memory (gone
    /// with the process) when `path` is `nil`.
    public init(path: String?) throws(ServerSetupError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let name = path ?? ":memory:"
        guard sqlite3_open_v2(name, &handle, flags, nil) == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw ServerSetupError(
                .accounts, message: "The state database \(name) cannot be opened: \(message)")
        }
        sqlite3_busy_timeout(handle, 2_000)
        do {
            try Self.migrate(handle)
        } catch {
            sqlite3_close(handle)
            throw ServerSetupError(
                .accounts, message: "The state database \(name) cannot be used: \(error.message)")
        }
        connection = Mutex(handle)
    }

    /// A store in memory, gone with the process.
    public static func inMemory() -> SQLiteStateStore {
        do {
            return try SQLiteStateStore(path: nil)
        } catch {
            // An in-memory database opens unless memory is gone, and then nothing else would work.
            fatalError("No memory for the state store: \(error.message)")
        }
    }

    deinit { connection.withLock { _ = sqlite3_close_v2($0) } }

    /// Runs the steps the file has not run yet, each with its version in one transaction.
    private static func migrate(_ handle: OpaquePointer) throws(StateStoreError) {
        guard sqlite3_exec(handle, "PRAGMA journal_mode=WAL", nil, nil, nil) == SQLITE_OK else {
            throw .refused(String(cString: sqlite3_errmsg(handle)))
        }
        var version = 0
        var statement: OpaquePointer?
        if sqlite3_prepare_v2(handle, "PRAGMA user_version", -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW
        {
            version = Int(sqlite3_column_int64(statement, 0))
        }
        sqlite3_finalize(statement)
        for (index, step) in migrations.enumerated().dropFirst(version) {
            let sql = "BEGIN IMMEDIATE; \(step) PRAGMA user_version = \(index + 1); COMMIT;"
            guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
                let message = String(cString: sqlite3_errmsg(handle))
                sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
                throw .refused(message)
            }
        }
    }

    /// `true`: the file is on this machine.
    public var lastCallReached: Bool { true }

    /// Asks SQLite for one row: whether the file answers.
    public func ping() throws(StateStoreError) { _ = try rows("SELECT 1", []) { _ in () } }

    // MARK: Sessions

    /// Keeps a session, replacing one of the same key.
    public func saveSession(_ session: StoredSession, key: String) throws(StateStoreError) {
        try run(
            "INSERT OR REPLACE INTO session (key, user, stamp, expires) VALUES (?, ?, ?, ?)",
            [.text(key), .text(session.user), .text(session.stamp), .integer(session.expires)])
    }

    /// The session of `key`, ended or not.
    public func session(key: String) throws(StateStoreError) -> StoredSession? {
        try rows("SELECT user, stamp, expires FROM session WHERE key = ?", [.text(key)]) { row in
            StoredSession(user: row.text(0) ?? "", stamp: row.text(1) ?? "", expires: row.integer(2) ?? 0)
        }.first
    }

    /// Forgets a session.
    public func deleteSession(key: String) throws(StateStoreError) {
        try run("DELETE FROM session WHERE key = ?", [.text(key)])
    }

    /// Forgets every session that ends at or before `time`.
    public func deleteSessions(endingBy time: Int64) throws(StateStoreError) {
        try run("DELETE FROM session WHERE expires <= ?", [.integer(time)])
    }

    // MARK: Shares

    /// Keeps a new share.
    public func insertShare(_ share: Share) throws(StateStoreError) {
        try run(
            "INSERT INTO share (id, owner, path, upload, password, expires, created, downloads) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                .text(share.id), .text(share.owner), .text(share.path), .integer(share.upload ? 1 : 0),
                share.password.map { .text($0.description) } ?? .null,
                share.expires.map { .integer($0) } ?? .null,
                .integer(share.created), .integer(Int64(share.downloads)),
            ])
    }

    /// The share of `id`, expired or not.
    public func share(id: String) throws(StateStoreError) -> Share? {
        try rows(Self.shareColumns + " WHERE id = ?", [.text(id)], Self.share).first ?? nil
    }

    /// Every share, oldest first.
    public func shares() throws(StateStoreError) -> [Share] {
        try rows(Self.shareColumns + " ORDER BY created, id", [], Self.share).compactMap { $0 }
    }

    /// Forgets a share; whether there was one.
    @discardableResult
    public func deleteShare(id: String) throws(StateStoreError) -> Bool {
        try run("DELETE FROM share WHERE id = ?", [.text(id)]) > 0
    }

    /// Counts one download of a share.
    public func countDownload(share id: String) throws(StateStoreError) {
        try run("UPDATE share SET downloads = downloads + 1 WHERE id = ?", [.text(id)])
    }

    private static let shareColumns =
        "SELECT id, owner, path, upload, password, expires, created, downloads FROM share"

    private static func share(_ row: Row) -> Share? {
        guard let id = row.text(0), let owner = row.text(1), let path = row.text(2) else { return nil }
        return Share(
            id: id, owner: owner, path: path, upload: row.integer(3) == 1,
            password: row.text(4).flatMap(PasswordHash.init), expires: row.integer(5),
            created: row.integer(6) ?? 0, downloads: Int(row.integer(7) ?? 0))
    }

    // MARK: Throttle

    /// The latest time (ms) before which any of `keys` may not try again; 0 when none waits.
    public func throttledUntil(_ keys: [String]) throws(StateStoreError) -> Int64 {
        var until: Int64 = 0
        for key in keys {
            let next = try rows("SELECT next FROM throttle WHERE key = ?", [.text(key)]) {
                $0.integer(0) ?? 0
            }
            until = max(until, next.first ?? 0)
        }
        return until
    }

    /// Records a failed try of `key` at `now` (ms), its wait doubling up to `cap`.
    public func recordFailure(_ key: String, now: Int64, cap: Int64) throws(StateStoreError) {
        // One connection behind one lock: the read and the write below cannot interleave.
        try connection.withLock { (handle) throws(StateStoreError) in
            let old = try Self.rows(
                handle, "SELECT failures, next FROM throttle WHERE key = ?", [.text(key)], logger: logger
            ) { ($0.integer(0) ?? 0, $0.integer(1) ?? 0) }.first
            var failures = old?.0 ?? 0
            if failures > 0, let next = old?.1, now - next > cap * 4 { failures = 0 }
            failures += 1
            _ = try Self.run(
                handle, "INSERT OR REPLACE INTO throttle (key, failures, next) VALUES (?, ?, ?)",
                [
                    .text(key), .integer(failures),
                    .integer(now + throttleDelay(failures: failures, cap: cap)),
                ],
                logger: logger)
            // Keys long past their wait are forgotten now and then, so the table stays small.
            if failures == 1 {
                _ = try Self.run(
                    handle, "DELETE FROM throttle WHERE next < ?", [.integer(now - 3_600_000)], logger: logger
                )
            }
        }
    }

    /// Forgets the failures of `keys`.
    public func clearFailures(_ keys: [String]) throws(StateStoreError) {
        for key in keys { try run("DELETE FROM throttle WHERE key = ?", [.text(key)]) }
    }

    /// Every lock kept, lapsed ones included.
    public func locks() throws(StateStoreError) -> [StoredLock] {
        try connection.withLock { (handle) throws(StateStoreError) in try cachedLocks(handle) }
    }

    /// Changes the locks under the one connection's lock, in one transaction.
    public func changeLocks<Result: Sendable>(
        _ change: @escaping @Sendable ([StoredLock]) -> (Result, LockChange)
    ) throws(StateStoreError) -> Result {
        try connection.withLock { (handle) throws(StateStoreError) in
            let current = try cachedLocks(handle)
            let (result, changes) = change(current)
            guard !changes.put.isEmpty || !changes.remove.isEmpty else { return result }
            _ = try Self.run(handle, "BEGIN IMMEDIATE", [], logger: logger)
            do throws(StateStoreError) {
                for token in changes.remove {
                    _ = try Self.run(
                        handle, "DELETE FROM lock WHERE token = ?", [.text(token)], logger: logger)
                }
                for lock in changes.put {
                    _ = try Self.run(
                        handle,
                        "INSERT OR REPLACE INTO lock (token, root, deep, exclusive, owner, holder, seconds, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [
                            .text(lock.token), .text(lock.root), .integer(lock.deep ? 1 : 0),
                            .integer(lock.exclusive ? 1 : 0), .text(lock.owner), .text(lock.holder),
                            .integer(Int64(lock.seconds)), .integer(lock.expires),
                        ], logger: logger)
                }
                _ = try Self.run(handle, "COMMIT", [], logger: logger)
            } catch {
                _ = try? Self.run(handle, "ROLLBACK", [], logger: logger)
                throw error
            }
            let removed = Set(changes.remove).union(changes.put.map(\.token))
            lockCache.withLock { $0 = current.filter { !removed.contains($0.token) } + changes.put }
            return result
        }
    }

    /// The locks, from the cache once read; call with `connection` held.
    private func cachedLocks(_ handle: OpaquePointer) throws(StateStoreError) -> [StoredLock] {
        if let cached = lockCache.withLock({ $0 }) { return cached }
        let read = try Self.locks(handle, logger: logger)
        lockCache.withLock { $0 = read }
        return read
    }

    private static func locks(_ handle: OpaquePointer, logger: Logger) throws(StateStoreError) -> [StoredLock]
    {
        try rows(
            handle, "SELECT token, root, deep, exclusive, owner, holder, seconds, expires FROM lock", [],
            logger: logger
        ) { row in
            StoredLock(
                token: row.text(0) ?? "", root: row.text(1) ?? "", deep: row.integer(2) == 1,
                exclusive: row.integer(3) == 1, owner: row.text(4) ?? "", holder: row.text(5) ?? "",
                seconds: Int(row.integer(6) ?? 0), expires: row.integer(7) ?? 0)
        }
    }

    /// Nothing to publish: one process uses this file.
    public func publishChanges(_ paths: [String], origin: String) {}

    /// None: one process uses this file.
    public func changes(
        after sequence: Int64, excluding origin: String, limit: Int
    ) -> (paths: [String], last: Int64) {
        ([], max(sequence, 0))
    }

    /// Waits out `timeout`: no other instance publishes here.
    public func waitForChanges(upTo timeout: Duration) async { try? await Task.sleep(for: timeout) }

    /// `nil`: one server on one machine keeps its id in its own file.
    public func sharedServerID(proposed: String) -> String? { nil }

    // MARK: Statements

    enum Value {
        case text(String)
        case integer(Int64)
        case null
    }

    /// One row of a result, read by column.
    struct Row {
        let statement: OpaquePointer?

        func text(_ column: Int32) -> String? {
            sqlite3_column_type(statement, column) == SQLITE_NULL
                ? nil : String(cString: sqlite3_column_text(statement, column))
        }

        func integer(_ column: Int32) -> Int64? {
            sqlite3_column_type(statement, column) == SQLITE_NULL
                ? nil : sqlite3_column_int64(statement, column)
        }
    }

    /// Runs one statement; answers how many rows it changed.
    @discardableResult
    private func run(_ sql: String, _ values: [Value]) throws(StateStoreError) -> Int {
        try connection.withLock { (handle) throws(StateStoreError) in
            try Self.run(handle, sql, values, logger: logger)
        }
    }

    private func rows<T: Sendable>(
        _ sql: String, _ values: [Value], _ read: @Sendable (Row) -> T
    ) throws(StateStoreError) -> [T] {
        try connection.withLock { (handle) throws(StateStoreError) in
            try Self.rows(handle, sql, values, logger: logger, read)
        }
    }

    private static func run(
        _ handle: OpaquePointer, _ sql: String, _ values: [Value], logger: Logger
    ) throws(StateStoreError) -> Int {
        _ = try rows(handle, sql, values, logger: logger) { _ in () }
        return Int(sqlite3_changes(handle))
    }

    private static func rows<T>(
        _ handle: OpaquePointer, _ sql: String, _ values: [Value], logger: Logger, _ read: (Row) -> T
    ) throws(StateStoreError) -> [T] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw failure(handle, logger: logger)
        }
        defer { sqlite3_finalize(statement) }
        // SQLITE_TRANSIENT: SQLite copies the text before the call returns.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (index, value) in values.enumerated() {
            switch value {
            case .text(let text): sqlite3_bind_text(statement, Int32(index + 1), text, -1, transient)
            case .integer(let number): sqlite3_bind_int64(statement, Int32(index + 1), number)
            case .null: sqlite3_bind_null(statement, Int32(index + 1))
            }
        }
        var result: [T] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: result.append(read(Row(statement: statement)))
            case SQLITE_DONE: return result
            default: throw failure(handle, logger: logger)
            }
        }
    }

    private static func failure(_ handle: OpaquePointer, logger: Logger) -> StateStoreError {
        let message = String(cString: sqlite3_errmsg(handle))
        logger.error("The state database refused: \(message)")
        // A busy or locked file frees itself: worth asking again; anything else repeats.
        let code = sqlite3_errcode(handle) & 0xff
        return code == SQLITE_BUSY || code == SQLITE_LOCKED ? .unavailable(message) : .refused(message)
    }
}
