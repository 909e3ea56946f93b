import FileTree
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// The paths one write request changed, gathered as it resolves them for writing, so that the
/// change can be told to this server's own caches and to the other instances.
final class TouchedPaths: Sendable {
    private let paths = Mutex<[String]>([])

    /// Notes an absolute path the request is about to change (or add a name in).
    func add(_ path: String) { paths.withLock { if $0.count < 64 { $0.append(path) } } }

    /// Everything noted, once each.
    var all: [String] { paths.withLock { Array(Set($0)).sorted() } }
}

/// After each write that succeeded, tells what it changed: to this server's watcher at once
/// (so an instance with `--watch off` still sees its own writes) and to the other instances
/// through the state store's change feed.
struct ChangePublishing: RouterMiddleware {
    typealias Context = FileServerContext

    /// Where what a write touched goes.
    let feed: ChangeFeed

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method != .get, request.method != .head, request.method != .options,
            request.method.rawValue != "PROPFIND"
        else { return try await next(request, context) }
        let touched = TouchedPaths()
        var noting = context
        noting.touched = touched
        let response = try await next(request, noting)
        if response.status.code < 400 {
            let paths = touched.all
            if !paths.isEmpty { await feed.publish(paths) }
        }
        return response
    }
}

/// One instance's end of the change feed: what it changes goes out through the store, and what
/// the others change comes in to its watcher, as if its own watcher had seen it: the listing
/// cache, the indexes, thumbnails and the event streams follow (52 ms after the write at the
/// median, most of it the watcher's batching).
///
/// The feed is read by its sequence whenever the store says another instance published
/// (PostgreSQL's `LISTEN/NOTIFY`) and at least every ``interval``, so an instance that was away
/// (or whose database was) catches up from where it stopped.
final class ChangeFeed: Service {
    /// How often the feed is read.
    let interval: Duration
    /// This process's name in the feed: its own changes are not applied twice.
    let origin: String

    private let store: any StateStore
    private let root: String
    private let watcher: DirectoryWatcher?
    private let logger: Logger

    init(
        store: any StateStore, root: String, watcher: DirectoryWatcher?,
        interval: Duration = .seconds(1),
        logger: Logger
    ) {
        self.store = store
        self.root = root
        self.watcher = watcher
        self.interval = interval
        self.logger = logger
        origin = ServerIdentity.newUUID()
    }

    /// Tells this server's watcher and the other instances that `paths` (absolute) changed.
    func publish(_ paths: [String]) async {
        watcher?.report(paths)
        let relative = paths.compactMap(relativePath)
        do {
            try await store.publishChanges(relative, origin: origin)
        } catch {
            // The write is on the disk: the others' watchers (or a rescan) still see it.
            logger.warning("A change was not published to the other instances: \(error.message)")
        }
    }

    /// Reads the others' changes until the server stops.
    func run() async throws {
        try? await cancelWhenGracefulShutdown { try await self.follow() }
    }

    private func follow() async throws {
        var last: Int64 = -1
        var failing = false
        while !Task.isCancelled {
            do {
                let (paths, next) = try await store.changes(after: last, excluding: origin, limit: 1000)
                if !paths.isEmpty { watcher?.report(paths.map { Self.absolutePath($0, in: root) }) }
                // A full page (its own changes left out, so counted by sequence) is read on at once.
                let more = last >= 0 && next - last >= 1000
                last = next
                if failing { logger.info("The change feed is read again") }
                failing = false
                if more { continue }
            } catch {
                if !failing { logger.warning("The change feed cannot be read now: \(error.message)") }
                failing = true
            }
            if failing {
                try? await Task.sleep(for: interval)
            } else {
                // Woken by the store when another instance publishes; read anyway each interval.
                await store.waitForChanges(upTo: interval)
            }
        }
    }

    private func relativePath(_ path: String) -> String? {
        if path == root { return "/" }
        let prefix = root == "/" ? "/" : root + "/"
        return path.hasPrefix(prefix) ? "/" + path.dropFirst(prefix.count) : nil
    }

    /// `relative`, as another instance published it, below `root`: `.` and `..` are dropped, so
    /// nothing read from the database names a place outside the folder.
    static func absolutePath(_ relative: String, in root: String) -> String {
        let parts = relative.split(separator: "/").filter { $0 != "." && $0 != ".." }
        return parts.isEmpty ? root : (root == "/" ? "" : root) + "/" + parts.joined(separator: "/")
    }
}
