import FileTree
import Logging
import NIOCore
import Synchronization

/// Encoded listings, kept until the watcher says a folder changed: a repeated listing costs a
/// dictionary lookup instead of a `statx` per entry.
///
/// Never stale, and never waited for: every change invalidates at once (the watcher's immediate
/// handler, not its coalesced batches); a cached listing is served only when the watcher can
/// prove it has handled everything the kernel queued before the request
/// (``DirectoryWatcher/isCaughtUp``, which never waits and never reads events on the request's
/// thread), otherwise the listing is read from disk; and a listing is kept only when that proof
/// holds again once it is read and nothing changed in that folder meanwhile (a generation
/// counter, and the generation of each folder's last change, say so: changes elsewhere, such as
/// a steady stream of uploads, do not stop a large folder from being kept).
/// Where no proof is possible (no inotify, or the watch limit ran out) the cache steps aside and
/// every listing is read fresh.
final class ListingCache: Sendable {
    struct Key: Hashable {
        let folder: String
        let hidden: Bool
    }

    /// A listing's bytes and their validator (``BodyTag``), made once when it is read.
    struct Entry {
        let buffer: ByteBuffer
        let tag: String
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Counts changes.
        var generation: UInt64 = 0
        /// The generation of each folder's last change, as far back as ``floor``.
        var lastChange: [String: UInt64] = [:]
        /// Changes at or before this generation are not remembered by folder: a read that
        /// started before it is not kept.
        var floor: UInt64 = 0

        func changed(_ folder: String, since generation: UInt64) -> Bool {
            max(floor, lastChange[folder] ?? 0) > generation
        }
    }

    /// Above this many cached folders the cache starts over (a listing is cheap to rebuild).
    static let capacity = 1024
    /// Above this many remembered changed folders the memory starts over (``State/floor``).
    static let changesRemembered = 4096

    private let state = Mutex(State())
    private let gate = WatcherGate()

    /// An empty cache; it serves nothing until ``attach(_:)`` gives it the watcher whose
    /// immediate handler calls ``invalidate(_:everything:)``.
    init() {}

    /// The watcher that keeps the cache honest (shared with the search index).
    func attach(_ watcher: DirectoryWatcher?) {
        gate.attach(watcher)
    }

    /// The cached listing when there is one that is certainly current, and the generation to
    /// hand back to ``store(_:for:since:)`` (`nil`: the cache cannot vouch for anything now).
    func lookup(_ key: Key) -> (listing: Entry?, generation: UInt64?) {
        let (listing, generation) = gate.lookup(
            generation: { state.withLock { $0.generation } }, kept: { state.withLock { $0.entries[key] } },
            forget: forget)
        return (listing, generation)
    }

    /// Keeps a listing read since `generation`, unless something changed meanwhile (or may have:
    /// the watcher has not caught up).
    func store(_ buffer: ByteBuffer, tag: String, for key: Key, since generation: UInt64) {
        guard gate.mayKeep(forget: forget) else { return }
        state.withLock { state in
            guard !state.changed(key.folder, since: generation) else { return }
            if state.entries.count >= Self.capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = Entry(buffer: buffer, tag: tag)
        }
    }

    private func forget() {
        state.withLock { $0.entries.removeAll() }
    }

    /// A change at `path` touches its folder's listing, and its own when it is a folder.
    func invalidate(_ path: String, everything: Bool) {
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let parent = slash == path.startIndex ? "/" : String(path[..<slash])
        state.withLock { state in
            state.generation &+= 1
            if everything || state.lastChange.count >= Self.changesRemembered {
                state.floor = state.generation
                state.lastChange.removeAll(keepingCapacity: true)
            }
            if everything {
                state.entries.removeAll()
                return
            }
            for folder in [parent, path] {
                state.lastChange[folder] = state.generation
                for hidden in [false, true] {
                    state.entries[Key(folder: folder, hidden: hidden)] = nil
                }
            }
        }
    }
}
