internal import CFileTreeSystem
import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The open file of a download, read in chunks: from the page cache where it holds them, else
/// from the disk. Its owner closes it when no read of it is under way; at the latest, it closes
/// when let go.
final class OpenFile: Sendable {
    let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Whether reads that never wait for the disk work here; cleared at the first refusal.
    private let cachedReads = Atomic<Bool>(true)

    /// Appends what the page cache holds of `count` bytes at `offset`, without waiting for the
    /// disk. Returns whether the read is complete (all bytes, or the end of the file).
    func appendCached(to buffer: inout ByteBuffer, at offset: Int, count: Int) throws -> Bool {
        guard cachedReads.load(ordering: .relaxed) else { return false }
        var complete = false
        var failure: Int32 = 0
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var total = 0
            while total < count {
                let result = cft_read_cached(
                    descriptor, base + total, UInt(count - total), Int64(offset + total))
                if result > 0 {
                    total += result
                    continue
                }
                if result == 0 {
                    complete = true  // end of the file
                } else if errno == EINTR {
                    continue
                } else if errno != EAGAIN {
                    if errno == ENOTSUP || errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL {
                        cachedReads.store(false, ordering: .relaxed)
                    } else {
                        failure = errno
                    }
                }
                break
            }
            if total == count { complete = true }
            return total
        }
        if failure != 0 { throw FileBodyError(number: failure) }
        return complete
    }

    /// Appends up to `count` bytes at `offset` (fewer at the end of the file), waiting for the
    /// disk if need be.
    func append(to buffer: inout ByteBuffer, at offset: Int, count: Int) throws {
        var failure: Int32 = 0
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var total = 0
            while total < count {
                let result = pread(descriptor, base + total, count - total, off_t(offset + total))
                if result < 0 && errno == EINTR { continue }
                if result < 0 { failure = errno }
                if result <= 0 { break }
                total += result
            }
            return total
        }
        if failure != 0 { throw FileBodyError(number: failure) }
    }

    /// Whether ``close()`` has closed the descriptor, or ``handOver()`` given it away.
    private let closed = Atomic<Bool>(false)

    /// Gives the descriptor to a new owner, which closes it: `nil` when it is closed already.
    func handOver() -> Int32? {
        closed.exchange(true, ordering: .acquiringAndReleasing) ? nil : descriptor
    }

    /// A file no one read to its end, nor handed over, is closed when it is let go: a response
    /// whose body never runs (the client went away before its head was written) keeps none open.
    deinit { close() }

    /// Closes the descriptor, the first time only: once closed, its number can be given to a file
    /// opened since, on any thread, which a second `close` would close instead.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}
