import NIOCore
import NIOHTTP1

/// Keeps one connection from being held: the request head must arrive within the header
/// timeout, a quiet connection is closed after the idle timeout, and the connection counts in
/// the server's ``ConnectionRegistry`` (its caps, and which connections are idle).
///
/// The clock for a head starts when the connection opens, and again at the first bytes of each
/// later request on it. The idle clock runs from the last bytes read or the last answer
/// written: it closes a keep-alive connection with no request in progress, and one whose
/// request body stops coming, after ``ServerConfiguration/idleTimeout``. A request read whole
/// and waiting for its answer is never cut: a long download (until ``DownloadWriter`` says its
/// file is sent), a streamed answer (until its end has left for the socket) or an event stream
/// runs as long as it needs.
///
/// It sits right after NIO's request decoder, where it sees whole request parts and also every
/// read (`channelReadComplete`), including one that brings only part of a head, and every
/// answer, also those that ``ThumbnailFastPath`` writes without Hummingbird (whose own idle
/// timeout would not see them, so the server turns it off).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let registry: ConnectionRegistry
    private let headerTimeout: TimeAmount
    private let idleTimeout: TimeAmount?
    private var registered = false
    /// This connection's mark in the registry, once admitted.
    private var mark: ConnectionRegistry.IdleMark?
    /// Requests whose head arrived and whose response is not yet written.
    private var inProgress = 0
    /// Whether a head arrived in the read being delivered.
    private var headInRead = false
    /// Whether a request's head arrived and its end has not (its body is still coming).
    private var bodyOpen = false
    /// The last bytes read or answer written.
    private var lastActivity = NIODeadline.now()
    private var headDeadline: Scheduled<Void>?
    private var idleCheck: Scheduled<Void>?

    init(registry: ConnectionRegistry, headerTimeout: TimeAmount, idleTimeout: TimeAmount? = nil) {
        self.registry = registry
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
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
        switch unwrapInboundIn(data) {
        case .head:
            inProgress += 1
            headInRead = true
            bodyOpen = true
            headDeadline?.cancel()
            headDeadline = nil
            if inProgress == 1 { mark?.setBusy() }
        case .end:
            bodyOpen = false
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if idleTimeout != nil { lastActivity = .now() }
        // Bytes came in but no head is complete: a request has started, its head is now timed.
        // (A read that brought a head already answered, as ThumbnailFastPath does at once, has
        // not started another.)
        if inProgress == 0 && headDeadline == nil && !headInRead { armHeadDeadline(context) }
        headInRead = false
        context.fireChannelReadComplete()
    }

    /// An answer counts as written when its end has left for the socket, not when it passes
    /// here: a streamed answer (a folder's zip) can have megabytes queued before its end when
    /// the client reads slowly, and an idle clock started here would close the connection with
    /// them still queued (found: a zip read at 180 KB/s, cut 65 KB short of its end with a
    /// 3 s idle timeout). What the kernel holds by then is sent even after a close.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.assumeIsolated().whenComplete { [self] _ in answered() }
        context.write(data, promise: written)
    }

    /// A file that ``DownloadWriter`` sends counts as a request in progress until it is sent:
    /// the response's end passed here when it was written, not when the file was.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event as? DownloadWriter.Sending {
        case .began:
            inProgress += 1
            if inProgress == 1 { mark?.setBusy() }
        case .ended:
            answered()
        case nil:
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// One request in progress fewer: with none left, the connection is idle from now.
    private func answered() {
        guard inProgress > 0 else { return }
        inProgress -= 1
        if inProgress == 0 {
            let now = NIODeadline.now()
            mark?.setIdle(since: now)
            lastActivity = now
        }
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !registered else { return }
        registered = true
        guard let admitted = registry.admit(context.channel) else {
            context.close(promise: nil)
            return
        }
        mark = admitted
        armHeadDeadline(context)
        if let idleTimeout {
            lastActivity = .now()
            armIdleCheck(context, at: lastActivity + idleTimeout)
        }
    }

    private func finish(_ context: ChannelHandlerContext) {
        headDeadline?.cancel()
        headDeadline = nil
        idleCheck?.cancel()
        idleCheck = nil
        if registered { registry.remove(context.channel) }
    }

    /// Looks at the connection when it could first have been quiet for the idle timeout: closes
    /// it if it was (and is not waiting for an answer), else looks again when it next could be.
    /// One check is scheduled at a time, not one a request.
    private func armIdleCheck(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.idleCheck = nil
            guard let timeout = handler.idleTimeout else { return }
            let quietUntil = handler.lastActivity + timeout
            let now = NIODeadline.now()
            let waitingForAnswer = handler.inProgress > 0 && !handler.bodyOpen
            if now >= quietUntil && !waitingForAnswer {
                context.close(promise: nil)
            } else {
                handler.armIdleCheck(context, at: quietUntil > now ? quietUntil : now + timeout)
            }
        }
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
