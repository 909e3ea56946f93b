import FileTree
import Logging
import ServiceLifecycle

/// The one watcher of the served folder, as a service: it watches from the moment it is
/// composed (so nothing done before the server runs is missed), feeds the listing cache at once
/// and the search index in batches, and stops when the server shuts down.
struct FolderWatching: Service {
    let watcher: DirectoryWatcher

    func run() async throws {
        // Until the server stops; a cancelled service stops as well.
        try? await gracefulShutdown()
        watcher.stop()
    }
}
