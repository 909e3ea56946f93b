#if os(Linux)
    import Glibc

    extension WatcherBackend {
        private static let eventMask: UInt32 =
            UInt32(
                IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB)
            | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK)

        /// Opens inotify and watches the tree; `nil` (after the one warning) when that is not
        /// possible and the watcher must poll.
        func prepareEvents() -> InotifyWatches? {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else {
                fallBackToPolling(reason: "inotify is not available (errno \(errno))")
                return nil
            }
            var watches = InotifyWatches(
                descriptor: descriptor, mask: Self.eventMask, limit: options.maximumWatches)
            guard addTree(root, to: &watches, reportingContents: false) else {
                fallBackToPolling(reason: "the limit of \(watches.count) watched folders was reached")
                close(descriptor)
                return nil
            }
            return watches
        }

        /// Waits for inotify events until stopped (`true`), or until the watch limit runs out
        /// (`false`: the caller falls back to polling).
        func watchEvents(_ prepared: InotifyWatches) -> Bool {
            let descriptor = prepared.descriptor
            inotify.withLock { $0 = prepared }
            defer {
                inotify.withLock { $0 = nil }
                close(descriptor)
            }
            var pace = EventPace()
            while !isStopped {
                let readable = wait(for: descriptor, timeout: sink.timeUntilDue())
                if isStopped { break }
                var bytes = 0
                if readable, let handled = handleBatch() {
                    guard handled.withinLimit else {
                        fallBackToPolling(reason: "the limit of watched folders was reached")
                        reportEverything()
                        return false
                    }
                    bytes = handled.bytes
                }
                sink.flushIfDue()
                // In a storm, let the kernel gather what comes next: a file being written sends
                // an event per write, which the queue merges while nobody reads it. Up to 100
                // wake-ups a second instead of one per write (a 1 GiB upload cost this thread 9%
                // of the server's CPU). Meanwhile `isCaughtUp` says no, and listings are read
                // from disk, so the pause is only taken in a storm: a few changes a second (a
                // server taking uploads and new folders under load) are read at once and the
                // listing cache keeps serving.
                if pace.isStorm(after: bytes) { _ = wait(for: nil, timeout: .milliseconds(10)) }
            }
            return true
        }

        /// How fast events arrive: a storm is more than ``stormBytes`` of them in
        /// ``window``.
        struct EventPace {
            /// About 200 events (an event is 16 bytes and its name).
            static let stormBytes = 8 * 1024
            static let window = Duration.milliseconds(100)
            private var start = ContinuousClock.now
            private var bytes = 0

            mutating func isStorm(after read: Int) -> Bool {
                let now = ContinuousClock.now
                if now - start > Self.window {
                    start = now
                    bytes = 0
                }
                bytes += read
                return bytes > Self.stormBytes
            }
        }

        /// The most one batch reads: one `read` of the kernel's queue. A batch holds the lock
        /// that ``inotifyQueueIsHandled()`` tries, so it is kept short; a queue longer than this
        /// is read over the next wake-ups (and one that overflows meanwhile says so with
        /// `IN_Q_OVERFLOW`, which reports everything as changed).
        static let batchBytes = 64 * 1024

        /// Reads and handles one batch of the kernel's queue, on the watcher's thread: how many
        /// bytes of events it read, and `withinLimit: false` when the watch limit ran out; `nil`
        /// when the watcher is not on inotify (any more).
        func handleBatch() -> (bytes: Int, withinLimit: Bool)? {
            inotify.withLock { state -> (bytes: Int, withinLimit: Bool)? in
                guard var watches = state else { return nil }
                defer { state = watches }
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.batchBytes, alignment: 8)
                defer { buffer.deallocate() }
                let count = read(watches.descriptor, buffer, Self.batchBytes)
                if count <= 0 { return (0, true) }
                let within = handleEvents(
                    UnsafeRawBufferPointer(start: buffer, count: count), watches: &watches)
                return (count, within)
            }
        }

        /// Whether the kernel's queue is empty and no batch is being handled: then every event
        /// queued before the call has reached the immediate handler (the kernel queues a
        /// change's event before the system call that made it returns). Only tries the lock:
        /// `false` while the watcher's thread holds it.
        func inotifyQueueIsHandled() -> Bool {
            let handled = inotify.withLockIfAvailable { state -> Bool in
                guard let watches = state else { return false }
                var unread: Int32 = 0
                return ioctl(watches.descriptor, UInt(FIONREAD), &unread) == 0 && unread == 0
            }
            return handled ?? false
        }

        /// Handles one read's worth of events; `false` when the watch limit ran out.
        private func handleEvents(_ bytes: UnsafeRawBufferPointer, watches: inout InotifyWatches) -> Bool {
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= bytes.count {
                let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = UnsafeRawBufferPointer(
                    rebasing: bytes[(offset + headerSize)..<min(bytes.count, offset + headerSize + length)])
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += headerSize + length

                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    reportEverything()
                    continue
                }
                if mask & UInt32(IN_IGNORED) != 0 {
                    watches.forget(wd)
                    continue
                }
                guard let folder = watches.path(of: wd) else { continue }
                if name.isEmpty {
                    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 { report(folder) }
                    continue
                }
                if !options.filter.includes(name: name) { continue }
                let path = PathText.join(folder, name)
                report(path)
                guard mask & UInt32(IN_ISDIR) != 0, options.recursive else { continue }
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    if !addTree(path, to: &watches, reportingContents: true) { return false }
                } else if mask & UInt32(IN_MOVED_FROM) != 0 {
                    watches.removeTree(at: path)
                }
            }
            return true
        }

        /// The folder at `path` opened below the watched root, its last name not followed if a
        /// link: a folder swapped for a link since its event came (to `/`, say) is not walked,
        /// and the walk goes from descriptor to descriptor, so it never leaves the tree. `nil`
        /// when it is gone, is not a folder, or leads out.
        private func openBelowRoot(_ path: String) -> OpenFolder? {
            if path == root { return try? OpenFolder(path: root) }
            guard let contained,
                let relative = root == "/"
                    ? path : path.hasPrefix(root + "/") ? String(path.dropFirst(root.count)) : nil,
                let descriptor = try? contained.open(
                    relative, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            else { return nil }
            return OpenFolder(adopting: descriptor, path: path)
        }

        /// Watches `path` and, when recursive, every folder below it; reports what is inside when
        /// the folder is new (its contents may predate the watch). `false` when the limit ran out.
        private func addTree(
            _ path: String, to watches: inout InotifyWatches, reportingContents: Bool
        ) -> Bool {
            guard watches.add(path) else { return false }
            guard options.recursive, let folder = openBelowRoot(path) else { return true }
            var withinLimit = true
            // A tree watched from the start needs only its folders; a new folder's contents are
            // reported too, since they may predate the watch.
            var filter = options.filter
            filter.foldersOnly = !reportingContents
            let reader = DirectoryReader(filter: filter)
            _ = try? reader.walk(in: folder) { entry, _ in
                if reportingContents { report(entry.path) }
                if entry.type == .directory && !watches.add(entry.path) {
                    withinLimit = false
                    return .stop
                }
                return .continue
            }
            return withinLimit
        }
    }

    /// The folders inotify watches, by watch descriptor and by path.
    struct InotifyWatches {
        let descriptor: Int32
        let mask: UInt32
        let limit: Int?
        private var paths: [Int32: String] = [:]
        private var descriptors: [String: Int32] = [:]

        init(descriptor: Int32, mask: UInt32, limit: Int?) {
            self.descriptor = descriptor
            self.mask = mask
            self.limit = limit
        }

        var count: Int { paths.count }

        func path(of wd: Int32) -> String? { paths[wd] }

        /// Adds a watch; `false` only when the limit (ours or the kernel's) is reached. A folder that
        /// vanished or cannot be read is skipped.
        mutating func add(_ path: String) -> Bool {
            if let limit, paths.count >= limit, descriptors[path] == nil { return false }
            var wd = inotify_add_watch(descriptor, path, mask)
            // A folder whose name is not UTF-8 is named here with U+FFFD: watched by its bytes.
            if wd < 0, errno == ENOENT, let bytes = SystemNames.cPath(spelling: path) {
                wd = inotify_add_watch(descriptor, bytes, mask)
            }
            if wd < 0 { return errno != ENOSPC && errno != ENOMEM }
            if let old = paths[wd], old != path { descriptors[old] = nil }
            paths[wd] = path
            descriptors[path] = wd
            return true
        }

        mutating func forget(_ wd: Int32) {
            if let path = paths.removeValue(forKey: wd) { descriptors[path] = nil }
        }

        /// Stops watching `path` and everything below it (it moved away).
        mutating func removeTree(at path: String) {
            let prefix = path + "/"
            for (folder, wd) in descriptors where folder == path || folder.hasPrefix(prefix) {
                inotify_rm_watch(descriptor, wd)
                forget(wd)
            }
        }
    }
#endif
