import NIOCore
import NIOHTTP1

/// Answers `Expect: 100-continue` with `100 Continue` as soon as the request's head arrives, so
/// a client that waits for it before sending a body (curl for large uploads, litmus, some
/// WebDAV clients) sends it at once instead of after its own timeout. Hummingbird sends no
/// interim answers itself. The final answer follows as usual; a refused request's body is then
/// read and dropped like any other.
///
/// Sits right after NIO's request decoder (installed by ``RequestFraming/Installer``), where
/// NIO's own response parts can still be written: the interim head goes straight to NIO's
/// encoder.
final class ExpectContinue: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), head.version == .http1_1,
            head.headers["Expect"].contains(where: { $0.lowercased() == "100-continue" })
        {
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
