import NIOCore
import NIOHTTP1

/// Refuses requests whose framing two parsers could read differently, before any route sees
/// them: a front end and this server must never disagree on where a request ends (request
/// smuggling), and a request must say which host it is for.
///
/// Refused with 400 and the connection closed:
/// - a `Transfer-Encoding` other than exactly `chunked` (`identity`, `xchunked`, `gzip`,
///   `chunked, chunked`, …), or one beside a `Content-Length`; otherwise the body of a request
///   with `Transfer-Encoding: identity` would be read as the next request;
/// - more than one `Host` header;
/// - no `Host` header on HTTP/1.1 (RFC 9112, section 3.2).
///
/// And an HTTP/1.0 request without `Connection: keep-alive` is marked `Connection: close`, so the
/// connection closes after its answer as HTTP/1.0 expects (Hummingbird keeps it open otherwise).
///
/// The handler sits right after NIO's HTTP decoder, where the request's version and raw headers
/// are still there (Hummingbird's conversion to `HTTPRequest` drops the version and all but one
/// `Host`). A refused head is not passed on: the handler raises an `HTTPParserError`, which
/// Hummingbird answers with 400 and `Connection: close` after any earlier request on the
/// connection has been answered, and drops whatever the connection sends after it.
///
/// Installed through ``RequestFraming/Installer``, which Hummingbird's
/// `additionalChannelHandlers` can place (they go after the conversion to `HTTPRequest`).
final class RequestFraming: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// Why a head is refused.
    enum Refusal: Equatable {
        case transferEncoding
        case duplicateHost
        case missingHost
    }

    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }  // the rest of a refused connection is never read as requests
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if let refusal = Self.refusal(of: head) {
            refused = true
            context.fireErrorCaught(
                refusal == .transferEncoding
                    ? HTTPParserError.invalidHeaderToken : HTTPParserError.invalidHost)
            return
        }
        if head.version.major == 1 && head.version.minor == 0 && !head.isKeepAlive {
            // HTTP/1.0 closes after each answer unless it asks otherwise; Hummingbird looks only
            // for `Connection: close`.
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        context.fireChannelRead(data)
    }

    /// Why a request head is refused, or `nil` when its framing is sound.
    static func refusal(of head: HTTPRequestHead) -> Refusal? {
        let hosts = head.headers["Host"]
        if hosts.count > 1 { return .duplicateHost }
        if hosts.isEmpty && (head.version.major, head.version.minor) >= (1, 1) { return .missingHost }
        let encodings = head.headers["Transfer-Encoding"]
        if !encodings.isEmpty {
            let codings = encodings.flatMap { $0.split(separator: ",") }.map {
                $0.trimmingSpaces().lowercased()
            }
            if codings != ["chunked"] || !head.headers["Content-Length"].isEmpty { return .transferEncoding }
        }
        return nil
    }

    /// Puts a ``RequestFraming`` right after NIO's HTTP request decoder, and an
    /// ``ExpectContinue`` after it, then leaves the pipeline.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            if let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) {
                let framing = RequestFraming()
                try? pipeline.addHandler(framing, position: .after(decoder))
                try? pipeline.addHandler(ExpectContinue(), position: .after(framing))
            }
            pipeline.removeHandler(self, promise: nil)
        }
    }
}
