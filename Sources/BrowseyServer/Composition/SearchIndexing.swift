import SearchIndex
import ServiceLifecycle

/// The search index and its change feed, as a service: the index is built (from the last run's
/// file, then reconciled with the disk) when the server starts and kept current by the watcher
/// until the server shuts down. Event streams of the feed end with it.
struct SearchIndexing: Service {
    let index: NameIndex

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await index.run()
        }
        // An index that ended early (a folder that cannot be watched) must not end the server.
        try? await gracefulShutdown()
    }
}
