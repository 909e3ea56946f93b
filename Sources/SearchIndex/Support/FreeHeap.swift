import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Gives the allocator's free memory back to the system once a burst of work is over.
///
/// Building a catalog and its name order allocates and frees several megabytes at once. The
/// server keeps freed blocks of up to 32 MiB in the heap for reuse (downloads and listings
/// reuse them); what an index build freed would otherwise stay resident while the server
/// idles (measured: 2.3 MiB of a 29 MiB server over a 10,000-entry folder).
enum FreeHeap {
    /// When the heap was last trimmed: at most once every ``interval``, since a trim walks the
    /// whole heap and a folder that changes every few hundred milliseconds would ask for one each
    /// time its name order is rebuilt.
    private static let last = Mutex<ContinuousClock.Instant?>(nil)
    /// The shortest time between two trims.
    static let interval = Duration.seconds(10)

    /// Returns free heap pages to the system (glibc's `malloc_trim`; nothing elsewhere), unless
    /// that was done less than ``interval`` ago.
    static func release() {
        let now = ContinuousClock.now
        let due = last.withLock { last in
            guard last.map({ now - $0 >= interval }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        #if canImport(Glibc)
            // Swift's Glibc module leaves out <malloc.h>: the function is looked up by name.
            typealias MallocTrim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(nil, "malloc_trim") else { return }  // nil is RTLD_DEFAULT
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
