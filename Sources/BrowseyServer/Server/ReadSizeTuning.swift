import NIOCore

/// Lets a connection read up to 1 MiB at a time (NIO's default stops at 64 KiB), then leaves
/// the pipeline.
///
/// An upload's body reaches the route one read at a time, and each read costs a hand-off
/// between the event loop and the route's task: 16,384 of them for a gigabyte at 64 KiB. The
/// allocator still starts small and grows only while reads fill their buffer, so small requests
/// keep small buffers.
final class ReadSizeTuning: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    static let maximumRead = 1 << 20

    func handlerAdded(context: ChannelHandlerContext) {
        let allocator = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: Self.maximumRead)
        context.channel.setOption(ChannelOptions.recvAllocator, value: allocator).whenComplete { _ in }
        context.pipeline.syncOperations.removeHandler(self, promise: nil)
    }
}
