public import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

/// Builds the Browsey HTTP application for a configuration: its parts composed by
/// ``ServerComposition`` (the long-lived ones as services), its routes added by the controllers,
/// its connections guarded by the configuration's timeouts and caps.
///
/// ```swift
/// let app = try FileServer.application(ServerConfiguration(root: "/srv/files", port: 8080))
/// try await app.runService()   // until SIGINT or SIGTERM
/// ```
public enum FileServer {
    /// The router with every route, without the services: the watcher watches and the
    /// listing cache works, but the search index is never built (searches walk the tree, event
    /// streams stay silent). For in-process tests of single routes; ``application(_:logger:onServerRunning:)``
    /// is the whole server (and `app.test(.router)` runs its services too).
    public static func router(
        _ configuration: ServerConfiguration, logger: Logger = Logger(label: "Browsey")
    )
        -> Router<FileServerContext>
    {
        ServerComposition(configuration, logger: logger).buildRouter(sendfile: false)
    }

    /// The application, listening where the configuration says, over HTTPS when it names a
    /// certificate and a key. Its connections have the configuration's timeouts and caps; see
    /// ``run(_:logger:onServerRunning:)`` for the way `browsey serve` runs it.
    ///
    /// - Throws: ``ServerSetupError`` when the certificate or the key cannot be read.
    public static func application(
        _ configuration: ServerConfiguration, logger: Logger = Logger(label: "Browsey"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        try application(
            configuration, logger: logger, connections: connectionRegistry(for: configuration),
            onServerRunning: onServerRunning)
    }

    /// Runs the server until SIGINT or SIGTERM, then stops it within
    /// ``ServerConfiguration/shutdownTimeout``: requests in progress may finish until then,
    /// after which their connections are closed (an upload cut so removes its temporary file,
    /// a resumable one keeps its part); a second signal closes them at once.
    ///
    /// - Throws: ``ServerSetupError`` when the certificate or the key cannot be read.
    public static func run(
        _ configuration: ServerConfiguration, logger: Logger = Logger(label: "Browsey"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let connections = connectionRegistry(for: configuration)
        let app = try application(
            configuration, logger: logger, connections: connections, onServerRunning: onServerRunning)
        try await ServerShutdown.run(
            app, connections: connections, timeout: configuration.shutdownTimeout, logger: logger)
    }

    /// The registry that enforces the configuration's caps, sized to the descriptor limit now in
    /// force (``DescriptorLimit/raiseToHard()`` first, to get the most of it).
    static func connectionRegistry(for configuration: ServerConfiguration) -> ConnectionRegistry {
        ConnectionRegistry(
            maximumPerAddress: configuration.maximumConnectionsPerAddress,
            total: DescriptorLimit.connectionBudget(forLimit: DescriptorLimit.current))
    }

    /// The application over `parts` when given (a test that looks at them), else over parts
    /// composed here.
    static func application(
        _ configuration: ServerConfiguration, logger: Logger, connections: ConnectionRegistry,
        composed: ServerComposition? = nil, onServerRunning: @escaping @Sendable (Int) async -> Void
    ) throws -> some ApplicationProtocol {
        let sendfile = configuration.tls == nil && configuration.sendsFilesBySendfile
        let headerTimeout = TimeAmount(configuration.headerTimeout)
        var tlsSettings: TLSConfiguration?
        if let tls = configuration.tls {
            let certificates: [NIOSSLCertificate]
            let key: NIOSSLPrivateKey
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(tls.certificate)
            } catch {
                throw ServerSetupError(
                    .certificate, message: "Cannot read the certificate \(tls.certificate): \(error)")
            }
            do {
                key = try NIOSSLPrivateKey(file: tls.key, format: .pem)
            } catch {
                throw ServerSetupError(.key, message: "Cannot read the private key \(tls.key): \(error)")
            }
            guard !certificates.isEmpty else {
                throw ServerSetupError(.certificate, message: "No certificate in \(tls.certificate)")
            }
            tlsSettings = TLSConfiguration.makeServerConfiguration(
                certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key))
        }
        // Composed once the certificate is read: composing starts the watcher.
        let parts = composed ?? ServerComposition(configuration, logger: logger)
        let answers = parts.thumbnailAnswers
        let http1 = HTTPServerBuilder.http1(
            configuration: .init(
                additionalChannelHandlers: [
                    ConnectionSetup(
                        installsDownloadWriter: true, registry: connections, headerTimeout: headerTimeout,
                        idleTimeout: TimeAmount(configuration.idleTimeout)),
                    RequestFraming.Installer(),
                ] + (answers.map { [ThumbnailFastPath.Installer(answers: $0)] } ?? []),
                // ConnectionGuard times idle connections: it also sees the answers
                // ThumbnailFastPath sends, which Hummingbird's own idle timeout would not.
                idleTimeout: nil))
        var server = http1
        if let tlsSettings { server = try .tls(http1, tlsConfiguration: tlsSettings) }
        return Application(
            router: parts.buildRouter(sendfile: sendfile),
            server: server,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "Browsey"),
            services: parts.services,
            onServerRunning: { channel in
                // The listener's own pipeline is reachable only here: accepting at EMFILE.
                try? await channel.eventLoop.submit {
                    try channel.pipeline.syncOperations.addHandler(
                        AcceptGuard(registry: connections), position: .first)
                }.get()
                await onServerRunning(channel.localAddress?.port ?? configuration.port)
            },
            logger: logger)
    }
}
