#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a server serves and how: the folder, who may write, which names are shown.
public struct ServerConfiguration: Sendable {
    /// The served folder (absolute; symlinks in it resolved at start).
    public var root: String
    /// The address to bind (`0.0.0.0`: every interface).
    public var host: String
    /// The port; 0 asks the system for a free one.
    public var port: Int
    /// Whether writes are refused (the default).
    public var readOnly: Bool
    /// Whether dot-names may be listed and served (then only when a listing asks with `hidden=1`).
    public var showsHidden: Bool
    /// Globs on names that are neither listed nor served.
    public var ignoredNames: [String]
    /// Whether symlinks that lead outside the root are followed.
    public var allowsSymlinks: Bool
    /// Whether encoded listings are kept until the watcher sees their folder change.
    public var cachesListings: Bool
    /// Where deleted items go (outside the served folder), or `nil` to delete for good.
    /// ``TrashLocation/defaultFolder(forRoot:)`` picks one.
    public var trashFolder: String?
    /// The trash's limits: the oldest entries are purged past this total size…
    public var trashMaximumBytes: Int64 = 2 << 30
    /// …and entries older than this many seconds.
    public var trashMaximumAge: Int64 = 30 * 24 * 3600
    /// The token every request but `/api/health` must carry (`--auth`); `nil`: open to all.
    public var token: String?
    /// The newest Browsey's access token (`BROWSEY_ACCESS_TOKEN`, `--access-token-file`,
    /// `--access-token`): every API and WebDAV request must carry it first, whatever else the
    /// server asks (``AccessTokenGate``); `nil` or empty: no gate.
    public var accessToken: String?
    /// The server's identity, reported as `serverId` by `/api/health` and in the Bonjour record
    /// (``ServerIdentity``); `nil` reports none.
    public var serverId: String?
    /// Origins (`https://app.example`) whose pages may call the API (`--cors`): CORS headers,
    /// preflights, and writes from them. None by default.
    public var corsOrigins: [String] = []
    /// The accounts and folder rules of `--config`: who may sign in and what each may do where.
    /// `nil` runs the server as before (everyone, or the `--auth` token holder, reaches
    /// everything the path rules allow).
    public var accounts: Accounts?
    /// Where sessions (and the share links) are kept so that they survive a restart: an SQLite
    /// file; `nil` keeps them in memory only.
    public var sessionDatabasePath: String?
    /// Where sessions, share links and throttling live when not in ``sessionDatabasePath``: a
    /// store shared by several instances (``PostgresStateStore``).
    public var stateStore: (any StateStore)?
    /// The reverse proxies and balancers whose `X-Forwarded-For` names the client
    /// (`--trusted-proxy`): the throttle and the audit log then see the client, not the proxy.
    public var trustedProxies: [AddressRange] = []
    /// How the server notices writes made outside it (`--watch`).
    public var watch: WatchMode = .auto
    /// Where the audit log goes (`--audit-log`); `nil` writes none.
    public var auditLogPath: String?
    /// The time since 1970 that sessions, share expiry and the login throttle go by (the
    /// system's; tests give their own).
    public var clock: @Sendable () -> Duration = ServerConfiguration.systemClock

    /// The system's wall clock, to the nanosecond.
    public static let systemClock: @Sendable () -> Duration = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
    }
    /// Whether plain-HTTP downloads go by `sendfile` (the default; `--no-sendfile` copies
    /// through buffers, as HTTPS always does).
    public var sendsFilesBySendfile = true
    /// Whether a client on this machine (a loopback address) gets `sendfile` too
    /// (`--sendfile-on-loopback`). Off by default: over loopback the client's own copy runs on
    /// the server's CPUs, and copying through buffers measured twice as fast as `sendfile` there,
    /// while across a network `sendfile` spares the server a copy of every byte.
    public var sendsFilesBySendfileOnLoopback = false
    /// A PEM certificate chain and private key to serve HTTPS with (`--https-cert`,
    /// `--https-key`); `nil`: plain HTTP.
    public var tls: (certificate: String, key: String)?
    /// Host names a request may be addressed to besides the machine's own (`--allowed-host`);
    /// `nil` turns the check off (in-process tests, embedding behind a proxy).
    public var allowedHosts: [String]? = []
    /// Whether searches are answered from an index kept fresh by a watcher (the default), which
    /// also feeds `/api/events`; `false` (`--no-index`) walks the tree for each search.
    public var indexesSearch = true
    /// The index file (`IndexLocation.defaultPath(forRoot:)` picks one); `nil` keeps the index
    /// in memory only, built again at each start.
    public var indexPath: String?
    /// Whether what text files say is indexed too, for `GET /api/search?in=content` (the
    /// default; needs ``indexesSearch``); `false` with `--no-content-index`.
    public var indexesContent = true
    /// Whether each request's method and path is logged as it arrives (`--log-requests`), at
    /// info level: what to read when a client says a request never came back.
    public var logsRequests = false
    /// A folder the web UI's files are read from at each request (`--web-root`), for working
    /// on the UI without rebuilding: it holds what `Sources/BrowseyServer/Assets/web/` holds.
    /// `nil` (the default) serves the files built into the binary.
    public var webRoot: String?
    /// How often `/api/events` streams send a heartbeat while nothing happens.
    public var eventHeartbeat: Duration = .seconds(15)
    /// How long a client has to send a request's head, counted from when it connects or from
    /// the first bytes of a later request on the same connection (`--header-timeout`); then
    /// the connection is closed. A request line held half-sent cannot keep a descriptor.
    public var headerTimeout: Duration = .seconds(10)
    /// How long a connection may stay silent while no response is being written
    /// (`--idle-timeout`): between keep-alive requests, or in the middle of an upload that
    /// stopped sending. A response in progress (a download, an event stream) is never cut.
    public var idleTimeout: Duration = .seconds(60)
    /// How many connections one client address (an IPv6 client's /64) may hold at once
    /// (`--max-connections-per-address`); 0: no cap. A browser opens at most six per server
    /// and one more per open tab's event stream: 128 leaves room for a phone, a laptop and a
    /// score of tabs behind one address, and keeps one LAN client from taking every descriptor.
    public var maximumConnectionsPerAddress = 128
    /// How long a stopping server lets requests in progress finish (`--shutdown-timeout`); then
    /// their connections are closed, and a second SIGINT or SIGTERM stops it at once.
    public var shutdownTimeout: Duration = .seconds(10)

    /// Whether `/api/thumb` makes thumbnails and listings mark the files it can make them of
    /// (the default; `--no-thumbs` turns both off).
    public var makesThumbnails = true
    /// Whether the grid's thumbnails of every picture are made ahead of requests, at low
    /// priority, and of each new picture as it appears (`--thumbs eager`; needs a cache folder).
    public var makesThumbnailsAhead = false
    /// The folder thumbnails are cached in (`ThumbnailLocation.defaultFolder(forRoot:)` picks
    /// one; `--thumb-dir`); `nil` makes them afresh for each request.
    public var thumbnailFolder: String?
    /// The most the thumbnail cache may take on disk (`--thumb-cache-mb`, default 512 MiB); the
    /// least recently used go first.
    public var thumbnailCacheBytes = 512 << 20
    /// Pictures whose header claims more pixels than this are refused with 413 (100 MP).
    public var thumbnailMaximumPixels = 100_000_000
    /// Where thumbnails of videos and PDFs, and videos' durations, come from: `ffmpeg`,
    /// `pdftoppm` and `ffprobe` paths, found on `PATH` by the command line; `nil` (the
    /// default): none.
    public var posterTools: (ffmpeg: String?, pdftoppm: String?, ffprobe: String?) = (nil, nil, nil)
    /// Whether those helpers run confined to the system's files and the one file each reads
    /// (where the kernel can): `true` but for a test whose helper writes down that it ran.
    public var confinesPosterTools = true
    /// Where the git routes look for `git`: a `PATH`-style list; `nil` (the default): the
    /// server's own `PATH`. No `git` found: those routes answer 501 `gitMissing`.
    public var gitSearchPath: String?

    /// How large one sync manifest may grow before it is refused with 413 (Browsey's has no
    /// bound): 250,000 entries and 96 MiB of JSON by default.
    public var syncManifestLimits = SyncManifestLimits()

    /// Whether WebDAV is served at `/dav/` (the default; `--no-dav` turns it off), with the
    /// server's own mode, root and rules.
    public var servesWebDAV = true
    /// Whether WebDAV takes `Authorization: Basic` (the token as the password) over plain HTTP
    /// from other machines (`--dav-allow-insecure-basic`). Off by default: Basic is then taken
    /// only over TLS or from loopback, since it sends the token in clear on every request.
    public var davAllowsInsecureBasic = false

    /// A configuration; by default read-only, port 8080, every interface, no hidden names.
    public init(
        root: String, host: String = "0.0.0.0", port: Int = 8080, readOnly: Bool = true,
        showsHidden: Bool = false, ignoredNames: [String] = [], allowsSymlinks: Bool = false,
        cachesListings: Bool = true, trashFolder: String? = nil
    ) {
        self.trashFolder = trashFolder
        self.cachesListings = cachesListings
        self.root = root
        self.host = host
        self.port = port
        self.readOnly = readOnly
        self.showsHidden = showsHidden
        self.ignoredNames = ignoredNames
        self.allowsSymlinks = allowsSymlinks
    }

    /// A new token for ``token``: 26 characters from a 32-letter alphabet (130 bits from the
    /// system's secure random source), short enough for the QR code.
    public static func newToken() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<26).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
    }
}

/// How a server notices writes made outside it (`--watch`).
public enum WatchMode: String, Sendable, CaseIterable {
    /// The kernel's events (inotify, kqueue), rescans when they run out.
    case auto
    /// The kernel's events, as `auto`.
    case inotify
    /// Rescans only, every 2 s: for network filesystems, where the kernel never tells of another
    /// host's writes.
    case poll
    /// Nothing: only this server's own writes and, with `--database`, the other instances'.
    case off
}
