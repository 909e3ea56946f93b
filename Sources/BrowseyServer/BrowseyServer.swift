public import Hummingbird
public import Logging
import HummingbirdCore
import HummingbirdTLS
import NIOSSL

/// Builds the Browsey HTTP application for a configuration.
///
/// ```swift
/// let app = try BrowseyServer.application(ServerConfiguration(root: "/srv/files", port: 8080))
/// try await app.runService()   // until SIGINT or SIGTERM
/// ```
public enum BrowseyServer {
    /// The router with every route, for in-process tests (`app.test(.router)`).
    public static func router(_ configuration: ServerConfiguration, logger: Logger = Logger(label: "Browsey"))
        -> Router<BasicRequestContext>
    {
        router(configuration, logger: logger, sendfile: false)
    }

    static func router(_ configuration: ServerConfiguration, logger: Logger, sendfile: Bool) -> Router<BasicRequestContext> {
        let router = Router(options: .autoGenerateHeadEndpoints)  // HEAD wherever GET
        if let extra = configuration.allowedHosts {
            router.add(middleware: HostCheck(extra: extra, boundHost: configuration.host))
        }
        if !configuration.corsOrigins.isEmpty { router.add(middleware: CORSPolicy(origins: configuration.corsOrigins)) }
        if let token = configuration.token { router.add(middleware: TokenAuthentication(token: token)) }
        var routes = BrowseyRoutes(configuration: configuration, logger: logger)
        routes.sendsFilesBySendfile = sendfile
        routes.register(on: router)
        return router
    }

    /// The application, listening where the configuration says, over HTTPS when it names a
    /// certificate and a key.
    ///
    /// - Throws: ``ServerSetupError`` when the certificate or the key cannot be read.
    public static func application(
        _ configuration: ServerConfiguration, logger: Logger = Logger(label: "Browsey"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let sendfile = configuration.tls == nil && configuration.sendsFilesBySendfile
        let http1 = HTTPServerBuilder.http1(
            configuration: .init(additionalChannelHandlers: [ConnectionSetup(installsFileRegions: sendfile), RequestFraming.Installer()]))
        var server = http1
        if let tls = configuration.tls {
            let certificates: [NIOSSLCertificate]
            let key: NIOSSLPrivateKey
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(tls.certificate)
            } catch {
                throw ServerSetupError(code: "certificate", message: "Cannot read the certificate \(tls.certificate): \(error)")
            }
            do {
                key = try NIOSSLPrivateKey(file: tls.key, format: .pem)
            } catch {
                throw ServerSetupError(code: "key", message: "Cannot read the private key \(tls.key): \(error)")
            }
            guard !certificates.isEmpty else {
                throw ServerSetupError(code: "certificate", message: "No certificate in \(tls.certificate)")
            }
            let settings = TLSConfiguration.makeServerConfiguration(
                certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key))
            server = try .tls(http1, tlsConfiguration: settings)
        }
        return Application(
            router: router(configuration, logger: logger, sendfile: sendfile),
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Browsey"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }
}

/// A server that cannot start as configured (an unreadable certificate, say).
public struct ServerSetupError: Error, Sendable, CustomStringConvertible {
    /// A stable code: `certificate`, `key`.
    public let code: String
    /// What went wrong, for a person.
    public let message: String

    public var description: String { message }
}
