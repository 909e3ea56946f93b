import AsyncAlgorithms
public import BrowseyClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// ``HTTPTransport`` over SwiftNIO's HTTP/1.1 codec: keep-alive connections reused per server,
/// TLS through NIOSSL, and bodies read with backpressure (the connection reads a chunk only
/// when the previous one was taken, so a slow reader never fills memory).
///
/// It needs none of Foundation and only what the server already links (NIO, NIOHTTP1,
/// NIOSSL), which is why the `browsey` command line uses it: the server in the same executable
/// stays small.
public final class NIOHTTPTransport: HTTPTransport {
    private let pool = Mutex<[String: [HTTPConnection]]>([:])
    private let tls: NIOSSLContext?
    private let insecureTLS: NIOSSLContext?
    private let trustsAnyCertificate: Bool

    /// A transport with its own connections; `trustsAnyCertificate` accepts a self-signed
    /// certificate (a server started with its own `--https-cert`).
    public init(trustsAnyCertificate: Bool = false) {
        self.trustsAnyCertificate = trustsAnyCertificate
        tls = try? NIOSSLContext(configuration: .makeClientConfiguration())
        var insecure = TLSConfiguration.makeClientConfiguration()
        insecure.certificateVerification = .none
        insecureTLS = try? NIOSSLContext(configuration: insecure)
    }

    deinit {
        for connection in pool.withLock({ $0.values.flatMap { $0 } }) { connection.close() }
    }

    /// Sends `request` to `server` and answers with the response head and its streaming body;
    /// `timeout` bounds the server's silence, not the whole exchange.
    public func send(
        _ request: TransportRequest, to server: Server, timeout: Duration
    ) async throws(BrowseyClientError) -> TransportResponse {
        // A pooled connection may have been closed by the server meanwhile: a request that
        // fails before any answer on a reused connection is tried once more on a new one.
        if let reused = checkout(server) {
            do {
                return try await exchange(request, on: reused, server: server, timeout: timeout)
            } catch let error where error.code == .unreachable && !reused.answeredThisRequest {
                reused.close()
            }
        }
        let fresh = try await connect(server, timeout: timeout)
        return try await exchange(request, on: fresh, server: server, timeout: timeout)
    }

    private func exchange(
        _ request: TransportRequest, on connection: HTTPConnection, server: Server, timeout: Duration
    ) async throws(BrowseyClientError) -> TransportResponse {
        let response = try await connection.send(
            request, host: server.authority, timeout: timeout, server: server)
        connection.whenIdle { [weak self] reusable in
            guard let self else { return connection.close() }
            if reusable { self.checkin(connection, for: server) } else { connection.close() }
        }
        return response
    }

    private func checkout(_ server: Server) -> HTTPConnection? {
        pool.withLock { pool in pool[server.id]?.popLast() }
    }

    private func checkin(_ connection: HTTPConnection, for server: Server) {
        let spare: HTTPConnection? = pool.withLock { pool in
            var idle = pool[server.id] ?? []
            guard idle.count < 8 else { return connection }
            idle.append(connection)
            pool[server.id] = idle
            return nil
        }
        spare?.close()
    }

    private func connect(
        _ server: Server, timeout: Duration
    ) async throws(BrowseyClientError) -> HTTPConnection {
        let context = server.scheme == .https ? (trustsAnyCertificate ? insecureTLS : tls) : nil
        if server.scheme == .https && context == nil {
            throw BrowseyClientError(.unreachable, "TLS is not available on this machine")
        }
        let hostName = server.host
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.nanoseconds(Int64(timeout.nanoseconds)))
                .channelOption(.socketOption(.so_reuseaddr), value: 1)
                // Large reads: a big download crosses to its reader in fewer, larger chunks.
                .channelOption(
                    .recvAllocator,
                    value: AdaptiveRecvByteBufferAllocator(minimum: 4096, initial: 65_536, maximum: 1 << 20)
                )
                .connect(host: server.host, port: server.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let context {
                            let name =
                                hostName.contains(":") || hostName.allSatisfy({ $0.isNumber || $0 == "." })
                                ? nil : hostName
                            try channel.pipeline.syncOperations.addHandler(
                                try NIOSSLClientHandler(context: context, serverHostname: name))
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                            wrappingChannelSynchronously: channel)
                    }
                }
            return HTTPConnection(channel)
        } catch {
            throw Self.translate(error, server: server)
        }
    }

    /// NIO's errors in this module's words.
    static func translate(_ error: any Error, server: Server) -> BrowseyClientError {
        if let error = error as? BrowseyClientError { return error }
        if error is CancellationError { return BrowseyClientError(.cancelled, "the request was cancelled") }
        let text = "\(error)"
        if error is ChannelError, case .connectTimeout = error as? ChannelError {
            return BrowseyClientError(.timedOut, "\(server.name) did not answer in time")
        }
        let closed: Bool
        switch error as? ChannelError {
        case .ioOnClosedChannel, .eof, .outputClosed, .alreadyClosed: closed = true
        default: closed = ["Connection reset by peer", "Broken pipe"].contains(where: text.contains)
        }
        let reason =
            text.contains("Connection refused") || text.contains("errno: 111")
            ? "nothing answers there (is browsey serve running, on that port?)"
            : ["lookup", "resolve", "UnknownHost", "DNS error"].contains(where: text.contains)
                ? "the name is not known on this network"
                : closed ? "the server closed the connection without an answer" : text
        return BrowseyClientError(
            .unreachable, "cannot reach \(server.name) at \(server.authority): \(reason)")
    }
}

extension Duration {
    /// The whole duration in nanoseconds.
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
