import FileTree
public import Hummingbird
public import Logging
import SearchIndex
public import ServiceLifecycle
import Thumbnails

/// The parts of a server, composed once from its configuration: the path rules, the one watcher
/// of the served folder, the listing cache it keeps honest, the search index with its change
/// feed, the trash; the long-lived ones as services, and the controllers that serve them.
///
/// Nothing here starts work of its own: the watcher and the index run as the ``services``
/// handed to `Application(services:)`, started with the server and stopped with it.
public struct ServerComposition: Sendable {
    /// What is served and how.
    public let configuration: ServerConfiguration
    /// The path rules.
    public let safePath: SafePath
    let logger: Logger
    let startedAt = ContinuousClock.now
    /// Encoded listings, kept until the watcher says a folder changed; `nil` with `--no-cache`.
    let listingCache: ListingCache?
    /// Sync manifests' revisions, kept until the watcher says their folder changed; `nil` with
    /// `--no-listing-cache`.
    let manifestRevisions: ManifestRevisions?
    /// The search index and its change feed; `nil` with `--no-index`.
    let searchIndex: NameIndex?
    /// The index of what text files say; `nil` with `--no-content-index` or `--no-index`.
    let contentIndex: ContentIndex?
    /// Where deletes go; `nil` deletes for good.
    let trash: Trash?
    /// The web UI's files: built in, or read from `--web-root`.
    let web: WebAssets
    /// Thumbnails and their cache; `nil` with `--no-thumbs`.
    let thumbnails: ThumbnailService?
    /// Thumbnail answers kept in memory and sent again by ``ThumbnailFastPath``: `nil` without
    /// thumbnails, on a server with accounts (a session or a share can end while its cookie is
    /// still sent), with `--log-requests` (those answers would go unlogged), and when the folder
    /// cannot be watched (a folder above a picture replaced by a link would go unseen).
    let thumbnailAnswers: ThumbnailAnswers?
    /// How the git routes run `git` (found on `PATH` once, at start).
    let git: GitRunner
    /// What this server changes, told to its watcher and the other instances.
    let changeFeed: ChangeFeed
    /// WebDAV's locks, kept in the state store.
    let davLocks: DAVLockTable
    /// The long-lived work: the watcher, the index, the sweep of upload leftovers.
    public let services: [any Service]
    /// Everything kept that is not a file: sessions, links, throttling.
    public let state: any StateStore
    /// The signed-in sessions, on a server with accounts.
    public let sessions: SessionStore?
    /// The share links, on a server with accounts.
    let shares: ShareStore?
    /// How failed logins are slowed down.
    let throttle: LoginThrottle
    /// Wrong passwords of share links, counted apart from logins.
    let shareThrottle: LoginThrottle
    /// The audit log, when one is written.
    public let audit: AuditLog?

    /// Composes the parts of a server for `configuration`. The watcher starts watching here (so
    /// nothing done before the server runs is missed); everything else waits for ``services``
    /// to run.
    public init(_ configuration: ServerConfiguration, logger: Logger = Logger(label: "Browsey")) {
        self.configuration = configuration
        self.logger = logger
        safePath = SafePath(configuration)
        git = GitRunner.find(path: configuration.gitSearchPath)
        trash = configuration.trashFolder.map {
            Trash(
                folder: $0, maximumBytes: configuration.trashMaximumBytes,
                maximumAge: configuration.trashMaximumAge)
        }
        if let folder = configuration.webRoot {
            do {
                web = WebAssets(folder: try WebRoot(path: folder))
            } catch {
                logger.error(
                    "The web root \(folder) cannot be read (\(error.message)): serving the built-in web UI")
                web = .embedded
            }
        } else {
            web = .embedded
        }
        var services: [any Service] = []
        let thumbnails = Self.thumbnailService(configuration, logger: logger)
        self.thumbnails = thumbnails
        let answers =
            thumbnails != nil && configuration.accounts == nil && !configuration.logsRequests
            ? ThumbnailAnswers() : nil
        // One watcher for both: the cache hears of each change at once, the index gets the batches.
        let filter = EntryFilter(includesHidden: configuration.showsHidden, excludedNames: safePath.ignored)
        let cache = configuration.cachesListings ? ListingCache() : nil
        let revisions = configuration.cachesListings ? ManifestRevisions() : nil
        var watcher: DirectoryWatcher?
        if configuration.cachesListings || configuration.indexesSearch || thumbnails?.cache != nil
            || answers != nil
        {
            var options = DirectoryWatcher.Options(coalescing: .milliseconds(50), filter: filter) {
                [weak cache, weak revisions] path, everything in
                cache?.invalidate(path, everything: everything)
                revisions?.invalidate(path, everything: everything)
                // A thumbnail's key holds its picture's version: dropping it only frees space early.
                if !everything { thumbnails?.invalidate(path) }
                answers?.invalidate(path, everything: everything)
            }
            switch configuration.watch {
            case .auto, .inotify: options.source = .events
            case .poll: options.source = .rescans
            case .off: options.source = .reportsOnly
            }
            do {
                watcher = try DirectoryWatcher(path: configuration.root, options: options, logger: logger)
            } catch {
                logger.warning(
                    "The folder cannot be watched: listings are read fresh, search results may lag (\(error))"
                )
            }
        }
        #if os(Linux)
            if Confinement.kernelVersion == 0 {
                logger.warning(
                    "This kernel cannot confine programs (no Landlock): git and the poster helpers run with the server's own access to files"
                )
            }
        #endif
        // Answers are kept only while the folder is watched (see ThumbnailAnswers).
        // Rescans and reports prove nothing is pending, so answers are kept only on kernel events.
        let eventDriven = configuration.watch == .auto || configuration.watch == .inotify
        thumbnailAnswers = watcher != nil && eventDriven ? answers : nil
        cache?.attach(watcher)
        listingCache = cache
        revisions?.attach(watcher)
        manifestRevisions = revisions
        if configuration.indexesSearch {
            let index = NameIndex(
                options: .init(root: configuration.root, filter: filter, storePath: configuration.indexPath),
                watcher: watcher, logger: logger)
            searchIndex = index
            services.append(SearchIndexing(index: index))
            contentIndex = Self.contentIndex(configuration, names: index, logger: logger)
            if let contentIndex { services.append(ContentIndexing(index: contentIndex)) }
        } else {
            searchIndex = nil
            contentIndex = nil
        }
        if configuration.makesThumbnailsAhead, let thumbnails, thumbnails.cache != nil {
            services.append(
                ThumbnailPregeneration(
                    root: configuration.root, contained: safePath.contained, filter: filter,
                    thumbnails: thumbnails, index: searchIndex, logger: logger))
        }
        // After the index in the list: a graceful shutdown stops services in reverse order.
        if let watcher { services.insert(FolderWatching(watcher: watcher), at: 0) }
        // Leftovers of interrupted uploads go at start; a read-only server changes nothing.
        if !configuration.readOnly {
            services.append(UploadLeftovers(root: configuration.root, logger: logger))
        }
        state = Self.stateStore(configuration, logger: logger)
        davLocks = DAVLockTable(store: state)
        let feed = ChangeFeed(store: state, root: configuration.root, watcher: watcher, logger: logger)
        changeFeed = feed
        // Only a shared store has other instances to hear from.
        if state.kind != "sqlite" { services.append(feed) }
        self.services = services
        if configuration.accounts != nil {
            let clock = configuration.clock
            sessions = SessionStore(store: state, now: { clock().components.seconds })
            shares = ShareStore(store: state)
        } else {
            sessions = nil
            shares = nil
        }
        audit = configuration.auditLogPath.map { AuditLog(path: $0) }
        throttle = LoginThrottle(store: state, scope: "login", now: configuration.clock)
        shareThrottle = LoginThrottle(store: state, scope: "share", now: configuration.clock)
    }

    /// The store the configuration names: a given one (PostgreSQL, for several instances), the
    /// SQLite file in the data folder, or (without one, or when it cannot be opened) memory.
    private static func stateStore(_ configuration: ServerConfiguration, logger: Logger) -> any StateStore {
        if let store = configuration.stateStore { return store }
        if let path = configuration.sessionDatabasePath {
            do {
                return try SQLiteStateStore(path: path)
            } catch {
                logger.error("Sessions and share links are kept in memory only: \(error.message)")
            }
        }
        return SQLiteStateStore.inMemory()
    }

    /// The router with every route: the policy middleware (allowed hosts, CORS, the token)
    /// in front of the controllers, each of which adds its own routes.
    ///
    /// - Parameter sendfile: whether downloads go by `sendfile` (plain HTTP only: never under
    ///   TLS, whose handler cannot encrypt a file region).
    public func buildRouter(sendfile: Bool = false) -> Router<FileServerContext> {
        // HEAD wherever GET.
        let router = Router(context: FileServerContext.self, options: .autoGenerateHeadEndpoints)
        if configuration.logsRequests { router.add(middleware: LogRequestsMiddleware(.info)) }
        // Outermost: every JSON or text answer over 1 KiB, errors and refusals included, is
        // compressed for a client that accepts gzip.
        router.add(middleware: ResponseCompression())
        if !configuration.trustedProxies.isEmpty {
            router.add(middleware: ClientAddress(trusted: configuration.trustedProxies))
        }
        if let extra = configuration.allowedHosts {
            router.add(middleware: HostCheck(extra: extra, boundHost: configuration.host))
        }
        if !configuration.corsOrigins.isEmpty {
            router.add(middleware: CORSPolicy(origins: configuration.corsOrigins))
        }
        // First of what proves who asks: with a gate, the server's own token and accounts come after.
        if let access = configuration.accessToken, !access.isEmpty {
            router.add(middleware: AccessTokenGate(token: access))
        }
        let accounts = configuration.accounts.flatMap { accounts in sessions.map { (accounts, $0) } }
        if configuration.servesWebDAV, configuration.token != nil || accounts != nil {
            router.add(
                middleware: DAVBasicAuthentication(
                    token: configuration.token, accounts: accounts, overTLS: configuration.tls != nil,
                    allowsInsecure: configuration.davAllowsInsecureBasic))
        }
        if let token = configuration.token {
            router.add(middleware: TokenAuthentication(token: token, serverId: configuration.serverId))
        }
        if let accounts = configuration.accounts, let sessions {
            router.add(middleware: AccountAuthentication(accounts: accounts, sessions: sessions))
        }
        if configuration.servesWebDAV && !configuration.readOnly {
            router.add(middleware: WriteLocksMiddleware(table: davLocks))
        }
        if !configuration.readOnly {
            router.add(middleware: ChangePublishing(feed: changeFeed))
        }
        router.add(
            middleware: AccessDecision(
                safePath: safePath, readOnly: configuration.readOnly, policy: configuration.accounts?.policy))
        let api = Router(context: FileServerContext.self)
        addAPIRoutes(to: api.group(), sendfile: sendfile)
        let documented = Self.documented(api)
        // A method a documented path does not take: 405 with the methods it does (HEAD wherever GET).
        var methodsByPath: [String: Set<HTTPRequest.Method>] = [:]
        for route in documented { methodsByPath[route.path, default: []].insert(route.method) }
        router.add(middleware: AllowedMethods(methodsByPath))
        addAPIRoutes(to: router.group(), sendfile: sendfile)
        for method in Self.allMethods {
            router.on("/api/**", method: method) { _, _ -> Response in throw APIError.notFound }
        }
        if configuration.servesWebDAV {
            DAVController(
                configuration: configuration, safePath: safePath, trash: trash, locks: davLocks,
                files: FileController(
                    configuration: configuration, safePath: safePath, sendsFilesBySendfile: sendfile)
            )
            .addRoutes(to: router.group())
        }
        shareController(sendfile: sendfile).addLinkRoutes(to: router.group())
        WebController(web: web).addRoutes(to: router.group())
        return router
    }

    /// The method and path of each route of the API (the catch-alls excluded; HEAD only where
    /// there is no GET to make it of), which the OpenAPI test holds against `/api/openapi.json`.
    public func documentedRoutes() -> [(method: HTTPRequest.Method, path: String)] {
        let api = Router(context: FileServerContext.self)
        addAPIRoutes(to: api.group(), sendfile: false)
        return Self.documented(api)
    }

    private func addAPIRoutes(to group: RouterGroup<FileServerContext>, sendfile: Bool) {
        let marked = thumbnails.map { ThumbnailExtensions($0.extensions) } ?? .none
        ListingController(
            configuration: configuration, safePath: safePath, listingCache: listingCache, thumbnails: marked
        )
        .addRoutes(to: group)
        FileController(
            configuration: configuration, safePath: safePath, sendsFilesBySendfile: sendfile,
            videos: thumbnails
        )
        .addRoutes(to: group)
        SyncController(
            configuration: configuration, safePath: safePath, revisions: manifestRevisions, thumbnails: marked
        )
        .addRoutes(to: group)
        SearchController(
            configuration: configuration, safePath: safePath, searchIndex: searchIndex,
            contentIndex: contentIndex,
            thumbnails: marked
        )
        .addRoutes(to: group)
        EventsController(
            configuration: configuration, safePath: safePath, searchIndex: searchIndex, thumbnails: marked
        )
        .addRoutes(to: group)
        WriteController(configuration: configuration, safePath: safePath, trash: trash, audit: audit)
            .addRoutes(to: group)
        TrashController(configuration: configuration, safePath: safePath, trash: trash, audit: audit)
            .addRoutes(to: group)
        UploadController(configuration: configuration, safePath: safePath, audit: audit).addRoutes(to: group)
        GitController(
            configuration: configuration, safePath: safePath, runner: git, trash: trash, audit: audit
        )
        .addRoutes(to: group)
        if let thumbnails {
            ThumbnailController(
                configuration: configuration, safePath: safePath, thumbnails: thumbnails,
                answers: thumbnailAnswers
            )
            .addRoutes(to: group)
        }
        ServerInfoController(
            configuration: configuration, startedAt: startedAt, contentIndex: contentIndex, state: state
        )
        .addRoutes(to: group)
        AccessController(
            gated: configuration.accessToken?.isEmpty == false, overTLS: configuration.tls != nil
        ).addRoutes(to: group)
        LoginController(
            configuration: configuration, safePath: safePath, accounts: configuration.accounts,
            sessions: sessions,
            throttle: throttle, audit: audit
        )
        .addRoutes(to: group)
        shareController(sendfile: sendfile).addRoutes(to: group)
    }

    /// Share links: managing them, and what a link opens (in the web UI, with thumbnails).
    private func shareController(sendfile: Bool) -> ShareController {
        // A link shows no hidden name inside what it shares, whatever the server shows its users:
        // its controllers never honour `hidden=1`.
        var links = configuration
        links.showsHidden = false
        return ShareController(
            configuration: links, safePath: safePath, accounts: configuration.accounts,
            shares: shares,
            files: FileController(configuration: links, safePath: safePath, sendsFilesBySendfile: sendfile),
            uploads: UploadController(configuration: configuration, safePath: safePath, audit: audit),
            audit: audit, thumbnails: thumbnails,
            marked: thumbnails.map { ThumbnailExtensions($0.extensions) } ?? .none, web: web,
            unlockThrottle: shareThrottle)
    }

    /// The thumbnail service for `configuration`, with its cache when there is a folder for one.
    private static func thumbnailService(
        _ configuration: ServerConfiguration, logger: Logger
    ) -> ThumbnailService? {
        guard configuration.makesThumbnails else { return nil }
        var tools = PosterTools(
            ffmpeg: configuration.posterTools.ffmpeg, pdftoppm: configuration.posterTools.pdftoppm,
            ffprobe: configuration.posterTools.ffprobe)
        tools.confined = configuration.confinesPosterTools
        let thumbnailer = Thumbnailer(posters: tools, maximumPixels: configuration.thumbnailMaximumPixels)
        let cache = configuration.thumbnailFolder.map {
            ThumbnailCache(folder: $0, limit: configuration.thumbnailCacheBytes, logger: logger)
        }
        return ThumbnailService(thumbnailer: thumbnailer, cache: cache)
    }

    private static func documented(
        _ router: Router<FileServerContext>
    ) -> [(method: HTTPRequest.Method, path: String)] {
        let routes = router.routes.map { (method: $0.method, path: $0.path.description) }
        let withGet = Set(routes.filter { $0.method == .get }.map(\.path))
        return routes.filter { $0.method != .head || !withGet.contains($0.path) }
    }

    /// The methods the router answers for any path, in the order an `Allow` header lists them.
    static let allMethods: [HTTPRequest.Method] = [
        .get, .head, .post, .put, .delete, .patch, .options, .trace,
    ]
}
