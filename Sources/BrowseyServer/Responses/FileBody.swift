internal import CFileTreeSystem
import Hummingbird
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A download's body. On a served connection the file is handed to the connection's
/// ``DownloadWriter``, which sends it by `sendfile` or copies it with at most two chunks in
/// flight. Where there is none (a router tested in process), it is streamed through Hummingbird's
/// writer here, reading the next chunk while the previous one is written (Hummingbird's own file
/// reader waits for each write before it reads again).
///
/// Each chunk is read where the response is written, as far as the page cache holds it
/// (`preadv2` with `RWF_NOWAIT`, which never waits for a disk); only what would wait goes to NIO's
/// blocking-I/O thread pool. The hop to a pool thread cost more CPU than copying a cached
/// megabyte (0.47 → 0.37 s of server CPU per GiB). Reads go into two buffers used in turn; a
/// buffer that NIO still holds is copied on write, never overwritten. Hummingbird's writer takes
/// chunks faster than a busy event loop writes them, so this stream holds more than two at once
/// under load: served connections never use it.
enum FileBody {
    /// Bytes read per chunk.
    static let chunkSize = DownloadWriter.chunkSize

    /// The body for `range` of the open file `descriptor`, which it takes over (and closes).
    ///
    /// With a `connection` whose pipeline has a ``DownloadWriter``, the file is handed to that
    /// connection's handler, which sends it by `sendfile` when `bySendfile`, else copies it in
    /// chunks; otherwise (in-process tests, or a connection already gone) it is read and written
    /// in chunks here.
    static func make(
        descriptor: Int32, range: ClosedRange<Int>, over connection: (any Channel)? = nil,
        bySendfile: Bool = false
    ) -> ResponseBody {
        // Owned here until handed over: closed when let go if the body never runs.
        let file = OpenFile(descriptor: descriptor)
        guard let connection else { return streamed(file, range: range) }
        let stream = streamed(file, range: range)
        return ResponseBody(contentLength: range.count) { writer in
            var marker = ByteBufferAllocator().buffer(capacity: 1)
            marker.writeInteger(UInt8(0))
            let handedOver = try? await connection.eventLoop.submit { [marker] () -> Bool in
                guard
                    let handler = try? connection.pipeline.syncOperations.handler(type: DownloadWriter.self),
                    let descriptor = file.handOver()
                else { return false }
                handler.expect(
                    DownloadWriter.Expected(
                        marker: marker, descriptor: descriptor, offset: range.lowerBound,
                        end: range.upperBound + 1, bySendfile: bySendfile))
                return true
            }.get()
            guard handedOver == true else {
                try await stream.write(writer)
                return
            }
            // From here the handler owns the descriptor: it sends it, or closes it with the
            // connection if the marker never reaches it.
            try await writer.write(marker)
            try await writer.finish(nil)
        }
    }

    /// The body read and written in chunks (see the type's comment).
    private static func streamed(_ file: OpenFile, range: ClosedRange<Int>) -> ResponseBody {
        ResponseBody(contentLength: range.count) { writer in
            let pool = NIOThreadPool.singleton
            let boxes = [ChunkBuffer(), ChunkBuffer()]
            var offset = range.lowerBound
            let end = range.upperBound + 1
            @Sendable func read(into box: ChunkBuffer, at offset: Int) async throws -> ByteBuffer {
                let count = min(chunkSize, end - offset)
                box.buffer.clear(minimumCapacity: count)
                // What the page cache holds is read right here (a thread hop costs more than the
                // copy); only a read that would wait for the disk goes to the blocking-I/O pool.
                if try file.appendCached(to: &box.buffer, at: offset, count: count) {
                    return box.buffer
                }
                return try await pool.runIfActive {
                    let done = box.buffer.readableBytes
                    try file.append(to: &box.buffer, at: offset + done, count: count - done)
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
