import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends downloads below Hummingbird, from the connection's own event loop: by `sendfile`, or
/// copied in chunks with at most two in flight.
///
/// Hummingbird's response writer takes only `ByteBuffer`s, so a download through it cannot go by
/// `sendfile`; and a body streamed through it is not held back by the socket closely enough: its
/// writer hands chunks to the event loop faster than a busy loop writes them, and eight fast
/// downloads held 189 MB of chunks at once (measured with glibc's `malloc_stats`). Here a chunk
/// is read only when one of the two before it has been taken by the socket, so a download holds
/// 2 MiB at most, and its buffers are reused.
///
/// One handler a connection, right after NIO's HTTP encoder (so under TLS, what it writes is
/// encrypted as any body is), holding that connection's files and nothing else. A download hands
/// the handler its open file on the connection's event loop (``expect(_:)``, reached through
/// ``FileBody``), then writes a one-byte *marker* buffer as the body; the handler recognizes the
/// marker by the identity of its storage (never by its content, which a file could forge) and
/// sends the file in its place. What is written after the marker (the response's end, the next
/// response) waits until the file is sent. A file handed over and never sent (the connection
/// closed first) is closed with the connection.
final class DownloadWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// An open file's range, waiting for the body write that carries `marker`.
    struct Expected {
        let marker: ByteBuffer
        let descriptor: Int32
        let offset: Int
        let end: Int
        /// Whether it goes by `sendfile` (a `FileRegion`), else copied in chunks.
        let bySendfile: Bool
    }

    /// What the handler tells the handlers behind it (``ConnectionGuard``), as an inbound user
    /// event: a file's sending began or ended. The response's end passes them as soon as it is
    /// written, while the file is still on its way: without this, a download slower than the
    /// idle timeout was cut as a quiet connection.
    enum Sending: Sendable {
        case began
        case ended
    }

    /// Bytes read per chunk of a copied file.
    static let chunkSize = 1 << 20
    /// Chunks of a copied file written and not yet taken by the socket, at most.
    static let chunksInFlight = 2
    /// How often a file sent by `sendfile` is checked for having been cut short.
    static let shrinkCheck = TimeAmount.milliseconds(250)

    /// Files handed over and not yet sent: one at a time in practice (HTTP/1.1 answers in turn).
    private var expected: [Expected] = []
    /// The file being copied, if one is.
    private var copy: Copy?
    /// Writes that came after the copied file's marker, in order: sent once the file is.
    private var held: [(data: NIOAny, promise: EventLoopPromise<Void>?)] = []
    /// Whether a flush came while the file was being copied.
    private var heldFlush = false
    /// Whether the handler has left the pipeline (its connection is gone).
    private var removed = false

    /// A file being copied: where it stands, and its buffers.
    private final class Copy {
        let file: OpenFile
        var offset: Int
        var end: Int
        /// The marker's promise: fulfilled when the whole file is written.
        let promise: EventLoopPromise<Void>?
        /// Buffers whose chunk the socket has taken, for the next chunks.
        var spare: [ByteBuffer] = []
        var inFlight = 0
        /// Whether a read from the disk is under way on the blocking-I/O pool.
        var reading = false
        /// Why the copy stopped early, if it did.
        var failure: (any Error)?
        /// Whether the file turned out shorter than announced: the connection is closed after
        /// what there is, since the response's length is wrong.
        var cutShort = false
        /// Whether the connection went away: the file is closed when no read uses it.
        var abandoned = false

        init(file: OpenFile, offset: Int, end: Int, promise: EventLoopPromise<Void>?) {
            self.file = file
            self.offset = offset
            self.end = end
            self.promise = promise
        }
    }

    /// Takes over `file`'s descriptor: sent when its marker is written, else closed with the
    /// connection. Call on the connection's event loop.
    func expect(_ file: Expected) {
        expected.append(file)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if copy != nil {
            held.append((data, promise))
            return
        }
        if !expected.isEmpty, case .body(.byteBuffer(let buffer)) = unwrapOutboundIn(data),
            buffer.readableBytes == 1,
            let index = expected.firstIndex(where: { Self.sharesStorage($0.marker, buffer) })
        {
            let file = expected.remove(at: index)
            context.fireUserInboundEventTriggered(Sending.began)
            if file.bySendfile {
                send(file, context: context, promise: promise)
            } else {
                copy = Copy(
                    file: OpenFile(descriptor: file.descriptor), offset: file.offset, end: file.end,
                    promise: promise)
                pump(context: context)
            }
            return
        }
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        if copy != nil {
            heldFlush = true
            return
        }
        context.flush()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
        for file in expected { OpenFile(descriptor: file.descriptor).close() }
        expected = []
        if let copy {
            copy.abandoned = true
            if !copy.reading { copy.file.close() }
            self.copy = nil
        }
        held = []
    }

    /// Sends `file` as a `FileRegion`, the socket corked meanwhile.
    ///
    /// A file cut shorter than the region while it is sent would never finish: `sendfile` finds
    /// its end, sends nothing, and NIO tries again at once, a core spent for nothing and the
    /// client kept waiting. So every ``shrinkCheck`` the file's size is looked at, and a file
    /// that no longer reaches the region's end closes the connection (the response announced
    /// more than there is).
    private func send(_ file: Expected, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: file.descriptor)
        let region = FileRegion(fileHandle: handle, readerIndex: file.offset, endIndex: file.end)
        let written = context.eventLoop.makePromise(of: Void.self)
        let channel = context.channel
        let corked = Self.cork(channel, true)
        let descriptor = file.descriptor
        let end = file.end
        // Runs on the connection's event loop, as the closing of the file does: never after it.
        let watch = context.eventLoop.scheduleRepeatedTask(
            initialDelay: Self.shrinkCheck, delay: Self.shrinkCheck
        ) {
            task in
            var status = stat()
            if fstat(descriptor, &status) != 0 || Int(status.st_size) < end {
                task.cancel()
                channel.close(promise: nil)
            }
        }
        written.futureResult.assumeIsolated().whenComplete { _ in
            watch.cancel()
            try? handle.close()
            if corked { _ = Self.cork(channel, false) }
            if !self.removed { context.fireUserInboundEventTriggered(Sending.ended) }
        }
        written.futureResult.cascade(to: promise)
        context.write(wrapOutboundOut(.body(.fileRegion(region))), promise: written)
    }

    /// Reads and writes the next chunks of the file being copied, while fewer than
    /// ``chunksInFlight`` are in flight; finishes the copy when all are written. What the page
    /// cache holds is read right here (a hop to another thread costs more than copying a cached
    /// megabyte); only a read that would wait for the disk goes to NIO's blocking-I/O pool.
    ///
    /// A write's promise can be fulfilled inside the write (the socket took it all at once), so
    /// this runs again inside itself: the copy may be finished, and another begun, by the time a
    /// write returns. Each step checks that its copy is still the one under way.
    private func pump(context: ChannelHandlerContext) {
        guard let copy else { return }
        while self.copy === copy, copy.failure == nil, !copy.cutShort, !copy.reading,
            copy.inFlight < Self.chunksInFlight, copy.offset < copy.end
        {
            var buffer = copy.spare.popLast() ?? context.channel.allocator.buffer(capacity: Self.chunkSize)
            buffer.clear()
            let offset = copy.offset
            let count = min(Self.chunkSize, copy.end - offset)
            let cached: Bool
            do {
                cached = try copy.file.appendCached(to: &buffer, at: offset, count: count)
            } catch {
                copy.failure = error
                break
            }
            if cached {
                write(buffer, of: copy, context: context)
                continue
            }
            copy.reading = true
            let file = copy.file
            let read = NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop) {
                [buffer] () throws -> ByteBuffer in
                var buffer = buffer
                let done = buffer.readableBytes
                try file.append(to: &buffer, at: offset + done, count: count - done)
                return buffer
            }
            read.assumeIsolated().whenComplete { result in
                copy.reading = false
                if copy.abandoned {
                    copy.file.close()
                    return
                }
                guard self.copy === copy else { return }
                switch result {
                case .success(let buffer): self.write(buffer, of: copy, context: context)
                case .failure(let error): copy.failure = error
                }
                self.pump(context: context)
            }
            return
        }
        if self.copy === copy, copy.inFlight == 0, !copy.reading,
            copy.failure != nil || copy.cutShort || copy.offset >= copy.end
        {
            finish(copy, context: context)
        }
    }

    /// Writes one chunk of the copy; its buffer is kept for a later chunk once the socket has it.
    private func write(_ buffer: ByteBuffer, of copy: Copy, context: ChannelHandlerContext) {
        guard buffer.readableBytes > 0 else {
            copy.cutShort = true  // the file shrank: what there was is sent
            return
        }
        copy.offset += buffer.readableBytes
        copy.inFlight += 1
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { result in
            copy.inFlight -= 1
            if case .failure(let error) = result, copy.failure == nil { copy.failure = error }
            guard !copy.abandoned, self.copy === copy else { return }
            copy.spare.append(buffer)
            self.pump(context: context)
        }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: written)
    }

    /// Ends a copy: closes its file, answers the marker's promise, then sends what was held.
    private func finish(_ finished: Copy, context: ChannelHandlerContext) {
        guard copy === finished else { return }  // finished already, by a step run inside this one
        copy = nil
        finished.file.close()
        context.fireUserInboundEventTriggered(Sending.ended)
        if let failure = finished.failure {
            finished.promise?.fail(failure)
        } else {
            finished.promise?.succeed(())
        }
        if finished.cutShort || finished.failure != nil {
            // The response announced more than was sent: the connection cannot carry another.
            for (_, promise) in held { promise?.fail(ChannelError.ioOnClosedChannel) }
            held = []
            heldFlush = false
            context.close(promise: nil)
            return
        }
        // In order: a held write may be another download's marker, which holds the rest again.
        let waiting = held
        held = []
        for (data, promise) in waiting { write(context: context, data: data, promise: promise) }
        if heldFlush {
            heldFlush = false
            flush(context: context)
        }
    }

    /// Corks or uncorks the connection's socket (Linux's `TCP_CORK`, what nginx's `tcp_nopush`
    /// sets): while corked, the kernel sends only full segments, so `sendfile` hands the network
    /// stack a region in the largest pieces it takes instead of a packet per page run it splices.
    /// Uncorking sends what is left at once. Measured on the 1 GiB download over loopback: nginx
    /// reaches 1,900 MiB/s with it and 1,370 without, the rate Browsey had without it. Returns
    /// whether the option took (elsewhere than Linux, or on a socket that refuses it: false).
    private static func cork(_ channel: any Channel, _ on: Bool) -> Bool {
        #if os(Linux)
            let option = ChannelOptions.Types.SocketOption(
                level: SocketOptionLevel(IPPROTO_TCP), name: SocketOptionName(TCP_CORK))
            guard let options = channel.syncOptions else { return false }
            return (try? options.setOption(option, value: on ? 1 : 0)) != nil
        #else
            return false
        #endif
    }

    /// Whether two buffers are views of one storage: the marker is held in ``expected`` until it
    /// is written, so its storage cannot be freed and reused by another buffer meanwhile.
    private static func sharesStorage(_ first: ByteBuffer, _ second: ByteBuffer) -> Bool {
        first.withVeryUnsafeBytes { a in second.withVeryUnsafeBytes { b in a.baseAddress == b.baseAddress } }
    }
}
