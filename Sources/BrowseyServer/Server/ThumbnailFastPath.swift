import NIOCore
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Answers a `GET /api/thumb` that was answered before from ``ThumbnailAnswers``, on the
/// connection's event loop, and keeps the router's answers to such requests for next time.
///
/// A request through Hummingbird crosses from the event loop to a task and back and is turned
/// into `HTTPRequest` and its answer back into HTTP/1: about 25,000 requests a second on two
/// cores, where nginx sends a small file 100,000 times. A thumbnail grid asks for many small
/// answers that rarely change; this handler sends those straight from memory.
///
/// One handler a connection, right before the conversion to `HTTPRequest`, after
/// ``ConnectionGuard`` (which so sees and times every request, also those answered here, and
/// counts the connection busy while one is):
/// - **A request whose answer is kept** (``ThumbnailAnswers/key(of:)``,
///   ``ThumbnailAnswers/answer(for:)``) is answered here, with a fresh `Date`; its parts go no
///   further. Only when no earlier request on the connection is still waiting for the router,
///   so that answers keep the order of the requests; when the connection takes more writes (a
///   client that does not read is held back by the router's way); and never after a request
///   that closes the connection.
/// - **Another request that could be** is passed on with a slot
///   (``ThumbnailAnswers/slotField``); its answer is copied as it goes out, and kept if the
///   router prepared the slot.
/// - **Every request** loses a slot field a client sent.
final class ThumbnailFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The answer being copied for a request passed on with a slot.
    private struct Copy {
        let slot: UInt64
        let key: String
        var head: HTTPResponseHead?
        var body: ByteBuffer?
        var expected = 0
    }

    private let answers: ThumbnailAnswers
    /// Requests passed on whose answer has not been written to its end.
    private var passedOn = 0
    /// The kept answer for the request being read, sent when its end arrives.
    private var answering: ThumbnailAnswers.Answer?
    private var copy: Copy?
    /// Whether a request passed on closes the connection after its answer.
    private var closing = false
    /// The `Date` field's value and the second it is for.
    private var date: (second: Int, text: String) = (-1, "")

    init(answers: ThumbnailAnswers) {
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(var head):
            var changed = false
            if head.headers.contains(name: ThumbnailAnswers.slotField) {
                head.headers.remove(name: ThumbnailAnswers.slotField)
                changed = true
            }
            if !closing, passedOn == 0, let key = ThumbnailAnswers.key(of: head) {
                // A client that does not read its answers is not sent more: the router's way
                // holds its reads back until it does.
                if context.channel.isWritable, let answer = answers.answer(for: key) {
                    answering = answer
                    return
                }
                let slot = answers.issueSlot()
                head.headers.add(name: ThumbnailAnswers.slotField, value: String(slot))
                copy = Copy(slot: slot, key: key)
                changed = true
            }
            passedOn += 1
            // Nothing is answered after a request that closes the connection.
            if !head.isKeepAlive { closing = true }
            context.fireChannelRead(changed ? wrapInboundOut(.head(head)) : data)
        case .body:
            if answering == nil { context.fireChannelRead(data) }
        case .end:
            guard let answer = answering else {
                context.fireChannelRead(data)
                return
            }
            answering = nil
            send(answer, context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if copy != nil { follow(unwrapOutboundIn(data)) }
        if case .end = unwrapOutboundIn(data), passedOn > 0 { passedOn -= 1 }
        context.write(data, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let copy { answers.release(slot: copy.slot) }
        copy = nil
    }

    /// Copies a part of the answer to the request passed on with a slot; at its end, hands
    /// a whole 200 answer to ``ThumbnailAnswers/keep(slot:key:head:body:)``.
    private func follow(_ part: HTTPServerResponsePart) {
        guard var current = copy else { return }
        switch part {
        case .head(let head):
            let length = head.headers.first(name: "content-length").flatMap { Int($0) }
            if head.status == .ok, let length, length <= answers.maximumAnswerBytes,
                !head.headers.contains(name: "content-encoding"), !head.headers.contains(name: "connection"),
                !head.headers.contains(name: "transfer-encoding")
            {
                current.head = head
                current.expected = length
                current.body = ByteBufferAllocator().buffer(capacity: length)
            }
            copy = current
        case .body(.byteBuffer(var buffer)):
            guard current.body != nil else { return }
            if (current.body?.readableBytes ?? 0) + buffer.readableBytes > current.expected {
                current.body = nil
            } else {
                current.body?.writeBuffer(&buffer)
            }
            copy = current
        case .body(.fileRegion):
            current.body = nil
            copy = current
        case .end(let trailers):
            copy = nil
            if let head = current.head, let body = current.body, trailers == nil,
                body.readableBytes == current.expected
            {
                answers.keep(slot: current.slot, key: current.key, head: head, body: body)
            } else {
                answers.release(slot: current.slot)
            }
        }
    }

    /// Sends a kept answer, dated now.
    private func send(_ answer: ThumbnailAnswers.Answer, context: ChannelHandlerContext) {
        var head = answer.head
        head.headers.replaceOrAdd(name: "Date", value: now())
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// The time as an IMF-fixdate, made once a second.
    private func now() -> String {
        let second = Int(time(nil))
        if second != date.second { date = (second, HTTPValidators.httpDate(seconds: Int64(second))) }
        return date.text
    }

    /// Puts a ``ThumbnailFastPath`` right before Hummingbird's conversion to `HTTPRequest`
    /// (which `additionalChannelHandlers` can only follow), then leaves the pipeline.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        let answers: ThumbnailAnswers

        init(answers: ThumbnailAnswers) {
            self.answers = answers
        }

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            // After the guard, which must see and time these requests too; it comes after
            // RequestFraming and ExpectContinue, which are put right after the decoder.
            if let guardHandler = try? pipeline.handler(type: ConnectionGuard.self) {
                try? pipeline.addHandler(ThumbnailFastPath(answers: answers), position: .after(guardHandler))
            } else if let expect = try? pipeline.handler(type: ExpectContinue.self) {
                try? pipeline.addHandler(ThumbnailFastPath(answers: answers), position: .after(expect))
            }
            pipeline.removeHandler(self, promise: nil)
        }
    }
}
