import FileTree
import Synchronization

/// The sync manifest's revision of each folder asked for, kept while the watcher says nothing
/// under it changed: a client whose revision still holds is answered `unchanged` without a walk.
///
/// Kept honest the way ``ListingCache`` is: every change the watcher's immediate handler hears
/// of drops the revisions of the folders it lies under at once; a kept revision is believed only
/// while the watcher can prove it has handled everything the kernel queued
/// (``DirectoryWatcher/isCaughtUp``), otherwise the tree is walked; and a revision is kept only
/// when nothing under its folder changed while it was walked (the recent changes, by
/// generation, say so). A manifest that lists links depends on their targets, which may lie
/// anywhere in the tree: it is dropped at any change at all.
final class ManifestRevisions: Sendable {
    private struct Kept {
        let revision: String
        /// Whether any change anywhere drops it (it lists links).
        let dependsOnEverything: Bool
    }

    private struct State {
        var kept: [String: Kept] = [:]
        /// Counts changes.
        var generation: UInt64 = 0
        /// The latest changes, oldest first, with the generation each was counted at.
        var recent: [(generation: UInt64, path: String)] = []
        /// Changes at or before this generation are no longer in ``recent``: a walk that started
        /// before it is not kept.
        var floor: UInt64 = 0

        func changed(under folder: String, since generation: UInt64, everywhere: Bool) -> Bool {
            if floor > generation { return true }
            for change in recent.reversed() {
                if change.generation <= generation { break }
                if everywhere || ManifestRevisions.lies(change.path, under: folder) { return true }
            }
            return false
        }
    }

    /// Above this many kept folders the memory starts over (a revision is one walk away).
    static let capacity = 256
    /// How many changes are remembered for walks in progress.
    static let changesRemembered = 4096

    private let state = Mutex(State())
    private let gate = WatcherGate()

    /// Keeps nothing until ``attach(_:)`` gives it the watcher whose immediate handler calls
    /// ``invalidate(_:everything:)``.
    init() {}

    /// The watcher that keeps the revisions honest (shared with the listing cache and the index).
    func attach(_ watcher: DirectoryWatcher?) {
        gate.attach(watcher)
    }

    /// The kept revision of `folder` (an absolute path, as the watcher names it) when it is
    /// certainly current, and the generation to hand back to ``keep(_:for:since:dependsOnEverything:)``
    /// (`nil`: nothing can be vouched for now).
    func lookup(_ folder: String) -> (revision: String?, generation: UInt64?) {
        let (revision, generation) = gate.lookup(
            generation: { state.withLock { $0.generation } },
            kept: { state.withLock { $0.kept[folder]?.revision } },
            forget: forget)
        return (revision, generation)
    }

    /// Keeps a revision walked since `generation`, unless something under the folder changed
    /// meanwhile (or may have: the watcher has not caught up).
    func keep(_ revision: String, for folder: String, since generation: UInt64, dependsOnEverything: Bool) {
        guard gate.mayKeep(forget: forget) else { return }
        state.withLock { state in
            guard !state.changed(under: folder, since: generation, everywhere: dependsOnEverything) else {
                return
            }
            if state.kept.count >= Self.capacity { state.kept.removeAll(keepingCapacity: true) }
            state.kept[folder] = Kept(revision: revision, dependsOnEverything: dependsOnEverything)
        }
    }

    /// A change at `path` (absolute) drops the revision of every folder it lies in; `everything`
    /// (the watcher lost track) drops them all.
    func invalidate(_ path: String, everything: Bool) {
        state.withLock { state in
            state.generation &+= 1
            if everything {
                state.floor = state.generation
                state.recent.removeAll(keepingCapacity: true)
                state.kept.removeAll()
                return
            }
            if state.recent.count >= Self.changesRemembered {
                state.floor = state.recent[state.recent.count / 2].generation
                state.recent.removeFirst(state.recent.count / 2 + 1)
            }
            state.recent.append((state.generation, path))
            guard !state.kept.isEmpty else { return }
            state.kept = state.kept.filter { folder, kept in
                !kept.dependsOnEverything && !Self.lies(path, under: folder)
            }
        }
    }

    /// Whether a change at `path` touches the manifest of `folder`: it is the folder itself
    /// (its own date is not listed, but a folder replaced is) or lies anywhere below it.
    static func lies(_ path: String, under folder: String) -> Bool {
        folder == "/" || path == folder
            || (path.hasPrefix(folder) && path.utf8.dropFirst(folder.utf8.count).first == UInt8(ascii: "/"))
    }

    private func forget() {
        state.withLock { $0.kept.removeAll() }
    }
}
