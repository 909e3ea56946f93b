public import Logging
import ServiceDiscovery

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server announced on the local network as `_browsey._tcp` (and its WebDAV as
/// `_webdav._tcp`, path in TXT, when it is served), through the system's own mDNS
/// responder, for as long as this value is kept (``withdraw()`` ends it sooner).
///
/// With no responder (or no DNS-SD library) there is nothing to keep: ``summary`` says so in
/// one line for the banner and the server goes on.
public final class BonjourAnnouncement: Sendable {
    private let advertisement: Advertisement?
    /// WebDAV's `_webdav._tcp`, when it is served and the responder took it.
    private let davAdvertisement: Advertisement?

    /// One line for the start-up banner: what was announced, or why nothing was.
    public let summary: String

    /// Asks the responder to announce a server on `port` serving `configuration`'s folder
    /// (instance `Browsey (<folder>)`, TXT `version`, `path`, `protocol`, `readonly`, `host`,
    /// `serverId`, and `auth=1` with a token). The responder confirms in about a second; a name already
    /// taken, or a later failure, is logged.
    public init(configuration: ServerConfiguration, port: Int, version: String, logger: Logger) {
        let registration = BrowseyService.registration(
            servedFolder: configuration.root, port: port, version: version, secure: configuration.tls != nil,
            readOnly: configuration.readOnly, requiresToken: configuration.token != nil,
            hostName: Self.hostName(), serverId: configuration.serverId)
        if configuration.servesWebDAV {
            let dav = WebDAVService.registration(
                servedFolder: configuration.root, port: port, path: DAVPath.prefix + "/",
                secure: configuration.tls != nil)
            davAdvertisement = try? Bonjour().register(dav)
        } else {
            davAdvertisement = nil
        }
        do {
            let advertisement = try Bonjour().register(registration)
            self.advertisement = advertisement
            let types =
                davAdvertisement == nil
                ? BrowseyService.type : "\(BrowseyService.type), \(WebDAVService.type)"
            summary = "announced as \"\(registration.name)\" (\(types))"
            Task {
                do throws(ServiceDiscoveryError) {
                    let name = try await advertisement.established()
                    if name != registration.name {
                        logger.notice(
                            "Bonjour: \"\(registration.name)\" is taken on the network; announced as \"\(name)\""
                        )
                    }
                } catch {
                    logger.warning("Bonjour: the announcement failed: \(error.message)")
                }
            }
        } catch {
            advertisement = nil
            summary = "not available — \(error.message); serving without it"
        }
    }

    /// Whether the responder took the announcement.
    public var isAnnounced: Bool { advertisement != nil }

    /// Stops announcing (the responder sends a goodbye).
    public func withdraw() {
        advertisement?.cancel()
        davAdvertisement?.cancel()
    }

    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
