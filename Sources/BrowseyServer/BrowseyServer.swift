public import Hummingbird
public import Logging

/// Builds the Browsey HTTP application for a configuration.
///
/// ```swift
/// let app = BrowseyServer.application(ServerConfiguration(root: "/srv/files", port: 8080))
/// try await app.runService()   // until SIGINT or SIGTERM
/// ```
public enum BrowseyServer {
    /// The router with every route, for in-process tests (`app.test(.router)`).
    public static func router(_ configuration: ServerConfiguration, logger: Logger = Logger(label: "Browsey"))
        -> Router<BasicRequestContext>
    {
        let router = Router()
        if let extra = configuration.allowedHosts {
            router.add(middleware: HostCheck(extra: extra, boundHost: configuration.host))
        }
        if !configuration.corsOrigins.isEmpty { router.add(middleware: CORSPolicy(origins: configuration.corsOrigins)) }
        if let token = configuration.token { router.add(middleware: TokenAuthentication(token: token)) }
        BrowseyRoutes(configuration: configuration, logger: logger).register(on: router)
        return router
    }

    /// The application, listening where the configuration says.
    public static func application(
        _ configuration: ServerConfiguration, logger: Logger = Logger(label: "Browsey"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(configuration, logger: logger),
            server: .http1(configuration: .init(additionalChannelHandlers: [ReadSizeTuning()])),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Browsey"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }
}
