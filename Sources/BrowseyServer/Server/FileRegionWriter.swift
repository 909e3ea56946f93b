import NIOCore
import NIOHTTP1
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Downloads by `sendfile`, below Hummingbird: its response writer takes only `ByteBuffer`s, so a
/// download would copy every byte twice (page cache → buffer → socket), where `sendfile` copies
/// none in the server.
///
/// The route registers the open file and writes a one-byte *marker* buffer as the body; the
/// ``FileRegionWriter`` handler, which sits right after NIO's HTTP encoder, recognizes the marker
/// by the identity of its storage (never by its content) and sends a `FileRegion` of the file in
/// its place. A marker that never reaches the handler (the connection closed first) is closed
/// by the route, or at the latest swept after five minutes.
enum FileRegionRegistry {
    struct Pending: Sendable {
        let descriptor: Int32
        let offset: Int
        let end: Int
        let marker: ByteBuffer
        let registered: ContinuousClock.Instant
    }

    private static let pending = Mutex<[Int: Pending]>([:])

    /// Registers an open file's range; returns the marker to write as the body.
    static func register(descriptor: Int32, range: ClosedRange<Int>) -> ByteBuffer {
        var marker = ByteBufferAllocator().buffer(capacity: 1)
        marker.writeInteger(UInt8(0))
        let now = ContinuousClock.now
        let stale = pending.withLock { table -> [Int32] in
            let old = table.filter { now - $0.value.registered > .seconds(300) }
            for key in old.keys { table[key] = nil }
            table[key(of: marker)] = Pending(
                descriptor: descriptor, offset: range.lowerBound, end: range.upperBound + 1, marker: marker,
                registered: now)
            return old.values.map(\.descriptor)
        }
        for descriptor in stale { close(descriptor) }
        return marker
    }

    /// The file a marker stands for, taken out of the registry (once).
    static func take(_ buffer: ByteBuffer) -> Pending? {
        guard buffer.readableBytes == 1 else { return nil }
        return pending.withLock { $0.removeValue(forKey: key(of: buffer)) }
    }

    /// Closes a marker's file if no handler took it.
    static func discard(_ marker: ByteBuffer) {
        if let left = take(marker) { close(left.descriptor) }
    }

    private static func key(of buffer: ByteBuffer) -> Int {
        buffer.withVeryUnsafeBytes { Int(bitPattern: $0.baseAddress) }
    }
}

/// Replaces a registered marker body with the file it stands for, sent by `sendfile`.
final class FileRegionWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .body(.byteBuffer(let buffer)) = unwrapOutboundIn(data),
            let file = FileRegionRegistry.take(buffer)
        {
            let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: file.descriptor)
            let region = FileRegion(fileHandle: handle, readerIndex: file.offset, endIndex: file.end)
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in try? handle.close() }
            written.futureResult.cascade(to: promise)
            context.write(wrapOutboundOut(.body(.fileRegion(region))), promise: written)
            return
        }
        context.write(data, promise: promise)
    }
}
