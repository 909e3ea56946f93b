import CTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` on a thread of its own that meets file permissions like an ordinary user, even
/// when the tests run as root: on Linux the thread drops `CAP_DAC_OVERRIDE` and
/// `CAP_DAC_READ_SEARCH` for itself only. As a non-root user it simply runs `body`.
///
/// - Returns: what `body` returned, or `nil` when permissions cannot be enforced here.
public func withOrdinaryFileAccess<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
    #if os(Linux)
        guard geteuid() == 0 else { return body() }
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            if cts_set_file_access_override(0) == 0 {
                box.value = body()
                _ = cts_set_file_access_override(1)
            }
            done.signal()
        }
        thread.start()
        done.wait()
        return box.value
    #else
        return geteuid() == 0 ? nil : body()
    #endif
}

/// Carries a value from the helper thread back; the semaphore orders the accesses.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    var value: T?
}
