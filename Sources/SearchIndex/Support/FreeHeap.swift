import Dispatch
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
    /// When the heap was last trimmed, and whether a trim is already set for the end of the
    /// current ``interval``: at most one trim every ``interval``, since a trim walks the whole
    /// heap and a folder that changes every few hundred milliseconds would ask for one each time
    /// its name order is rebuilt.
    private static let state = Mutex<(last: ContinuousClock.Instant?, trailing: Bool)>((nil, false))
    /// The shortest time between two trims.
    static let interval = Duration.seconds(10)

    /// Returns free heap pages to the system (glibc's `malloc_trim`; nothing elsewhere): at once,
    /// or, when the last trim was less than ``interval`` ago, once that interval is over. A burst
    /// that ends just after another one (the content index's first build ends a second or two
    /// after the name index's) is trimmed too, not left resident until some later burst.
    static func release() {
        let now = ContinuousClock.now
        let wait = state.withLock { state -> Duration? in
            if let last = state.last, now - last < interval {
                guard !state.trailing else { return nil }  // already set
                state.trailing = true
                return interval - (now - last)
            }
            state.last = now
            return .zero
        }
        guard let wait else { return }
        guard wait > .zero else { return trim() }
        let (seconds, attoseconds) = wait.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            state.withLock { state in
                state.last = ContinuousClock.now
                state.trailing = false
            }
            trim()
        }
    }

    private static func trim() {
        #if canImport(Glibc)
            // Swift's Glibc module leaves out <malloc.h>: the function is looked up by name.
            typealias MallocTrim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(nil, "malloc_trim") else { return }  // nil is RTLD_DEFAULT
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
