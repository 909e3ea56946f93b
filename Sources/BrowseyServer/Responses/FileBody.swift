#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird
import NIOCore
import NIOPosix

/// Streams a range of a file into a response with bounded memory, reading the next chunk while
/// the previous one is being written: Hummingbird's own file reader waits for each write before
/// it reads again, and reaches about two thirds of nginx's speed here (see `perf-facts.md`).
///
/// Reads are `pread`s on NIO's blocking-I/O thread pool into two buffers used in turn, so a
/// download allocates its 2 × 1 MiB once instead of once per chunk (a fresh megabyte costs page
/// faults every time). A buffer that NIO still holds is copied on write, never overwritten.
enum FileBody {
    /// Bytes read per chunk; two chunks at most are held at once (one being written, one read).
    static let chunkSize = 1 << 20

    static func make(path: String, range: ClosedRange<Int>) throws -> ResponseBody {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileBodyError(number: errno) }
        let file = OpenFile(descriptor: descriptor)
        return ResponseBody(contentLength: range.count) { writer in
            let pool = NIOThreadPool.singleton
            let boxes = [ChunkBuffer(), ChunkBuffer()]
            var offset = range.lowerBound
            let end = range.upperBound + 1
            @Sendable func read(into box: ChunkBuffer, at offset: Int) async throws -> ByteBuffer {
                try await pool.runIfActive {
                    try file.read(into: &box.buffer, at: offset, count: min(chunkSize, end - offset))
                    return box.buffer
                }
            }
            var next = 0
            let start = offset
            var pending: Task<ByteBuffer, any Error>? = Task { try await read(into: boxes[0], at: start) }
            do {
                while let current = pending {
                    let chunk = try await current.value
                    pending = nil
                    guard chunk.readableBytes > 0 else { break }  // the file shrank: send what there is
                    offset += chunk.readableBytes
                    next ^= 1
                    if offset < end {
                        let box = boxes[next]
                        let at = offset
                        pending = Task { try await read(into: box, at: at) }
                    }
                    try await writer.write(chunk)
                }
            } catch {
                // A read still running uses the descriptor: let it end before closing.
                _ = try? await pending?.value
                file.close()
                throw error
            }
            file.close()
            try await writer.finish(nil)
        }
    }
}

/// One of the two buffers a download reads into in turn. Only one task touches it at a time
/// (the read that fills it, then the write that sends it), so its storage stays uniquely
/// referenced and is reused without a copy once NIO has sent it.
private final class ChunkBuffer: @unchecked Sendable {
    var buffer = ByteBuffer()
}

/// A file descriptor that closes once.
private final class OpenFile: Sendable {
    let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Reads up to `count` bytes at `offset` into `buffer`, replacing what it held.
    func read(into buffer: inout ByteBuffer, at offset: Int, count: Int) throws {
        buffer.clear(minimumCapacity: count)
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

    func close() {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}

/// A failed `open` or `pread`.
struct FileBodyError: Error {
    let number: Int32
}
