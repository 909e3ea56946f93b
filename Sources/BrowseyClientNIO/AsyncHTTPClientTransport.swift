import AsyncHTTPClient
public import BrowseyClient
import NIOCore
import NIOHTTP1
import NIOSSL

/// ``HTTPTransport`` over AsyncHTTPClient (SwiftNIO): pooled keep-alive connections, TLS, and
/// bodies read with backpressure (a slow reader slows the socket, memory stays bounded). It
/// needs none of Foundation, which is why the `browsey` command line uses it: the server in
/// the same executable stays small.
public final class AsyncHTTPClientTransport: HTTPTransport {
    private let client: HTTPClient

    /// A transport with its own connection pool; `trustsAnyCertificate` accepts a self-signed
    /// certificate (a server started with its own `--https-cert`).
    public init(trustsAnyCertificate: Bool = false, connectionsPerHost: Int = 8) {
        var configuration = HTTPClient.Configuration()
        if trustsAnyCertificate {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            configuration.tlsConfiguration = tls
        }
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerHost)
        configuration.decompression = .disabled
        configuration.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit { try? client.syncShutdown() }

    public func send(
        _ request: TransportRequest, to server: Server, timeout: Duration
    ) async throws(BrowseyClientError) -> TransportResponse {
        var outgoing = HTTPClientRequest(url: server.baseURL + request.target)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        switch request.body {
        case .none:
            break
        case .bytes(let bytes):
            outgoing.body = .bytes(ByteBuffer(bytes: bytes))
        case .file(let path, let offset):
            outgoing.body = try FileBodyStream.body(path: path, offset: offset)
        }
        do {
            let response = try await client.execute(outgoing, timeout: .nanoseconds(Int64(timeout.nanoseconds)))
            var headers: [(name: String, value: String)] = []
            for field in response.headers { headers.append((field.name, field.value)) }
            let chunks = response.body.map { Array(buffer: $0) }
            return TransportResponse(status: Int(response.status.code), headers: headers, body: ResponseBody(chunks))
        } catch {
            throw Self.translate(error, server: server)
        }
    }

    /// AsyncHTTPClient's and NIO's errors in this module's words.
    static func translate(_ error: any Error, server: Server) -> BrowseyClientError {
        if let error = error as? BrowseyClientError { return error }
        if error is CancellationError { return BrowseyClientError(.cancelled, "the request was cancelled") }
        if let client = error as? HTTPClientError {
            if client == .deadlineExceeded || client == .readTimeout || client == .connectTimeout {
                return BrowseyClientError(.timedOut, "\(server.name) did not answer in time")
            }
            if client == .cancelled { return BrowseyClientError(.cancelled, "the request was cancelled") }
        }
        let text = "\(error)"
        let reason =
            text.contains("Connection refused")
            ? "nothing answers there (is browsey serve running, on that port?)"
            : text.contains("NXDOMAIN") || text.contains("lookup") ? "the name is not known on this network" : text
        return BrowseyClientError(
            .unreachable, "cannot reach \(server.name) at \(server.authority): \(reason)",
            underlying: DescribedError(description: text))
    }
}

/// An error kept by its description.
struct DescribedError: Error, Sendable, CustomStringConvertible {
    let description: String
}

extension Duration {
    /// The whole duration in nanoseconds.
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
