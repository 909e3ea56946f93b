import Hummingbird
import NIOCore
import NIOPosix

/// Streams a range of a file into a response with bounded memory, reading the next chunk while
/// the previous one is being written: Hummingbird's own file reader waits for each write before
/// it reads again, and reaches about two thirds of nginx's speed here (see `perf-facts.md`).
enum FileBody {
    /// Bytes read per chunk; two chunks at most are held at once (one being written, one read).
    static let chunkSize = 1 << 20

    static func make(path: String, range: ClosedRange<Int>) throws -> ResponseBody {
        let fileIO = NonBlockingFileIO(threadPool: .singleton)
        let handle = try NIOFileHandle(_deprecatedPath: path)
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        let allocator = ByteBufferAllocator()
        return ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            let end = range.upperBound + 1
            func read(at offset: Int) -> EventLoopFuture<ByteBuffer> {
                fileIO.read(
                    fileHandle: handle, fromOffset: Int64(offset), byteCount: min(chunkSize, end - offset),
                    allocator: allocator, eventLoop: eventLoop)
            }
            var pending: EventLoopFuture<ByteBuffer>? = read(at: offset)
            do {
                while let current = pending {
                    let chunk = try await current.get()
                    pending = nil
                    guard chunk.readableBytes > 0 else { break }  // the file shrank: send what there is
                    offset += chunk.readableBytes
                    if offset < end { pending = read(at: offset) }
                    try await writer.write(chunk)
                }
            } catch {
                // A read still in flight holds the handle: let it end before closing.
                if let pending { _ = try? await pending.get() }
                try? handle.close()
                throw error
            }
            try handle.close()
            try await writer.finish(nil)
        }
    }
}
