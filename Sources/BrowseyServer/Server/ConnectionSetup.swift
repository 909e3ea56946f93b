import NIOCore
import NIOHTTP1

/// Sets up each connection, then leaves its pipeline:
/// - reads of up to 1 MiB (NIO's default stops at 64 KiB). An upload's body reaches the route
///   one read at a time, each a hand-off between the event loop and the route's task: 16,384 of
///   them for a gigabyte at 64 KiB. The allocator still starts small and grows only while reads
///   fill their buffer, so small requests keep small buffers.
/// - with `installsDownloadWriter`, a ``DownloadWriter`` right after NIO's HTTP encoder, which
///   sends downloads (by `sendfile`, or copied with bounded memory).
/// - with a `registry`, a ``ConnectionGuard`` right after NIO's request decoder: the header
///   and idle timeouts and the connection caps.
final class ConnectionSetup: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    static let maximumRead = 1 << 20
    let installsDownloadWriter: Bool
    let registry: ConnectionRegistry?
    let headerTimeout: TimeAmount
    let idleTimeout: TimeAmount?

    init(
        installsDownloadWriter: Bool = false, registry: ConnectionRegistry? = nil,
        headerTimeout: TimeAmount = .seconds(10), idleTimeout: TimeAmount? = nil
    ) {
        self.installsDownloadWriter = installsDownloadWriter
        self.registry = registry
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let allocator = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: Self.maximumRead)
        context.channel.setOption(ChannelOptions.recvAllocator, value: allocator).whenComplete { _ in }
        if installsDownloadWriter,
            let encoder = try? context.pipeline.syncOperations.handler(type: HTTPResponseEncoder.self)
        {
            try? context.pipeline.syncOperations.addHandler(DownloadWriter(), position: .after(encoder))
        }
        if let registry,
            let decoder = try? context.pipeline.syncOperations.handler(
                type: ByteToMessageHandler<HTTPRequestDecoder>.self)
        {
            let guardHandler = ConnectionGuard(
                registry: registry, headerTimeout: headerTimeout, idleTimeout: idleTimeout)
            try? context.pipeline.syncOperations.addHandler(guardHandler, position: .after(decoder))
        }
        context.pipeline.syncOperations.removeHandler(self, promise: nil)
    }
}
