import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps accepting, without spinning, when the process runs out of descriptors (`EMFILE`).
///
/// NIO's own `AcceptBackoffHandler` does not help there: when the first `accept` of a read
/// fails, the read stays pending, the listening socket stays registered, and epoll reports it
/// readable again at once; the backoff only delays *later* reads. Measured: an event loop at
/// 100% of a core, 19,000 failed `accept4` calls a second, and no new connection ever served.
///
/// So this handler, first in the listening channel's pipeline, holds a few spare descriptors
/// (`/dev/null`). When an accept fails for lack of descriptors it gives one back, which lets the
/// pending accept succeed (and end the pending read); the ``ConnectionRegistry`` is told
/// descriptors are short, so the newcomer takes the place of the connection idle the longest
/// (or is closed, when every connection is busy). The next read waits until a spare can be
/// taken again, retried every ``retryInterval``: while descriptors stay short, the listener
/// takes one connection per retry instead of spinning.
final class AcceptGuard: ChannelDuplexHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel
    typealias OutboundIn = Never

    static let spareCount = 4
    static let retryInterval: TimeAmount = .milliseconds(100)

    private let registry: ConnectionRegistry
    private var spares: [Int32] = []
    private var waitingRead: Scheduled<Void>?

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        refill()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        waitingRead?.cancel()
        for spare in spares { _ = systemClose(spare) }
        spares = []
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let failure = error as? IOError, failure.errnoCode == EMFILE || failure.errnoCode == ENFILE {
            registry.setShortOfDescriptors(true)
            if let spare = spares.popLast() { _ = systemClose(spare) }
        }
        context.fireErrorCaught(error)
    }

    func read(context: ChannelHandlerContext) {
        guard registry.isShortOfDescriptors else {
            context.read()
            return
        }
        refill()
        if spares.count == Self.spareCount {
            registry.setShortOfDescriptors(false)
        }
        if !spares.isEmpty {
            context.read()
            return
        }
        guard waitingRead == nil else { return }
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        waitingRead = context.eventLoop.scheduleTask(in: Self.retryInterval) {
            let (handler, context) = loopBound.value
            handler.waitingRead = nil
            handler.read(context: context)
        }
    }

    /// Takes spare descriptors back, as many as the system gives, up to ``spareCount``.
    private func refill() {
        while spares.count < Self.spareCount {
            let spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard spare >= 0 else { return }
            spares.append(spare)
        }
    }
}

/// `close(2)`, which the handler's own `close` methods would otherwise hide.
private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #else
        Darwin.close(descriptor)
    #endif
}
