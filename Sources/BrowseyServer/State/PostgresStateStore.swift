import Logging
import NIOPosix
import Synchronization

/// The state of several servers over one folder, in one PostgreSQL database
/// (`--database postgresql://…`): a sign-in, a link, a throttled address at one instance holds
/// at every other.
///
/// Connections are opened on first use, up to ``connections`` at once, each on a thread of the
/// store's own (libpq blocks; see ``LibPQ``). A connection that breaks is dropped and the next
/// call opens a new one, so the store recovers by itself when the database comes back; until
/// then every call fails with ``StateStoreError/unavailable(_:)`` within the connect timeout.
///
/// The schema is versioned in `browsey_schema`; the steps run once, under an advisory lock, when
/// several instances start together. Every table is named `browsey_…`, so the database may hold
/// others.
public final class PostgresStateStore: StateStore {
    /// How many connections (and threads) the store holds at most.
    public let connections: Int
    /// The URL with its password hidden, for the banner and the log.
    public let displayURL: String

    private let conninfo: String
    private let pq: LibPQ
    private let threads: NIOThreadPool
    private let idle = Mutex<[Handle]>([])
    private let migrated = Mutex(false)
    /// The connection that `LISTEN`s for the change feed, and the one thread that waits on it.
    private let listen = Mutex<Handle?>(nil)
    private let listener: NIOThreadPool
    /// The statements each connection has prepared, by the connection's address: every query
    /// after the schema's runs prepared, parsed and planned once per connection.
    private let prepared = Mutex<[UInt: Set<String>]>([:])
    private let reached = Atomic<Bool>(true)

    /// Whether the last call reached PostgreSQL.
    public var lastCallReached: Bool { reached.load(ordering: .relaxed) }
    private let logger = Logger(label: "browsey.state")

    /// A `PGconn *`, used by one thread at a time.
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// The schema's steps, oldest first, each a list of single statements run in one transaction.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE browsey_session (
                key text PRIMARY KEY, "user" text NOT NULL, stamp text NOT NULL, expires bigint NOT NULL)
            """,
            """
            CREATE TABLE browsey_share (
                id text PRIMARY KEY, owner text NOT NULL, path text NOT NULL, upload boolean NOT NULL,
                password text, expires bigint, created bigint NOT NULL, downloads bigint NOT NULL DEFAULT 0)
            """,
            "CREATE TABLE browsey_throttle (key text PRIMARY KEY, failures bigint NOT NULL, next bigint NOT NULL)",
            "CREATE TABLE browsey_server (id integer PRIMARY KEY CHECK (id = 1), server_id text NOT NULL)",
        ],
        [
            """
            CREATE TABLE browsey_lock (
                token text PRIMARY KEY, root text NOT NULL, deep boolean NOT NULL, exclusive boolean NOT NULL,
                owner text NOT NULL, holder text NOT NULL, seconds integer NOT NULL, expires bigint NOT NULL)
            """
        ],
        [
            """
            CREATE TABLE browsey_change (
                sequence bigserial PRIMARY KEY, origin text NOT NULL, path text NOT NULL,
                at bigint NOT NULL DEFAULT (extract(epoch FROM now()) * 1000)::bigint)
            """
        ],
    ]

    /// The advisory lock a change to the WebDAV locks holds for its transaction.
    private static let locksLock = "7310425817"

    /// The advisory lock the migrations run under (any number no other program uses).
    private static let migrationLock = "7310425816"

    /// `postgresql`.
    public var kind: String { "postgresql" }

    /// A store on the database `url` names (`postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE`,
    /// with libpq's parameters such as `?sslmode=require`). Nothing connects until the first
    /// call; ``check()`` connects at once.
    public convenience init(url: String, connections: Int = 4) throws(ServerSetupError) {
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw ServerSetupError(
                .database,
                message:
                    "--database must be a postgresql:// URL, such as postgresql://browsey@127.0.0.1/browsey")
        }
        guard let library = LibPQ.shared else {
            throw ServerSetupError(
                .database,
                message: "PostgreSQL's client library (libpq.so.5) is not installed: install libpq5")
        }
        self.init(library: library, url: url, connections: connections)
    }

    /// A store on `url` through `library`, whose URL was checked.
    private init(library: LibPQ, url: String, connections: Int) {
        pq = library
        self.connections = max(1, connections)
        displayURL = Self.hidingPassword(url)
        conninfo = Self.withDefaults(url)
        threads = NIOThreadPool(numberOfThreads: max(1, connections))
        threads.start()
        listener = NIOThreadPool(numberOfThreads: 1)
        listener.start()
    }

    deinit {
        for handle in idle.withLock({ $0 }) { pq.finish(handle.pointer) }
        if let handle = listen.withLock({ $0 }) { pq.finish(handle.pointer) }
        threads.shutdownGracefully { _ in }
        listener.shutdownGracefully { _ in }
    }

    /// Connects now and brings the schema up to date: what `serve` asks before it listens.
    public func check() async throws(StateStoreError) {
        _ = try await run { _ in () }
    }

    /// Asks PostgreSQL for one row: whether it answers now.
    public func ping() async throws(StateStoreError) { _ = try await rows("SELECT 1", []) }

    // MARK: Sessions

    /// Keeps a session, replacing one of the same key.
    public func saveSession(_ session: StoredSession, key: String) async throws(StateStoreError) {
        try await execute(
            """
            INSERT INTO browsey_session (key, "user", stamp, expires) VALUES ($1, $2, $3, $4::bigint)
            ON CONFLICT (key) DO UPDATE SET "user" = $2, stamp = $3, expires = $4::bigint
            """, [key, session.user, session.stamp, String(session.expires)])
    }

    /// The session of `key`, ended or not.
    public func session(key: String) async throws(StateStoreError) -> StoredSession? {
        try await rows(#"SELECT "user", stamp, expires FROM browsey_session WHERE key = $1"#, [key]).first.map
        {
            StoredSession(user: $0[0] ?? "", stamp: $0[1] ?? "", expires: Int64($0[2] ?? "") ?? 0)
        }
    }

    /// Forgets a session.
    public func deleteSession(key: String) async throws(StateStoreError) {
        try await execute("DELETE FROM browsey_session WHERE key = $1", [key])
    }

    /// Forgets every session that ends at or before `time`.
    public func deleteSessions(endingBy time: Int64) async throws(StateStoreError) {
        try await execute("DELETE FROM browsey_session WHERE expires <= $1::bigint", [String(time)])
    }

    // MARK: Shares

    /// Keeps a new share.
    public func insertShare(_ share: Share) async throws(StateStoreError) {
        try await execute(
            """
            INSERT INTO browsey_share (id, owner, path, upload, password, expires, created, downloads)
            VALUES ($1, $2, $3, $4::boolean, $5, $6::bigint, $7::bigint, $8::bigint)
            """,
            [
                share.id, share.owner, share.path, share.upload ? "true" : "false",
                share.password?.description,
                share.expires.map(String.init), String(share.created), String(share.downloads),
            ])
    }

    /// The share of `id`, expired or not.
    public func share(id: String) async throws(StateStoreError) -> Share? {
        try await rows(Self.shareColumns + " WHERE id = $1", [id]).compactMap(Self.share).first
    }

    /// Every share, oldest first.
    public func shares() async throws(StateStoreError) -> [Share] {
        try await rows(Self.shareColumns + " ORDER BY created, id", []).compactMap(Self.share)
    }

    /// Forgets a share; whether there was one.
    @discardableResult
    public func deleteShare(id: String) async throws(StateStoreError) -> Bool {
        try await execute("DELETE FROM browsey_share WHERE id = $1", [id]) > 0
    }

    /// Counts one download of a share, in one statement wherever it is asked from.
    public func countDownload(share id: String) async throws(StateStoreError) {
        try await execute("UPDATE browsey_share SET downloads = downloads + 1 WHERE id = $1", [id])
    }

    private static let shareColumns =
        "SELECT id, owner, path, upload, password, expires, created, downloads FROM browsey_share"

    private static func share(_ row: [String?]) -> Share? {
        guard let id = row[0], let owner = row[1], let path = row[2] else { return nil }
        return Share(
            id: id, owner: owner, path: path, upload: row[3] == "t",
            password: row[4].flatMap(PasswordHash.init), expires: row[5].flatMap { Int64($0) },
            created: row[6].flatMap { Int64($0) } ?? 0, downloads: row[7].flatMap { Int($0) } ?? 0)
    }

    // MARK: Throttle

    /// The latest time (ms) before which any of `keys` may not try again; 0 when none waits.
    public func throttledUntil(_ keys: [String]) async throws(StateStoreError) -> Int64 {
        var until: Int64 = 0
        for key in keys {
            let next = try await rows("SELECT next FROM browsey_throttle WHERE key = $1", [key]).first?[0]
            until = max(until, next.flatMap { Int64($0) } ?? 0)
        }
        return until
    }

    /// Records a failed try of `key` at `now` (ms) in one statement, so that instances counting
    /// at once lose no failure: the count starts over when the last wait passed four caps ago.
    public func recordFailure(_ key: String, now: Int64, cap: Int64) async throws(StateStoreError) {
        try await execute(
            """
            INSERT INTO browsey_throttle AS t (key, failures, next) VALUES ($1, 1, $2::bigint + LEAST($3::bigint, 250))
            ON CONFLICT (key) DO UPDATE SET
                failures = CASE WHEN $2::bigint - t.next > $3::bigint * 4 THEN 1 ELSE t.failures + 1 END,
                next = $2::bigint + LEAST($3::bigint, 250::bigint << LEAST(
                    CASE WHEN $2::bigint - t.next > $3::bigint * 4 THEN 0 ELSE t.failures END, 20)::integer)
            """, [key, String(now), String(cap)])
        if Int.random(in: 0..<64) == 0 {
            // Now and then, keys long past their wait are forgotten, so the table stays small.
            try await execute(
                "DELETE FROM browsey_throttle WHERE next < $1::bigint", [String(now - 3_600_000)])
        }
    }

    /// Forgets the failures of `keys`.
    public func clearFailures(_ keys: [String]) async throws(StateStoreError) {
        for key in keys { try await execute("DELETE FROM browsey_throttle WHERE key = $1", [key]) }
    }

    // MARK: WebDAV locks

    /// Every lock kept, lapsed ones included.
    public func locks() async throws(StateStoreError) -> [StoredLock] {
        try await run { connection throws(StateStoreError) in try self.locks(connection) }
    }

    /// Changes the locks in one transaction under an advisory lock, so two instances granting
    /// locks at once see each other's.
    public func changeLocks<Result: Sendable>(
        _ change: @escaping @Sendable ([StoredLock]) -> (Result, LockChange)
    ) async throws(StateStoreError) -> Result {
        try await run { connection throws(StateStoreError) in
            _ = try self.query(connection, "BEGIN", [])
            do throws(StateStoreError) {
                _ = try self.query(connection, "SELECT pg_advisory_xact_lock(\(Self.locksLock))", [])
                // The owners cut short: a change keeps a stored lock's owner as it is (its upsert
                // sets only the timeout), and thousands of 4 KiB owners are not read each time.
                let (result, changes) = change(try self.locks(connection, ownerBytes: 256))
                for token in changes.remove {
                    _ = try self.query(connection, "DELETE FROM browsey_lock WHERE token = $1", [token])
                }
                for lock in changes.put {
                    _ = try self.query(
                        connection,
                        """
                        INSERT INTO browsey_lock (token, root, deep, exclusive, owner, holder, seconds, expires)
                        VALUES ($1, $2, $3::boolean, $4::boolean, $5, $6, $7::integer, $8::bigint)
                        ON CONFLICT (token) DO UPDATE SET seconds = $7::integer, expires = $8::bigint
                        """,
                        [
                            lock.token, lock.root, lock.deep ? "true" : "false",
                            lock.exclusive ? "true" : "false",
                            lock.owner, lock.holder, String(lock.seconds), String(lock.expires),
                        ])
                }
                _ = try self.query(connection, "COMMIT", [])
                return result
            } catch {
                _ = try? self.query(connection, "ROLLBACK", [])
                throw error
            }
        }
    }

    private func locks(_ connection: Handle, ownerBytes: Int = 4096) throws(StateStoreError) -> [StoredLock] {
        try query(
            connection,
            "SELECT token, root, deep, exclusive, left(owner, \(ownerBytes)), holder, seconds, expires FROM browsey_lock",
            []
        ).0.map { row in
            StoredLock(
                token: row[0] ?? "", root: row[1] ?? "", deep: row[2] == "t", exclusive: row[3] == "t",
                owner: row[4] ?? "", holder: row[5] ?? "", seconds: row[6].flatMap { Int($0) } ?? 0,
                expires: row[7].flatMap { Int64($0) } ?? 0)
        }
    }

    // MARK: The change feed

    /// Adds `paths` to the feed in one statement; now and then forgets what is over ten minutes
    /// old (an instance away longer catches up from what is left, and its own watcher).
    public func publishChanges(_ paths: [String], origin: String) async throws(StateStoreError) {
        guard !paths.isEmpty else { return }
        // One row a statement: a request touches a few paths, and no separator is safe in a name.
        for path in paths {
            try await execute("INSERT INTO browsey_change (origin, path) VALUES ($1, $2)", [origin, path])
        }
        // Wakes the other instances' readers at once (they read by sequence all the same).
        try await execute("SELECT pg_notify('browsey_change', '')", [])
        if Int.random(in: 0..<256) == 0 {
            try await execute(
                "DELETE FROM browsey_change WHERE at < (extract(epoch FROM now()) * 1000)::bigint - 600000",
                [])
        }
    }

    /// Returns at the next `NOTIFY browsey_change`, or after `timeout`: on a connection of its
    /// own that `LISTEN`s, on a thread of its own, so no pooled connection waits.
    public func waitForChanges(upTo timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        let cancelled = Atomic<Bool>(false)
        let result = try? await withTaskCancellationHandler {
            try await listener.runIfActive { [self] in
                wait(until: deadline, unless: cancelled)
            }
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
        }
        if result == nil || Task.isCancelled { return }
        if ContinuousClock.now < deadline, listen.withLock({ $0 == nil }) {
            // No listening connection (the database is away): wait as a reader that polls would.
            try? await Task.sleep(until: deadline)
        }
    }

    /// Waits on the listening connection until a notification, `deadline`, or `cancelled`, in
    /// slices of 100 ms so that a server stopping is not held up.
    private func wait(until deadline: ContinuousClock.Instant, unless cancelled: borrowing Atomic<Bool>) {
        guard let handle = listening() else { return }
        var descriptor = pollfd(fd: pq.socket(handle.pointer), events: Int16(POLLIN), revents: 0)
        while ContinuousClock.now < deadline, !cancelled.load(ordering: .relaxed) {
            if drainNotifications(handle) { return }
            guard poll(&descriptor, 1, 100) >= 0 else { return }
            guard pq.consumeInput(handle.pointer) == 1 else {
                // The connection broke: the next wait opens another.
                listen.withLock { $0 = nil }
                pq.finish(handle.pointer)
                return
            }
        }
    }

    /// The connection that listens, opened (and `LISTEN` sent) when there is none.
    private func listening() -> Handle? {
        if let handle = listen.withLock({ $0 }) { return handle }
        guard let pointer = pq.connectdb(conninfo) else { return nil }
        guard pq.status(pointer) == LibPQ.connectionOK else {
            pq.finish(pointer)
            return nil
        }
        let handle = Handle(pointer: pointer)
        guard (try? query(handle, "LISTEN browsey_change", [])) != nil else {
            pq.finish(pointer)
            return nil
        }
        listen.withLock { $0 = handle }
        return handle
    }

    /// Frees every notification libpq holds; whether there was one.
    private func drainNotifications(_ handle: Handle) -> Bool {
        var any = false
        while let notification = pq.notifies(handle.pointer) {
            pq.freemem(notification)
            any = true
        }
        return any
    }

    /// The other instances' changes after `sequence`, oldest first.
    public func changes(
        after sequence: Int64, excluding origin: String, limit: Int
    ) async throws(StateStoreError) -> (paths: [String], last: Int64) {
        if sequence < 0 {
            let latest = try await rows("SELECT coalesce(max(sequence), 0) FROM browsey_change", []).first?[0]
            return ([], latest.flatMap { Int64($0) } ?? 0)
        }
        let found = try await rows(
            """
            SELECT sequence, origin, path FROM browsey_change WHERE sequence > $1::bigint
            ORDER BY sequence LIMIT $2::integer
            """, [String(sequence), String(limit)])
        let last = found.last?[0].flatMap { Int64($0) } ?? sequence
        return (found.filter { $0[1] != origin }.compactMap { $0[2] }, last)
    }

    // MARK: Identity

    /// The id every instance on this database shares: the first to ask keeps `proposed`.
    public func sharedServerID(proposed: String) async throws(StateStoreError) -> String? {
        try await execute(
            "INSERT INTO browsey_server (id, server_id) VALUES (1, $1) ON CONFLICT (id) DO NOTHING",
            [proposed])
        return try await rows("SELECT server_id FROM browsey_server WHERE id = 1", []).first?[0] ?? proposed
    }

    // MARK: Statements

    /// Runs one statement; answers how many rows it changed.
    @discardableResult
    private func execute(_ sql: String, _ values: [String?]) async throws(StateStoreError) -> Int {
        let (_, changed) = try await run { connection throws(StateStoreError) in
            try self.query(connection, sql, values, prepared: true)
        }
        return changed
    }

    /// Runs one query; answers its rows, each value as PostgreSQL's text (`nil` for NULL).
    private func rows(_ sql: String, _ values: [String?]) async throws(StateStoreError) -> [[String?]] {
        try await run { connection throws(StateStoreError) in
            try self.query(connection, sql, values, prepared: true).0
        }
    }

    /// Runs `work` on one of the store's threads with a connection: an idle one, or a new one
    /// (the schema brought up to date on the first). A connection left broken is closed.
    private func run<T: Sendable>(
        _ work: @escaping @Sendable (Handle) throws(StateStoreError) -> T
    ) async throws(StateStoreError) -> T {
        do {
            let result = try await threads.runIfActive { () throws(StateStoreError) -> T in
                let connection = try self.connection()
                do throws(StateStoreError) {
                    let result = try work(connection)
                    self.idle.withLock { $0.append(connection) }
                    return result
                } catch {
                    if self.pq.status(connection.pointer) == LibPQ.connectionOK {
                        self.idle.withLock { $0.append(connection) }
                    } else {
                        self.close(connection)
                    }
                    throw error
                }
            }
            reached.store(true, ordering: .relaxed)
            return result
        } catch let error as StateStoreError {
            if error.isTransient { reached.store(false, ordering: .relaxed) }
            throw error
        } catch {
            throw .unavailable("The server is stopping")
        }
    }

    /// An idle connection, or a new one.
    private func connection() throws(StateStoreError) -> Handle {
        if let handle = idle.withLock({ $0.popLast() }) {
            if pq.status(handle.pointer) == LibPQ.connectionOK { return handle }
            close(handle)
        }
        guard let pointer = pq.connectdb(conninfo) else { throw .unavailable("No memory for a connection") }
        let handle = Handle(pointer: pointer)
        guard pq.status(pointer) == LibPQ.connectionOK else {
            let message = Self.text(pq.errorMessage(pointer))
            pq.finish(pointer)
            logger.warning("PostgreSQL at \(displayURL) cannot be reached: \(message)")
            throw .unavailable(message)
        }
        if !migrated.withLock({ $0 }) {
            do {
                try migrate(handle)
            } catch {
                // Closing the connection also lets go of the advisory lock.
                pq.finish(pointer)
                throw error
            }
            migrated.withLock { $0 = true }
        }
        return handle
    }

    /// Runs the steps this database has not run yet, under an advisory lock, so that instances
    /// starting together run each exactly once.
    private func migrate(_ handle: Handle) throws(StateStoreError) {
        _ = try query(handle, "SELECT pg_advisory_lock(\(Self.migrationLock))", [])
        _ = try query(handle, "CREATE TABLE IF NOT EXISTS browsey_schema (version integer NOT NULL)", [])
        let found = try query(handle, "SELECT version FROM browsey_schema", []).0.first?[0].flatMap {
            Int($0)
        }
        if found == nil { _ = try query(handle, "INSERT INTO browsey_schema (version) VALUES (0)", []) }
        let version = found ?? 0
        for (index, step) in Self.migrations.enumerated().dropFirst(version) {
            _ = try query(handle, "BEGIN", [])
            do {
                for statement in step { _ = try query(handle, statement, []) }
                _ = try query(handle, "UPDATE browsey_schema SET version = \(index + 1)", [])
                _ = try query(handle, "COMMIT", [])
            } catch {
                _ = try? query(handle, "ROLLBACK", [])
                throw error
            }
            logger.info("PostgreSQL schema brought to version \(index + 1)")
        }
        _ = try query(handle, "SELECT pg_advisory_unlock(\(Self.migrationLock))", [])
    }

    /// One statement on `handle`, its parameters as text: its rows and how many it changed.
    private func query(
        _ handle: Handle, _ sql: String, _ values: [String?], prepared: Bool = false
    ) throws(StateStoreError) -> ([[String?]], Int) {
        let copies = values.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let parameters = copies.map { UnsafePointer($0) }
        let name = prepared ? try prepare(sql, parameters: values.count, on: handle) : nil
        let result = parameters.withUnsafeBufferPointer { buffer in
            if let name {
                return pq.execPrepared(
                    handle.pointer, name, Int32(buffer.count), buffer.baseAddress, nil, nil, 0)
            }
            return pq.execParams(
                handle.pointer, sql, Int32(buffer.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        defer { pq.clear(result) }
        let status = pq.resultStatus(result)
        guard status == LibPQ.commandOK || status == LibPQ.tuplesOK else {
            let state = Self.text(pq.resultErrorField(result, LibPQ.sqlState))
            let message =
                result == nil
                ? Self.text(pq.errorMessage(handle.pointer)) : Self.text(pq.resultErrorMessage(result))
            let broken = pq.status(handle.pointer) != LibPQ.connectionOK
            // Lost connections (08), a server shutting down or starting (57P), no resources (53),
            // and a conflict between instances (40) pass; anything else would repeat.
            let transient = broken || ["08", "57", "53", "40"].contains(where: { state.hasPrefix($0) })
            logger.error("PostgreSQL refused (\(state)): \(message)")
            throw transient ? .unavailable(message) : .refused(message)
        }
        var rows: [[String?]] = []
        let count = pq.ntuples(result)
        if status == LibPQ.tuplesOK, count > 0 {
            let columns = pq.nfields(result)
            for row in 0..<count {
                rows.append(
                    (0..<columns).map { column in
                        pq.getisnull(result, row, column) == 1
                            ? nil : Self.text(pq.getvalue(result, row, column))
                    })
            }
        }
        return (rows, Int(Self.text(pq.cmdTuples(result))) ?? 0)
    }

    /// The name `sql` is prepared under on `handle`, preparing it the first time.
    private func prepare(_ sql: String, parameters: Int, on handle: Handle) throws(StateStoreError) -> String
    {
        let name = "browsey_" + StableHash.hex(sql)
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle.pointer)))
        if prepared.withLock({ $0[key]?.contains(name) == true }) { return name }
        let result = pq.prepare(handle.pointer, name, sql, Int32(parameters), nil)
        defer { pq.clear(result) }
        guard pq.resultStatus(result) == LibPQ.commandOK else {
            let message =
                result == nil
                ? Self.text(pq.errorMessage(handle.pointer)) : Self.text(pq.resultErrorMessage(result))
            let broken = pq.status(handle.pointer) != LibPQ.connectionOK
            throw broken ? .unavailable(message) : .refused(message)
        }
        prepared.withLock { $0[key, default: []].insert(name) }
        return name
    }

    /// Closes a connection, forgetting what it prepared (another may get its address).
    private func close(_ handle: Handle) {
        prepared.withLock {
            _ = $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle.pointer))))
        }
        pq.finish(handle.pointer)
    }

    private static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        pointer.map { String(cString: $0).trimmingTrailingNewlines() } ?? ""
    }

    /// `url` with libpq's timeouts added where it gives none, so that a database gone away is
    /// an answer within seconds, never a hang: 3 s to connect, 5 s for unacknowledged data; and
    /// notices kept out of the server's output.
    static func withDefaults(_ url: String) -> String {
        var url = url
        let defaults = [
            ("connect_timeout", "3"), ("tcp_user_timeout", "5000"), ("application_name", "browsey"),
            // PostgreSQL's notices ("already exists, skipping") would go to standard error.
            ("options", "-c%20client_min_messages%3Dwarning"),
        ]
        for (key, value) in defaults
        where !url.contains(key + "=") {
            url += (url.contains("?") ? "&" : "?") + key + "=" + value
        }
        return url
    }

    /// `url` with the password between `user:` and `@` replaced by `***`.
    static func hidingPassword(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://"), let at = url[scheme.upperBound...].lastIndex(of: "@")
        else {
            return url
        }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == " " { text = text.dropLast() }
        return String(text)
    }
}
