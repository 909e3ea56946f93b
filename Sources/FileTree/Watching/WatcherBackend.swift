import Logging
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

/// The thread behind a ``DirectoryWatcher``: kernel events while it can, rescans after.
final class WatcherBackend: Sendable {
    let root: String
    let options: DirectoryWatcher.Options
    let sink: ChangeSink
    let logger: Logger
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// A second pipe, never closed before the backend goes: ``wake()`` may write to it at any
    /// time, and the thread drains it.
    private let nudgeRead: Int32
    private let nudgeWrite: Int32
    private let stopped = Atomic<Bool>(false)
    private let polling = Atomic<Bool>(false)
    #if os(Linux)
        /// The inotify watches, held by the watcher's thread while it reads and handles a batch;
        /// ``isCaughtUp()`` only ever tries the lock.
        let inotify = Mutex<InotifyWatches?>(nil)
        /// The root held open: folders that appear are opened below it.
        let contained: ContainedRoot?
    #endif

    init(
        root: String, options: DirectoryWatcher.Options, sink: ChangeSink, logger: Logger
    ) throws(FileTreeError) {
        self.root = root
        self.options = options
        self.sink = sink
        self.logger = logger
        #if os(Linux)
            contained = try? ContainedRoot(path: root)
        #endif
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw FileTreeError(errno: errno, path: root, operation: "Starting a watcher")
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        _ = fcntl(wakeRead, F_SETFD, FD_CLOEXEC)
        _ = fcntl(wakeWrite, F_SETFD, FD_CLOEXEC)
        guard pipe(&fds) == 0 else {
            close(wakeRead)
            close(wakeWrite)
            throw FileTreeError(errno: errno, path: root, operation: "Starting a watcher")
        }
        nudgeRead = fds[0]
        nudgeWrite = fds[1]
        for descriptor in [nudgeRead, nudgeWrite] {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
    }

    deinit {
        close(nudgeRead)
        close(nudgeWrite)
    }

    /// Wakes the thread so that reports made from elsewhere are delivered when due.
    func wake() {
        var byte: UInt8 = 1
        _ = SystemCalls.write(nudgeWrite, &byte, 1)
    }

    var mode: DirectoryWatcher.Mode { polling.load(ordering: .relaxed) ? .polling : .events }

    /// Sets up the kernel watches (or the first snapshot) before returning, so that nothing
    /// done after the watcher's initializer is missed; then hands the waiting to a thread.
    func start() {
        guard options.source == .events else {
            if options.source == .rescans { polling.store(true, ordering: .relaxed) }
            let snapshot = options.source == .rescans ? TreeSnapshot(root: root, options: options) : nil
            let started = DetachedThread.start(name: "FileTree.Watch") { [self] in
                if let snapshot { self.poll(from: snapshot) } else { self.waitForReports() }
                close(self.wakeRead)
                self.sink.finish()
            }
            if !started {
                close(wakeRead)
                sink.finish()
            }
            return
        }
        let events = prepareEvents()
        #if os(Linux)
            inotify.withLock { $0 = events }  // before the thread: isCaughtUp() works from now on
        #endif
        let snapshot = events == nil ? TreeSnapshot(root: root, options: options) : nil
        let started = DetachedThread.start(name: "FileTree.Watch") { [self] in
            if let events, !self.watchEvents(events) {
                self.poll(from: TreeSnapshot(root: self.root, options: self.options))
            } else if let snapshot {
                self.poll(from: snapshot)
            }
            close(self.wakeRead)
            self.sink.finish()
        }
        if !started {
            close(wakeRead)
            sink.finish()
        }
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        var byte: UInt8 = 1
        _ = SystemCalls.write(wakeWrite, &byte, 1)
        close(wakeWrite)
    }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Whether every event the kernel has queued so far has been handled; never waits (see
    /// ``DirectoryWatcher/isCaughtUp``).
    func isCaughtUp() -> Bool {
        #if os(Linux)
            return inotifyQueueIsHandled()
        #else
            return false
        #endif
    }

    /// Waits until `descriptor` is readable, the watcher is stopped, or `timeout` passes.
    /// Returns whether `descriptor` is readable.
    func wait(for descriptor: Int32?, timeout: Duration?) -> Bool {
        var fds = [
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            pollfd(fd: nudgeRead, events: Int16(POLLIN), revents: 0),
        ]
        if let descriptor { fds.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        #if canImport(Glibc)
            let result = Glibc.poll(&fds, nfds_t(fds.count), timeout?.pollMilliseconds ?? -1)
        #elseif canImport(Musl)
            let result = Musl.poll(&fds, nfds_t(fds.count), timeout?.pollMilliseconds ?? -1)
        #else
            let result = Darwin.poll(&fds, nfds_t(fds.count), timeout?.pollMilliseconds ?? -1)
        #endif
        if result > 0, fds[1].revents & Int16(POLLIN) != 0 {
            var drained = [UInt8](repeating: 0, count: 64)
            while SystemCalls.read(nudgeRead, &drained, drained.count) > 0 {}
        }
        guard result > 0, descriptor != nil else { return false }
        return fds[2].revents & Int16(POLLIN) != 0
    }

    /// Reports one changed path: to the immediate handler now, to the stream coalesced.
    func report(_ path: String) {
        sink.add(path)
        options.immediateHandler?(path, false)
    }

    /// Reports that anything may have changed (an overflow, a switch to rescans).
    func reportEverything() {
        sink.add([root], needsRescan: true)
        options.immediateHandler?(root, true)
    }

    /// Logs the one warning and switches to rescans.
    func fallBackToPolling(reason: String) {
        polling.store(true, ordering: .relaxed)
        logger.warning(
            "Watching \(root) by rescans every \(options.pollingInterval): \(reason)",
            metadata: ["hint": "raise fs.inotify.max_user_watches to watch every folder"])
    }

    /// Delivers what ``DirectoryWatcher/report(_:)`` is told, and nothing else, until stopped.
    func waitForReports() {
        while !isStopped {
            _ = wait(for: nil, timeout: sink.timeUntilDue())
            if isStopped { break }
            sink.flushIfDue()
        }
    }

    /// Rescans the tree every polling interval and reports the differences.
    func poll(from first: TreeSnapshot) {
        var previous = first
        var nextScan = ContinuousClock.now + options.pollingInterval
        while !isStopped {
            let untilScan = max(.zero, nextScan - .now)
            let timeout = min(untilScan, sink.timeUntilDue() ?? untilScan)
            _ = wait(for: nil, timeout: timeout)
            if isStopped { break }
            if ContinuousClock.now >= nextScan {
                let current = TreeSnapshot(root: root, options: options)
                for path in current.differences(from: previous) { report(path) }
                previous = current
                nextScan = .now + options.pollingInterval
            }
            sink.flushIfDue()
        }
    }
}

/// What a rescan compares: each path's type, size, modification time and inode.
struct TreeSnapshot {
    struct Signature: Equatable {
        let type: EntryType
        let size: Int64
        let modified: Timestamp?
        let inode: UInt64
    }

    private(set) var entries: [String: Signature] = [:]

    init(root: String, options: DirectoryWatcher.Options) {
        let reader = DirectoryReader(filter: options.filter)
        var entries: [String: Signature] = [:]
        _ = try? reader.walk(at: root, depth: options.recursive ? .deep : .shallow) { entry, _ in
            entries[entry.path] = Signature(
                type: entry.type, size: entry.size, modified: entry.status?.modified,
                inode: entry.status?.inode ?? 0)
            return .continue
        }
        self.entries = entries
    }

    /// Paths added, removed or changed since `old`.
    func differences(from old: TreeSnapshot) -> [String] {
        var changed: [String] = []
        for (path, signature) in entries where old.entries[path] != signature { changed.append(path) }
        for path in old.entries.keys where entries[path] == nil { changed.append(path) }
        return changed
    }
}
