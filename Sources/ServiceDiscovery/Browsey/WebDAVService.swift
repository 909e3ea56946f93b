/// How a Browsey server's WebDAV appears on the network, beside its `_browsey._tcp`: the
/// `_webdav._tcp` type (`_webdavs._tcp` over TLS), which Finder's and Nautilus's network
/// browsers and DNS-SD-aware WebDAV clients look for, with the path in TXT (`path=/dav/`).
public enum WebDAVService {
    /// The DNS-SD service type over plain HTTP.
    public static let type = "_webdav._tcp"
    /// The DNS-SD service type over TLS.
    public static let secureType = "_webdavs._tcp"

    /// The registration of WebDAV at `path` on `port`, named as the server's own announcement
    /// is (the types differ, so the names do not clash).
    public static func registration(
        servedFolder folder: String, port: Int, path: String, secure: Bool
    ) -> ServiceRegistration {
        let txt: TXTRecord = ["path": path]
        return ServiceRegistration(
            name: BrowseyService.instanceName(servedFolder: folder), type: secure ? secureType : type,
            port: port,
            txt: txt)
    }
}
