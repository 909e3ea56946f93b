import FileTree
import Synchronization

/// When a cache of the served tree may trust what it kept, for ``ListingCache`` and
/// ``ManifestRevisions``: only while the watcher runs on kernel events (otherwise the cache steps
/// aside and drops what it kept), and only what the watcher can prove it has handled everything
/// the kernel queued for (``DirectoryWatcher/isCaughtUp``, which never waits). A cache counts
/// the changes it is told of (its generation); a read is kept only when the watcher has caught
/// up again once it is done and nothing it depends on changed since the generation it started at.
final class WatcherGate: Sendable {
    private let watcher = Mutex<DirectoryWatcher?>(nil)

    /// Trusts nothing until ``attach(_:)``.
    init() {}

    /// The watcher whose immediate handler tells the cache of every change.
    func attach(_ watcher: DirectoryWatcher?) {
        self.watcher.withLock { $0 = watcher }
    }

    /// What the cache kept (`kept`), when it is certainly current, and the generation to keep a
    /// fresh read against (`nil`: nothing can be vouched for now). The generation is read before
    /// the watcher is asked: a change handled after it makes keeping refuse the read.
    func lookup<Value>(
        generation: () -> UInt64, kept: () -> Value?, forget: () -> Void
    ) -> (value: Value?, generation: UInt64?) {
        guard let watcher = eventWatcher(forget: forget) else { return (nil, nil) }
        let generation = generation()
        guard watcher.isCaughtUp else { return (nil, generation) }
        return (kept(), generation)
    }

    /// Whether a read that is done may be kept (the cache still checks that nothing it depends
    /// on changed since its generation).
    func mayKeep(forget: () -> Void) -> Bool {
        eventWatcher(forget: forget)?.isCaughtUp == true
    }

    /// The watcher, while it runs on kernel events; `nil` otherwise, and `forget` drops what the
    /// cache kept.
    private func eventWatcher(forget: () -> Void) -> DirectoryWatcher? {
        guard let watcher = watcher.withLock({ $0 }) else { return nil }
        guard watcher.mode == .events else {
            forget()
            return nil
        }
        return watcher
    }
}
