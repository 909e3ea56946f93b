import NIOCore
import NIOHTTP1

/// Keeps one connection from being held: the request head must arrive within the header
/// timeout, and the connection counts in the server's ``ConnectionRegistry`` (its caps, and
/// which connections are idle).
///
/// The clock for a head starts when the connection opens, and again at the first bytes of each
/// later request on it (a keep-alive connection waits quietly until then: Hummingbird's idle
/// timeout closes it after ``ServerConfiguration/idleTimeout``, and also one whose upload stops
/// sending). Once a head is in, this handler sets no more deadlines for that request: a long
/// download or an event stream is never cut.
///
/// It sits right after NIO's request decoder, where it sees whole request parts and also every
/// read (`channelReadComplete`), including one that brings only part of a head.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: ConnectionRegistry
    private let headerTimeout: TimeAmount
    private var registered = false
    /// Requests whose head arrived and whose response is not yet written.
    private var inProgress = 0
    private var headDeadline: Scheduled<Void>?

    init(registry: ConnectionRegistry, headerTimeout: TimeAmount) {
        self.registry = registry
        self.headerTimeout = headerTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(context)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            inProgress += 1
            headDeadline?.cancel()
            headDeadline = nil
            if inProgress == 1 { registry.setIdle(context.channel, false) }
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Bytes came in but no head is complete: a request has started, its head is now timed.
        if inProgress == 0 && headDeadline == nil { armHeadDeadline(context) }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), inProgress > 0 {
            inProgress -= 1
            if inProgress == 0 { registry.setIdle(context.channel, true) }
        }
        context.write(data, promise: promise)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !registered else { return }
        registered = true
        guard registry.admit(context.channel) else {
            context.close(promise: nil)
            return
        }
        armHeadDeadline(context)
    }

    private func finish(_ context: ChannelHandlerContext) {
        headDeadline?.cancel()
        headDeadline = nil
        if registered { registry.remove(context.channel) }
    }

    private func armHeadDeadline(_ context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        headDeadline = context.eventLoop.scheduleTask(in: headerTimeout) {
            let (handler, context) = loopBound.value
            handler.headDeadline = nil
            if handler.inProgress == 0 { context.close(promise: nil) }
        }
    }
}
