import FileTree
import Synchronization

/// How far the catalog that searches read has followed the watcher: the watcher the index
/// learns of changes from, and the count of its changes (``DirectoryWatcher/changesReported``)
/// that catalog holds. With the watcher's proof that it has handled everything the kernel
/// queued (``DirectoryWatcher/isCaughtUp``), this says whether the catalog holds everything done
/// to the tree until now (``isCurrent``).
final class AppliedChanges: Sendable {
    private struct State {
        var watcher: DirectoryWatcher?
        var applied: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The watcher the index follows, and the count its catalog holds so far (the count read
    /// before the tree was read).
    func follow(_ watcher: DirectoryWatcher, applied: UInt64) {
        state.withLock { $0 = State(watcher: watcher, applied: applied) }
    }

    /// The catalog just published holds the changes up to `sequence` (a batch's).
    func applied(through sequence: UInt64) {
        state.withLock { $0.applied = max($0.applied, sequence) }
    }

    /// Whether everything done to the tree before the call is in the catalog published last:
    /// the watcher runs on kernel events, has handled everything the kernel queued, and the
    /// catalog holds every change it reported. Never waits.
    var isCurrent: Bool {
        let (watcher, applied) = state.withLock { ($0.watcher, $0.applied) }
        guard let watcher, watcher.mode == .events, watcher.isCaughtUp else { return false }
        // Asked after `isCaughtUp`: the count then includes everything the kernel had queued.
        return applied >= watcher.changesReported
    }
}
