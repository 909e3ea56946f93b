import GRDBSQLite
import Logging
import Synchronization

/// Where sessions and share links outlive the process: an SQLite file through GRDB's SQLite
/// module (the C API; GRDB's Swift layer would bring all of Foundation into the server).
/// Sessions are keyed by each token's digest, never the token; a share's password only by its
/// hash.
final class AccountsDatabase: Sendable {
    private let connection: Mutex<OpaquePointer>
    private let logger = Logger(label: "browsey.accounts")

    /// A change SQLite refused.
    typealias Failure = AccountsStorageError

    /// Opens (or creates) the database at `path` and its table.
    init(path: String) throws(ServerSetupError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw ServerSetupError(
                .accounts, message: "The sessions database \(path) cannot be opened: \(message)")
        }
        sqlite3_busy_timeout(handle, 2_000)
        let schema = """
            PRAGMA journal_mode=WAL;
            CREATE TABLE IF NOT EXISTS session (
                key TEXT PRIMARY KEY NOT NULL, user TEXT NOT NULL, stamp TEXT NOT NULL,
                expires INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS share (
                id TEXT PRIMARY KEY NOT NULL, owner TEXT NOT NULL, path TEXT NOT NULL,
                upload INTEGER NOT NULL, password TEXT, expires INTEGER, created INTEGER NOT NULL,
                downloads INTEGER NOT NULL DEFAULT 0);
            """
        guard sqlite3_exec(handle, schema, nil, nil, nil) == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(handle))
            sqlite3_close(handle)
            throw ServerSetupError(
                .accounts, message: "The sessions database \(path) cannot be used: \(message)")
        }
        connection = Mutex(handle)
    }

    deinit { connection.withLock { _ = sqlite3_close_v2($0) } }

    /// Every share kept.
    func shares() -> [Share] {
        connection.withLock { handle in
            var shares: [Share] = []
            var statement: OpaquePointer?
            let sql = "SELECT id, owner, path, upload, password, expires, created, downloads FROM share"
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return [] }
            defer { sqlite3_finalize(statement) }
            while sqlite3_step(statement) == SQLITE_ROW {
                func text(_ column: Int32) -> String? {
                    sqlite3_column_type(statement, column) == SQLITE_NULL
                        ? nil : String(cString: sqlite3_column_text(statement, column))
                }
                func integer(_ column: Int32) -> Int64? {
                    sqlite3_column_type(statement, column) == SQLITE_NULL
                        ? nil : sqlite3_column_int64(statement, column)
                }
                guard let id = text(0), let owner = text(1), let path = text(2) else { continue }
                shares.append(
                    Share(
                        id: id, owner: owner, path: path, upload: integer(3) == 1,
                        password: text(4).flatMap(PasswordHash.init), expires: integer(5),
                        created: integer(6) ?? 0,
                        downloads: Int(integer(7) ?? 0)))
            }
            return shares
        }
    }

    /// Keeps a share (or its new download count).
    func save(_ share: Share) throws(Failure) {
        try connection.withLock { (handle) throws(Failure) in
            try run(
                handle,
                "INSERT OR REPLACE INTO share (id, owner, path, upload, password, expires, created, downloads) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(share.id), .text(share.owner), .text(share.path), .integer(share.upload ? 1 : 0),
                    share.password.map { .text($0.description) } ?? .null,
                    share.expires.map { .integer($0) } ?? .null,
                    .integer(share.created), .integer(Int64(share.downloads)),
                ])
        }
    }

    /// Forgets a share.
    func delete(share id: String) throws(Failure) {
        try connection.withLock { (handle) throws(Failure) in
            try run(handle, "DELETE FROM share WHERE id = ?", [.text(id)])
        }
    }

    /// The sessions that end after `now`; the others are deleted.
    func load(after now: Int64) throws(ServerSetupError) -> [String: SessionStore.Session] {
        connection.withLock { handle in
            // A refusal is logged; the ended sessions are skipped below either way.
            try? run(handle, "DELETE FROM session WHERE expires <= ?", [.integer(now)])
            var sessions: [String: SessionStore.Session] = [:]
            var statement: OpaquePointer?
            guard
                sqlite3_prepare_v2(
                    // `now` is a number: nothing to quote.
                    handle, "SELECT key, user, stamp, expires FROM session WHERE expires > \(now)", -1,
                    &statement, nil)
                    == SQLITE_OK
            else { return [:] }
            defer { sqlite3_finalize(statement) }
            while sqlite3_step(statement) == SQLITE_ROW {
                func text(_ column: Int32) -> String {
                    String(cString: sqlite3_column_text(statement, column))
                }
                sessions[text(0)] = SessionStore.Session(
                    user: text(1), stamp: text(2), expires: sqlite3_column_int64(statement, 3))
            }
            return sessions
        }
    }

    /// Keeps a session.
    func save(key: String, _ session: SessionStore.Session) throws(Failure) {
        try connection.withLock { (handle) throws(Failure) in
            try run(
                handle, "INSERT OR REPLACE INTO session (key, user, stamp, expires) VALUES (?, ?, ?, ?)",
                [.text(key), .text(session.user), .text(session.stamp), .integer(session.expires)])
        }
    }

    /// Forgets a session.
    func delete(key: String) throws(Failure) {
        try connection.withLock { (handle) throws(Failure) in
            try run(handle, "DELETE FROM session WHERE key = ?", [.text(key)])
        }
    }

    private enum Value {
        case text(String)
        case integer(Int64)
        case null
    }

    /// Runs one statement; a refusal is logged and thrown with SQLite's message.
    private func run(_ handle: OpaquePointer, _ sql: String, _ values: [Value]) throws(Failure) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw failure(handle)
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
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure(handle) }
    }

    private func failure(_ handle: OpaquePointer) -> Failure {
        let failure = Failure(message: String(cString: sqlite3_errmsg(handle)))
        logger.error("The sessions database refused a change: \(failure.message)")
        return failure
    }
}
