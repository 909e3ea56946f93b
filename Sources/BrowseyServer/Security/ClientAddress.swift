public import Hummingbird

/// Behind a reverse proxy or balancer (`--trusted-proxy`), the client's own address: taken from
/// `X-Forwarded-For` only when the request comes from a proxy the server trusts. Behind nginx
/// every request otherwise comes from 127.0.0.1, and slowing one address down would slow
/// everyone; from anywhere else the header is anyone's to forge, so it is ignored.
struct ClientAddress: RouterMiddleware {
    typealias Context = FileServerContext

    /// The proxies whose `X-Forwarded-For` is believed.
    let trusted: [AddressRange]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let peer = context.connection?.remoteAddress?.ipAddress else {
            return try await next(request, context)
        }
        let client = ForwardedClient.address(
            peer: peer, forwardedFor: request.headers[values: .xForwardedFor], trusted: trusted)
        guard client != peer else { return try await next(request, context) }
        var forwarded = context
        forwarded.forwardedAddress = client
        return try await next(request, forwarded)
    }
}
