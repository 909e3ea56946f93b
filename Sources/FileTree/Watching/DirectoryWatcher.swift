public import Logging
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Watches a folder (and, by default, everything below it) and reports what changed as an
/// `AsyncSequence` of coalesced batches.
///
/// ```swift
/// let watcher = try DirectoryWatcher(path: "/srv/files")
/// for await batch in watcher.changes {
///     for path in batch.paths { print("changed:", path) }
/// }
/// ```
///
/// On Linux it uses inotify, adding a watch to each new subfolder as it appears; on Apple
/// platforms a kqueue source per folder. When the kernel's watch limit runs out (or
/// ``Options/maximumWatches`` is reached) it logs one warning and falls back to rescanning the
/// tree every ``Options/pollingInterval``, reporting the differences the same way.
public final class DirectoryWatcher: Sendable {
    /// How the watcher behaves.
    public struct Options: Sendable {
        /// Where changes come from besides ``DirectoryWatcher/report(_:)``.
        public enum Source: Sendable, Hashable {
            /// Kernel events, falling back to rescans when they run out (the default).
            case events
            /// Rescans every ``pollingInterval`` only: for network filesystems, whose kernel
            /// events never tell of another host's writes.
            case rescans
            /// Nothing: only what ``DirectoryWatcher/report(_:)`` is told.
            case reportsOnly
        }

        /// Where changes come from.
        public var source: Source = .events
        /// Whether subfolders are watched too.
        public var recursive: Bool
        /// Changes closer together than this are delivered as one batch.
        public var coalescing: Duration
        /// How often the fallback rescans the tree.
        public var pollingInterval: Duration
        /// A cap on kernel watches (one per folder); past it the watcher falls back to polling.
        /// `nil` leaves only the kernel's own limit.
        public var maximumWatches: Int?
        /// Names left out of the reports and never watched (for example hidden names, which
        /// also hides the temporary files of atomic writes).
        public var filter: EntryFilter
        /// Called at once for every change, on the watcher's thread, before coalescing: for
        /// caches that must never serve a stale answer (with ``DirectoryWatcher/isCaughtUp``). The flag says the whole tree must be considered changed. Keep
        /// it short and never call back into the watcher from it.
        public var immediateHandler: (@Sendable (_ path: String, _ everything: Bool) -> Void)?

        /// Options; by default recursive, 100 ms coalescing, 2 s rescans, every name.
        public init(
            recursive: Bool = true, coalescing: Duration = .milliseconds(100),
            pollingInterval: Duration = .seconds(2), maximumWatches: Int? = nil, filter: EntryFilter = .all,
            immediateHandler: (@Sendable (_ path: String, _ everything: Bool) -> Void)? = nil
        ) {
            self.immediateHandler = immediateHandler
            self.recursive = recursive
            self.coalescing = coalescing
            self.pollingInterval = pollingInterval
            self.maximumWatches = maximumWatches
            self.filter = filter
        }
    }

    /// How a watcher currently learns about changes.
    public enum Mode: String, Sendable, Hashable {
        /// Kernel notifications (inotify, kqueue).
        case events
        /// Periodic rescans, after the kernel's watch limit ran out.
        case polling
    }

    /// The watched folder, absolute.
    public let root: String
    /// The batches of changes, until ``stop()``.
    public let changes: AsyncStream<DirectoryChanges>
    private let backend: WatcherBackend
    private let sink: ChangeSink

    /// Starts watching the folder at `path`.
    ///
    /// - Throws: ``FileTreeError`` when `path` is not a readable folder.
    public init(
        path: String, options: Options = Options(),
        logger: Logger = Logger(label: "FileTree.DirectoryWatcher")
    ) throws(FileTreeError) {
        let root = try DirectoryReader().read(at: path, depth: .levels(0)).entry.path
        self.root = root
        let (stream, continuation) = AsyncStream.makeStream(
            of: DirectoryChanges.self, bufferingPolicy: .bufferingNewest(16))
        changes = stream
        let sink = ChangeSink(continuation: continuation, coalescing: options.coalescing)
        self.sink = sink
        backend = try WatcherBackend(root: root, options: options, sink: sink, logger: logger)
        continuation.onTermination = { [backend] _ in backend.stop() }
        backend.start()
    }

    deinit { backend.stop() }

    /// Whether the watcher runs on kernel events or has fallen back to rescans.
    public var mode: Mode { backend.mode }

    /// Whether everything done to the tree before the call has already reached
    /// ``Options/immediateHandler``: the kernel holds no unread event and the watcher's thread
    /// is not in the middle of a batch. Never waits and never reads events itself (the watcher's
    /// thread does, a bounded batch at a time), so a request can ask it at any moment: when it
    /// says `false`, read from the disk instead of trusting a cache. Always `false` in polling
    /// mode and with kqueue, where no such proof exists.
    public var isCaughtUp: Bool { backend.isCaughtUp() }

    /// How many changes the watcher has reported so far: each path or rescan, counted as the
    /// watcher's thread handles it, and a batch lost to a slow consumer as one more. A batch
    /// carries the count it was delivered at (``DirectoryChanges/sequence``), so a consumer that
    /// has applied the batch of count `n` holds every change up to `n`; with ``isCaughtUp`` it can
    /// prove it holds everything done to the tree before the call.
    public var changesReported: UInt64 { sink.reported }

    /// Reports changes learned elsewhere (another server's writes, this server's own): they
    /// reach ``Options/immediateHandler`` at once, on the caller's thread, and ``changes`` in
    /// the next batch, as the watcher's own do. `paths` are absolute, inside ``root``.
    public func report(_ paths: [String]) {
        for path in paths { backend.report(path) }
        backend.wake()
    }

    /// Stops watching and ends ``changes``.
    public func stop() { backend.stop() }
}

/// Collects changed paths and hands them to the stream in batches; remembers when a batch was
/// dropped because the consumer was too slow, and asks for a rescan in the next.
final class ChangeSink: Sendable {
    private struct State {
        var pending: Set<String> = []
        var needsRescan = false
        var deadline: ContinuousClock.Instant?
        /// Changes reported so far, never reset.
        var reported: UInt64 = 0
    }

    private let continuation: AsyncStream<DirectoryChanges>.Continuation
    private let coalescing: Duration
    private let state = Mutex(State())

    init(continuation: AsyncStream<DirectoryChanges>.Continuation, coalescing: Duration) {
        self.continuation = continuation
        self.coalescing = coalescing
    }

    func add(_ path: String) { add([path], needsRescan: false) }

    func add(_ paths: some Sequence<String>, needsRescan: Bool) {
        state.withLock { state in
            for path in paths {
                state.pending.insert(path)
                state.reported &+= 1
            }
            if needsRescan { state.reported &+= 1 }
            state.needsRescan = state.needsRescan || needsRescan
            if state.deadline == nil && (!state.pending.isEmpty || state.needsRescan) {
                state.deadline = .now + coalescing
            }
        }
    }

    /// How long until the current batch is due; `nil` when nothing is pending.
    func timeUntilDue() -> Duration? {
        state.withLock { state in state.deadline.map { max(.zero, $0 - .now) } }
    }

    /// Delivers the batch when it is due.
    func flushIfDue() {
        let batch: DirectoryChanges? = state.withLock { state in
            guard let deadline = state.deadline, deadline <= .now else { return nil }
            let batch = DirectoryChanges(
                paths: state.pending.sorted(), needsRescan: state.needsRescan, sequence: state.reported)
            state = State(reported: state.reported)
            return batch
        }
        guard let batch else { return }
        if case .dropped = continuation.yield(batch) {
            // A batch was lost: it counts as a change of its own, so that no batch delivered
            // before the rescan that makes up for it carries a count that claims everything.
            // The rescan is due at once unless the batch just queued is one already (queued
            // behind everything lost): a reader that stays behind gets one rescan, not one each
            // coalescing interval.
            state.withLock { state in
                state.reported &+= 1
                guard !batch.needsRescan else { return }
                state.needsRescan = true
                if state.deadline == nil { state.deadline = .now + coalescing }
            }
        }
    }

    /// Changes reported so far.
    var reported: UInt64 { state.withLock { $0.reported } }

    func finish() { continuation.finish() }
}

extension Duration {
    /// The duration in milliseconds, rounded up, for `poll`.
    var pollMilliseconds: Int32 {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
