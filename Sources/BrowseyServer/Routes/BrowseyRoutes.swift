public import BrowseyAPI
public import FileTree
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import Hummingbird
public import Logging
import SearchIndex

/// Every route of the contract, on one shared state: the configuration, the path rules and the
/// reader. Each concern lives in its own extension (`BrowseyRoutes+Listing.swift`, …); a
/// request's path through them is one straight line: route → ``SafePath`` → FileTree → encode.
public struct BrowseyRoutes: Sendable {
    /// What is served and how.
    public let configuration: ServerConfiguration
    /// The path rules.
    public let safePath: SafePath
    let startedAt = ContinuousClock.now
    let logger: Logger
    let listingCache: ListingCache?
    /// The search index and its change feed; `nil` with `--no-index`.
    let searchIndex: SearchIndex?
    /// Where deletes go; `nil` deletes for good.
    let trash: Trash?
    /// The web UI's files: built in, or read from `--web-root`.
    let web: WebAssets
    /// Whether downloads go by `sendfile` (only when the application's connections carry a
    /// ``FileRegionWriter``; never in-process tests or TLS).
    var sendsFilesBySendfile = false

    /// Prepares the routes for a configuration.
    public init(configuration: ServerConfiguration, logger: Logger = Logger(label: "Browsey")) {
        self.configuration = configuration
        self.safePath = SafePath(
            root: configuration.root, showsHidden: configuration.showsHidden,
            ignored: configuration.ignoredNames.map { NamePattern($0) },
            allowsSymlinks: configuration.allowsSymlinks)
        self.logger = logger
        if let folder = configuration.webRoot {
            do {
                web = WebAssets(folder: try WebRoot(path: folder))
            } catch {
                logger.error("The web root \(folder) cannot be read (\(error.message)): serving the built-in web UI")
                web = .embedded
            }
        } else {
            web = .embedded
        }
        trash = configuration.trashFolder.map {
            Trash(folder: $0, maximumBytes: configuration.trashMaximumBytes, maximumAge: configuration.trashMaximumAge)
        }
        // One watcher for both: the cache hears of each change at once, the index gets the batches.
        let filter = EntryFilter(includesHidden: configuration.showsHidden, excludedNames: safePath.ignored)
        let cache = configuration.cachesListings ? ListingCache() : nil
        var watcher: DirectoryWatcher?
        if configuration.cachesListings || configuration.indexesSearch {
            let options = DirectoryWatcher.Options(coalescing: .milliseconds(50), filter: filter) { [weak cache] path, everything in
                cache?.invalidate(path, everything: everything)
            }
            do {
                watcher = try DirectoryWatcher(path: configuration.root, options: options, logger: logger)
            } catch {
                logger.warning("The folder cannot be watched: listings are read fresh, search results may lag (\(error))")
            }
        }
        cache?.attach(watcher)
        listingCache = cache
        searchIndex =
            configuration.indexesSearch
            ? SearchIndex(
                options: .init(root: configuration.root, filter: filter, storePath: configuration.indexPath),
                watcher: watcher, logger: logger)
            : nil
    }

    /// Adds every route to `router`; returns the method and path of each documented route (the
    /// catch-alls excluded), which the OpenAPI test holds against `/api/openapi.json`.
    @discardableResult
    public func register(on router: Router<some RequestContext>) -> [(method: HTTPRequest.Method, path: String)] {
        var documented: [(method: HTTPRequest.Method, path: String)] = []
        func add(
            _ method: HTTPRequest.Method, _ path: String,
            _ handler: @escaping @Sendable (Request, any RequestContext) async throws -> Response
        ) {
            router.on(RouterPath(path), method: method) { request, context in try await handler(request, context) }
            documented.append((method, path))
        }
        add(.get, "/api/list") { request, _ in try await self.list(request) }
        add(.get, "/api/stat") { request, _ in try self.stat(request) }
        add(.get, "/api/view") { request, _ in try await self.view(request) }
        add(.get, "/api/file") { request, _ in try await self.file(request) }
        add(.head, "/api/file") { request, _ in try await self.file(request) }
        add(.get, "/api/health") { _, _ in self.health() }
        add(.get, "/api/search") { request, _ in try await self.search(request) }
        add(.get, "/api/events") { request, _ in try await self.events(request) }
        // HEAD of the others is their GET without the body (the router's own); this one must not subscribe.
        router.on("/api/events", method: .head) { request, _ in try self.eventsHead(request) }
        add(.get, "/api/archive") { request, _ in try await self.archive(request) }
        add(.get, "/api/openapi.json") { request, _ in try OpenAPIFile.response(to: request) }
        add(.post, "/api/save") { request, _ in try await self.save(request) }
        add(.post, "/api/rename") { request, _ in try await self.rename(request) }
        add(.post, "/api/move") { request, _ in try await self.move(request) }
        add(.post, "/api/copy") { request, _ in try await self.copy(request) }
        add(.post, "/api/delete") { request, _ in try await self.delete(request) }
        add(.post, "/api/mkdir") { request, _ in try await self.makeFolder(request) }
        add(.post, "/api/restore") { request, _ in try await self.restore(request) }
        add(.get, "/api/trash") { request, _ in try self.trashItems(request) }
        add(.put, "/api/file") { request, _ in try await self.upload(request) }
        add(.get, "/api/upload") { request, _ in try self.uploadStatus(request) }
        add(.post, "/api/upload") { request, _ in try await self.uploadForm(request) }
        // A method a documented path does not take: 405 with the methods it does (HEAD wherever GET).
        var methodsByPath: [String: Set<HTTPRequest.Method>] = [:]
        for route in documented { methodsByPath[route.path, default: []].insert(route.method) }
        router.add(middleware: AllowedMethods(methodsByPath))
        for method in Self.allMethods {
            router.on("/api/**", method: method) { _, _ -> Response in throw APIError.notFound }
        }
        router.get("/**") { request, _ in self.web.response(to: request) }
        router.get("/") { request, _ in self.web.response(to: request) }
        return documented
    }

    /// The methods the router answers for any path, in the order an `Allow` header lists them.
    static let allMethods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options, .trace]

    /// The `path` query parameter resolved inside the root; missing or empty means the root
    /// when `required` is false, 400 "Path required" otherwise.
    func resolve(_ request: Request, required: Bool, notFound: String) throws(APIError) -> SafePath.Resolved {
        let raw = request.uri.queryParameters.get("path") ?? ""
        if raw.isEmpty && required { throw .pathRequired }
        do {
            return try safePath.resolve(raw)
        } catch {
            throw APIError.from(error, notFound: notFound)
        }
    }

    /// Converts an entry to the contract's item (the Codable form of what ``ListingJSON`` writes).
    public func listItem(_ entry: FileEntry) -> ListItem {
        var item = ListItem(
            name: entry.name, type: Self.itemType(entry.type), size: entry.size,
            modified: Date(timeIntervalSince1970: Double(entry.status?.modified.milliseconds ?? 0) / 1000),
            extension: entry.type == .directory ? nil : entry.pathExtension, absolutePath: entry.path)
        if entry.type == .symlink {
            item.linkBroken = false
        }
        if entry.type == .symlink, entry.symlink.map(safePath.mayReveal) != true {
            item.linkOutside = true
        } else if let link = entry.symlink {
            item.linkTarget = link.target
            item.targetAbsolutePath = link.resolvedPath
            let inside = safePath.relativePath(of: link.resolvedPath)
            item.targetPath = inside
            item.targetType = link.targetType.map(Self.itemType)
            item.linkBroken = link.isBroken
        }
        return item
    }

    static func itemType(_ type: EntryType) -> ItemType {
        switch type {
        case .directory: .directory
        case .symlink: .symlink
        case .regular, .other: .file
        }
    }
}
