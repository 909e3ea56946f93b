#if canImport(Darwin)
    import Darwin

    extension WatcherBackend {
        /// Opens a kqueue with one vnode event per folder. kqueue says only that a folder changed,
        /// so the folder's path is reported and its new subfolders watched. `nil` when the watcher
        /// must poll.
        func prepareEvents() -> KqueueFolders? {
            let queue = kqueue()
            guard queue >= 0 else {
                fallBackToPolling(reason: "kqueue is not available (errno \(errno))")
                return nil
            }
            var folders = KqueueFolders(queue: queue, limit: options.maximumWatches)
            guard addTree(root, to: &folders) else {
                fallBackToPolling(reason: "the limit of \(folders.count) watched folders was reached")
                folders.closeAll()
                close(queue)
                return nil
            }
            return folders
        }

        /// Waits for kqueue events until stopped (`true`), or until the descriptor limit runs out.
        func watchEvents(_ prepared: KqueueFolders) -> Bool {
            var folders = prepared
            let queue = folders.queue
            defer {
                folders.closeAll()
                close(queue)
            }
            while !isStopped {
                let readable = wait(for: queue, timeout: sink.timeUntilDue())
                if isStopped { break }
                if readable {
                    var events = [kevent](repeating: kevent(), count: 64)
                    var zero = timespec(tv_sec: 0, tv_nsec: 0)
                    let count = kevent(queue, nil, 0, &events, Int32(events.count), &zero)
                    for event in events.prefix(max(0, Int(count))) {
                        guard let path = folders.path(of: Int32(event.ident)) else { continue }
                        report(path)
                        if event.fflags & UInt32(NOTE_DELETE | NOTE_RENAME) != 0 {
                            folders.remove(Int32(event.ident))
                        } else if options.recursive && !addTree(path, to: &folders) {
                            fallBackToPolling(
                                reason: "the limit of \(folders.count) watched folders was reached")
                            reportEverything()
                            return false
                        }
                    }
                }
                sink.flushIfDue()
            }
            return true
        }

        private func addTree(_ path: String, to folders: inout KqueueFolders) -> Bool {
            guard folders.add(path) else { return false }
            guard options.recursive else { return true }
            var withinLimit = true
            var filter = options.filter
            filter.foldersOnly = true
            let reader = DirectoryReader(filter: filter)
            _ = try? reader.walk(at: path, depth: .shallow) { entry, _ in
                if entry.type == .directory && !folders.isWatching(entry.path) {
                    report(entry.path)
                    if !addTree(entry.path, to: &folders) {
                        withinLimit = false
                        return .stop
                    }
                }
                return .continue
            }
            return withinLimit
        }
    }

    /// The folders a kqueue watches, one open descriptor each.
    struct KqueueFolders {
        let queue: Int32
        let limit: Int?
        private var paths: [Int32: String] = [:]
        private var descriptors: [String: Int32] = [:]

        init(queue: Int32, limit: Int?) {
            self.queue = queue
            self.limit = limit
        }

        var count: Int { paths.count }

        func path(of descriptor: Int32) -> String? { paths[descriptor] }

        func isWatching(_ path: String) -> Bool { descriptors[path] != nil }

        mutating func add(_ path: String) -> Bool {
            if descriptors[path] != nil { return true }
            if let limit, paths.count >= limit { return false }
            let descriptor = open(path, O_EVTONLY | O_CLOEXEC)
            if descriptor < 0 { return errno != EMFILE && errno != ENFILE }
            var change = kevent(
                ident: UInt(descriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                fflags: UInt32(NOTE_WRITE | NOTE_DELETE | NOTE_RENAME | NOTE_EXTEND | NOTE_ATTRIB), data: 0,
                udata: nil)
            guard kevent(queue, &change, 1, nil, 0, nil) == 0 else {
                close(descriptor)
                return true
            }
            paths[descriptor] = path
            descriptors[path] = descriptor
            return true
        }

        mutating func remove(_ descriptor: Int32) {
            guard let path = paths.removeValue(forKey: descriptor) else { return }
            descriptors[path] = nil
            close(descriptor)
        }

        mutating func closeAll() {
            for descriptor in paths.keys { close(descriptor) }
            paths = [:]
            descriptors = [:]
        }
    }
#endif
