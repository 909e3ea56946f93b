internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A named POSIX thread that runs one closure and ends; nothing joins it.
///
/// The watcher blocks in `poll` for its whole life, which must not hold a thread of Swift's
/// cooperative pool or of Dispatch. Foundation's `Thread` would do, but it pulls in all of
/// Foundation (and ICU) for one call. The search index's content reader runs on one too, at a
/// lower priority.
package enum DetachedThread {
    private final class Box {
        let name: String
        let nice: Int32
        let body: () -> Void
        init(name: String, nice: Int32, body: @escaping () -> Void) {
            self.name = name
            self.nice = nice
            self.body = body
        }
    }

    /// Starts `body` on a new thread called `name`; returns false when the system refuses one.
    ///
    /// - Parameter nice: above 0, the thread's own nice value (Linux keeps one per thread): the
    ///   scheduler, and the I/O scheduler for its reads, put it behind the server's work.
    @discardableResult
    package static func start(name: String, nice: Int32 = 0, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(name: name, nice: nice, body: body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let started = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
                cft_set_thread_name(box.name)
                #if canImport(Glibc)
                    if box.nice > 0 {
                        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, box.nice)
                    }
                #endif
                box.body()
                return nil
            }, box)
        guard started == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        #if canImport(Darwin)
            if let thread { pthread_detach(thread) }
        #else
            pthread_detach(thread)
        #endif
        return true
    }
}
