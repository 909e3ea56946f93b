import ArgumentParser
import BrowseyServer
import FileTree
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `browsey serve [PATH]`: serve a folder over HTTP, read-only unless asked.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a folder to browsers and Browsey clients.",
        discussion: """
            Prints a Local and a Network URL. Read-only unless --no-readonly. Stop with Ctrl-C.
            """
    )

    @Argument(help: "The folder to serve.", completion: .directory)
    var path: String = "."

    @Option(name: [.short, .long], help: "The port to listen on; when it is busy, a free one is taken.")
    var port: Int = 8080

    @Option(help: "The address to bind: 0.0.0.0 for every interface, 127.0.0.1 for this machine only.")
    var host: String = "0.0.0.0"

    @Option(
        name: [.short, .long],
        help: "Comma-separated globs of names never listed nor served (e.g. '*.log,node_modules').")
    var ignore: [String] = []

    @Flag(help: "Allow dot-names (listed when a client asks with hidden=1).")
    var hidden = false

    @Flag(
        inversion: .prefixedNo,
        help:
            "Refuse every write (the default); --no-readonly lets clients edit, rename, move, copy, delete and create folders."
    )
    var readonly = true

    @Flag(help: "The same as --no-readonly.")
    var writable = false

    @Flag(
        name: .customLong("trash"), inversion: .prefixedNo,
        help:
            "Move deleted items to a trash outside the folder, from which they can be restored (the default); --no-trash deletes for good."
    )
    var trash = true

    @Option(
        help: ArgumentHelp(
            "Where the trash is kept (default: the user's data folder, e.g. ~/.local/share/browsey/trash).",
            valueName: "folder"))
    var trashDir: String?

    @Option(help: ArgumentHelp("Purge the oldest trashed items past this many megabytes.", valueName: "MB"))
    var trashLimit: Int64 = 2048

    @Option(help: ArgumentHelp("Purge trashed items older than this many days.", valueName: "days"))
    var trashDays: Int64 = 30

    @Flag(
        help:
            "Require a token for everything but /api/health: one is made and printed, and the URLs and QR code carry it."
    )
    var auth = false

    @Option(help: ArgumentHelp("Use this token instead of a new one (implies --auth).", valueName: "token"))
    var token: String?

    @Option(
        help: ArgumentHelp(
            "Require the access token in this file (its first line) of every API and WebDAV request, as X-Browsey-Access-Token; $BROWSEY_ACCESS_TOKEN comes first.",
            valueName: "file"))
    var accessTokenFile: String?

    @Flag(
        help:
            "Require an access token of every API and WebDAV request, made once and kept in the data folder (mode 0600); the banner names its file."
    )
    var accessToken = false

    @Option(
        help: ArgumentHelp(
            "Keep sessions, share links and throttling in this PostgreSQL database, shared by every instance serving the folder ($BROWSEY_DATABASE_URL otherwise; SQLite in the data folder without either).",
            valueName: "postgresql://user[:password]@host[:port]/db"))
    var database: String?

    @Option(
        help: ArgumentHelp(
            "How writes made outside this server are noticed: auto (inotify), poll (rescans every 2 s, for network filesystems), or off (only this server's own writes and, with --database, the other instances').",
            valueName: "auto|inotify|poll|off"))
    var watch: WatchChoice = .auto

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "Believe X-Forwarded-For from this proxy or balancer (an address or CIDR block; repeatable), so throttling and the audit log see the client, not the proxy.",
            valueName: "cidr"))
    var trustedProxies: [String] = []

    @Option(
        help: ArgumentHelp(
            "Accounts and per-folder rights (JSON; see Docs/Accounts.md): people sign in, and each reaches what the rules grant. Not with --auth.",
            valueName: "file"))
    var config: String?

    @Option(
        help: ArgumentHelp(
            "With --config: write the audit log (one JSON line per login and change) here instead of the data folder.",
            valueName: "file"))
    var auditLog: String?

    @Option(
        help: ArgumentHelp(
            "Serve HTTPS with this PEM certificate (chain); needs --https-key.", valueName: "file"))
    var httpsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --https-cert.", valueName: "file"))
    var httpsKey: String?

    @Option(
        help: ArgumentHelp(
            "Let pages of this origin (https://app.example) call the API; repeat for more.",
            valueName: "origin"))
    var cors: [String] = []

    @Option(
        help: ArgumentHelp(
            "Also answer requests addressed to this host name (the machine's own names and addresses always work); repeat for more.",
            valueName: "name"))
    var allowedHost: [String] = []

    @Flag(help: "Follow symlinks that lead outside the folder.")
    var allowSymlinks = false

    @Flag(
        name: .customLong("qr", withSingleDash: false), inversion: .prefixedNo,
        help: "Print a QR code of the Network URL.")
    var qr = true

    @Flag(
        name: .customLong("bonjour", withSingleDash: false), inversion: .prefixedNo,
        help:
            "Announce the server on the local network over Bonjour (_browsey._tcp), through the system's mDNS responder (Avahi on Linux)."
    )
    var bonjour = true

    @Flag(
        name: .customLong("dav"), inversion: .prefixedNo,
        help:
            "Serve WebDAV at /dav/ with the server's mode and rules, announced as _webdav._tcp (the default); --no-dav turns it off."
    )
    var dav = true

    @Flag(
        help:
            "Take WebDAV's Basic authentication (the token as the password) over plain HTTP from other machines; by default only over HTTPS or from this machine."
    )
    var davAllowInsecureBasic = false

    @Flag(
        name: .customLong("listing-cache"), inversion: .prefixedNo,
        help: "Keep encoded listings until the folder changes (the watcher keeps them fresh).")
    var listingCache = true

    @Flag(
        name: .customLong("index"), inversion: .prefixedNo,
        help:
            "Answer searches from an index kept fresh by a watcher, which also feeds /api/events (--no-index walks the folder at each search)."
    )
    var index = true

    @Flag(
        name: .customLong("content-index"), inversion: .prefixedNo,
        help:
            "Index what text files say, in the background after the names, for searches inside files (GET /api/search?in=content); --no-content-index turns it off."
    )
    var contentIndex = true

    @Flag(help: "Log each request's method and path as it arrives (an access log on standard error).")
    var logRequests = false

    @Option(
        help: ArgumentHelp(
            "Keep the search index in this folder (default: ~/.cache/browsey/index).", valueName: "folder"))
    var indexDir: String?

    @Option(
        help: ArgumentHelp(
            "Make thumbnails at /api/thumb and mark pictures in listings: on (made when asked, the default), eager (also made ahead, at low priority) or off.",
            valueName: "on|eager|off"))
    var thumbs: ThumbnailMode = .on

    @Option(
        help: ArgumentHelp(
            "Keep thumbnails in this folder (default: ~/.cache/browsey/thumbs).", valueName: "folder"))
    var thumbDir: String?

    @Option(
        help: ArgumentHelp(
            "Let cached thumbnails take at most this many megabytes (default 512); the least recently used go first.",
            valueName: "MB"))
    var thumbCacheMb = 512

    @Flag(
        name: .customLong("sendfile"), inversion: .prefixedNo,
        help: "Send downloads with sendfile (plain HTTP; HTTPS always copies through buffers).")
    var sendfile = true

    @Flag(
        help:
            "Send downloads with sendfile to clients on this machine too (by default they get copies: over loopback, copying measured twice as fast)."
    )
    var sendfileOnLoopback = false

    @Option(
        help: ArgumentHelp(
            "Close a connection that has not sent a whole request head this many seconds after connecting or starting a request.",
            valueName: "seconds"))
    var headerTimeout: Double = 10

    @Option(
        help: ArgumentHelp(
            "Close a connection silent this long while no response is being written (between requests, or an upload that stopped sending); downloads and event streams are never cut.",
            valueName: "seconds"))
    var idleTimeout: Double = 60

    @Option(
        help: ArgumentHelp(
            "How many connections one client address may hold at once (0: no cap).", valueName: "count"))
    var maxConnectionsPerAddress: Int = 128

    @Option(
        help: ArgumentHelp(
            "On Ctrl-C or SIGTERM, let requests in progress finish for this long, then close them; a second Ctrl-C stops at once.",
            valueName: "seconds"))
    var shutdownTimeout: Double = 10

    @Option(
        help: ArgumentHelp(
            "Serve the web UI's files from this folder, read at each request, instead of the ones built in (for working on the UI: Sources/BrowseyServer/Assets/web).",
            valueName: "folder"))
    var webRoot: String?

    @Flag(help: "Open the Local URL in a browser once serving.")
    var open = false

    static func currentFolder() -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The `--web-root` folder as an absolute path, or a failure that says what is wrong with it.
    static func checkedWebRoot(_ folder: String) throws -> String {
        let path = folder.hasPrefix("/") ? folder : currentFolder() + "/" + folder
        let root: ContainedRoot
        do {
            root = try ContainedRoot(path: path)
        } catch {
            throw CommandFailure(.webRootUnreadable, "--web-root \(folder): \(error.message)")
        }
        do {
            close(try root.open("index.html", flags: O_RDONLY))
        } catch {
            throw CommandFailure(
                .webRootUnreadable,
                "--web-root \(folder) holds no index.html (\(error.message)): give the folder of the web UI's files"
            )
        }
        return root.realPath
    }

    func validate() throws {
        for proxy in trustedProxies where AddressRange(proxy) == nil {
            throw ValidationError(
                "--trusted-proxy \(proxy) is no address or CIDR block (such as 10.0.0.0/8).")
        }
        guard (0...65535).contains(port) else {
            throw ValidationError("--port takes 0 to 65535 (0: any free port).")
        }
        guard trashLimit >= 0, trashDays >= 0 else {
            throw ValidationError("--trash-limit and --trash-days take 0 or more.")
        }
        guard (httpsCert == nil) == (httpsKey == nil) else {
            throw ValidationError("--https-cert and --https-key go together.")
        }
        for (flag, seconds) in [
            ("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout),
            ("--shutdown-timeout", shutdownTimeout),
        ] {
            guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw ValidationError("\(flag) takes a number of seconds above 0 (e.g. 2.5), at most a day.")
            }
        }
        guard maxConnectionsPerAddress >= 0 else {
            throw ValidationError("--max-connections-per-address takes 0 (no cap) or more.")
        }
        if config != nil, auth || token != nil {
            throw ValidationError(
                "--config (accounts) and --auth/--token (one shared token) do not go together.")
        }
        if auditLog != nil, config == nil {
            throw ValidationError("--audit-log needs --config: without accounts there is nobody to record.")
        }
        if let token {
            guard token.count >= 16,
                token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) })
            else {
                throw ValidationError(
                    "--token takes at least 16 letters, digits or -_.~ (it goes into URLs).")
            }
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        DescriptorLimit.raiseToHard()
        var logger = Logger(label: "browsey")
        logger.logLevel = .info
        let root: String
        do {
            root = try await DirectoryReader().read(at: path, depth: .levels(0)).entry.path
        } catch {
            throw CommandFailure(.cannotServe, "Cannot serve \(path): \(error.message)")
        }
        var chosenPort = port
        if port != 0 && !PortProbe.isFree(port, host: host) {
            print("Port \(port) is busy; taking a free one.")
            chosenPort = 0
        }
        let readOnly = readonly && !writable
        var trashFolder: String?
        if !readOnly && trash {
            if let trashDir {
                trashFolder = trashDir.hasPrefix("/") ? trashDir : Self.currentFolder() + "/" + trashDir
                if let folder = trashFolder,
                    folder == root || folder.hasPrefix(root == "/" ? "/" : root + "/")
                {
                    throw CommandFailure(
                        .conflictingOptions, "--trash-dir must lie outside the served folder")
                }
            } else {
                trashFolder = TrashLocation.defaultFolder(forRoot: root)
                if trashFolder == nil {
                    logger.warning(
                        "No place for a trash outside the served folder: deletes are permanent (see --trash-dir)"
                    )
                }
            }
        }
        var configuration = ServerConfiguration(
            root: root, host: host, port: chosenPort, readOnly: readOnly, showsHidden: hidden,
            ignoredNames: ignore.flatMap { $0.split(separator: ",").map { String($0.filter { $0 != " " }) } }
                .filter { !$0.isEmpty },
            allowsSymlinks: allowSymlinks, cachesListings: listingCache, trashFolder: trashFolder)
        configuration.token = token ?? (auth ? ServerConfiguration.newToken() : nil)
        let access = try accessTokenSetting(logger: logger)
        configuration.accessToken = access?.token
        if let folder = ServerIdentity.defaultFolder(forRoot: root) {
            do {
                configuration.serverId = try ServerIdentity.id(root: root, port: chosenPort, folder: folder)
            } catch {
                throw CommandFailure(.serverSetup, error.message)
            }
        } else {
            logger.warning("No data folder outside the served folder: this server has no lasting identity")
        }
        if let config {
            try Self.useAccounts(from: config, in: &configuration, auditLog: auditLog, logger: logger)
        }
        try await useDatabase(in: &configuration, logger: logger)
        configuration.trustedProxies = trustedProxies.compactMap(AddressRange.init)
        configuration.watch = WatchMode(rawValue: watch.rawValue) ?? .auto
        configuration.corsOrigins = cors
        configuration.servesWebDAV = dav
        configuration.davAllowsInsecureBasic = davAllowInsecureBasic
        configuration.sendsFilesBySendfile = sendfile
        configuration.sendsFilesBySendfileOnLoopback = sendfileOnLoopback
        if let httpsCert, let httpsKey { configuration.tls = (httpsCert, httpsKey) }
        configuration.allowedHosts = allowedHost
        configuration.indexesSearch = index
        configuration.indexesContent = index && contentIndex
        configuration.logsRequests = logRequests
        if index {
            if let indexDir {
                let folder = indexDir.hasPrefix("/") ? indexDir : Self.currentFolder() + "/" + indexDir
                guard let file = IndexLocation.path(inFolder: folder, forRoot: root) else {
                    throw CommandFailure(
                        .conflictingOptions, "--index-dir must lie outside the served folder.")
                }
                configuration.indexPath = file
            } else {
                configuration.indexPath = IndexLocation.defaultPath(forRoot: root)
            }
        }
        configuration.makesThumbnails = thumbs != .off
        configuration.makesThumbnailsAhead = thumbs == .eager
        if thumbs != .off {
            if let thumbDir {
                let folder = thumbDir.hasPrefix("/") ? thumbDir : Self.currentFolder() + "/" + thumbDir
                guard let place = ThumbnailLocation.folder(inFolder: folder, forRoot: root) else {
                    throw CommandFailure(
                        .conflictingOptions, "--thumb-dir must lie outside the served folder.")
                }
                configuration.thumbnailFolder = place
            } else {
                configuration.thumbnailFolder = ThumbnailLocation.defaultFolder(forRoot: root)
            }
            configuration.thumbnailCacheBytes = max(1, thumbCacheMb) << 20
            let tools = ServerConfiguration.findPosterTools()
            configuration.posterTools = tools
            let missing = [
                tools.ffmpeg == nil ? "ffmpeg (videos)" : nil,
                tools.pdftoppm == nil ? "pdftoppm (PDFs)" : nil,
            ]
            .compactMap { $0 }
            if !missing.isEmpty {
                logger.info(
                    "No thumbnails of some types: \(missing.joined(separator: " and ")) not found on PATH")
            }
            if tools.ffmpeg != nil && tools.ffprobe == nil {
                logger.info("No video durations: ffprobe not found on PATH")
            }
        }
        configuration.trashMaximumBytes = trashLimit * 1024 * 1024
        configuration.trashMaximumAge = trashDays * 24 * 3600
        configuration.headerTimeout = .milliseconds(Int64(headerTimeout * 1000))
        configuration.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
        configuration.maximumConnectionsPerAddress = maxConnectionsPerAddress
        configuration.shutdownTimeout = .milliseconds(Int64(shutdownTimeout * 1000))
        if let webRoot {
            configuration.webRoot = try Self.checkedWebRoot(webRoot)
        }
        // Known to `browsey list` and `browsey stop` while it runs.
        let registry = InstanceRegistry.standard()
        defer { registry?.unregister(pid: getpid()) }
        do {
            let announcement = Mutex<BonjourAnnouncement?>(nil)
            try await FileServer.run(configuration, logger: logger) {
                [configuration, open, qr, bonjour, logger] port in
                registry?.register(InstanceRecord(serving: configuration, port: port))
                var bonjourLine = "off (--no-bonjour)"
                if bonjour && ["127.0.0.1", "localhost", "::1"].contains(configuration.host) {
                    // Other devices could not connect: announcing would only mislead them.
                    bonjourLine = "off (listening on this machine only)"
                } else if bonjour {
                    let announced = BonjourAnnouncement(
                        configuration: configuration, port: port, version: BrowseyVersion.current,
                        logger: logger)
                    bonjourLine = announced.summary
                    announcement.withLock { $0 = announced }
                }
                Banner.print(
                    configuration: configuration, port: port, showsQRCode: qr, bonjour: bonjourLine,
                    accessTokenSource: access?.source)
                if open {
                    Banner.openBrowser("\(configuration.tls == nil ? "http" : "https")://localhost:\(port)/")
                }
            }
            announcement.withLock { $0?.withdraw() }
        } catch let failure as ServerSetupError {
            throw CommandFailure(.serverSetup, failure.message)
        }
    }
}

/// Whether the server makes thumbnails (`--thumbs`).
enum ThumbnailMode: String, ExpressibleByArgument, CaseIterable {
    /// Made when a client asks, cached.
    case on
    /// Also made ahead of requests, at low priority: every picture at start, then each new one.
    case eager
    /// None: `/api/thumb` answers 404 and listings mark nothing.
    case off
}

/// `--watch`'s values, as the server's ``WatchMode`` names them.
enum WatchChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, inotify, poll, off
}
