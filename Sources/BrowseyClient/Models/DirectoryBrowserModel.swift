public import BrowseyAPI
public import Observation

/// A folder on a server as a browser screen shows it: rows (folders first, `..` below the root),
/// breadcrumbs, loading / empty / error / offline states, sorting, search, and live updates.
/// A SwiftUI view binds to it and holds no logic of its own.
@MainActor
@Observable
public final class DirectoryBrowserModel {
    /// What the screen shows besides the rows.
    public enum Phase: Sendable {
        /// Nothing asked yet.
        case idle
        /// Waiting for the listing.
        case loading
        /// The listing is shown.
        case loaded
        /// The folder has nothing in it.
        case empty
        /// The server refused (not found, no access, …); retry may help.
        case failed(BrowseyClientError)
        /// The server cannot be reached.
        case offline(BrowseyClientError)
    }

    /// One step of the path, for breadcrumbs.
    public struct Crumb: Sendable, Hashable, Identifiable {
        /// The step's path.
        public var id: String { path }
        /// Its name (the server's name for the root).
        public var name: String
        /// Its path.
        public var path: String
    }

    /// The client asked.
    public let client: APIClient
    /// The folder shown.
    public private(set) var path: String
    /// The state of the screen.
    public private(set) var phase: Phase = .idle
    /// The rows, in order.
    public private(set) var rows: [BrowserRow] = []
    /// The order of the rows; changing it reorders them at once.
    public var sort = BrowserSort() { didSet { rebuildRows() } }
    /// The search text; ``search()`` looks it up under the current folder.
    public var searchText = ""
    /// The results of the last search, best first.
    public private(set) var searchResults: [SearchResponse.Result] = []
    /// What ``search()`` looks in: names (the default) or what text files say.
    public var searchScope = SearchScope.names
    /// The results of the last search inside files (``SearchScope/contents``), best first,
    /// each with its matching lines.
    public private(set) var contentResults: [ContentSearchResponse.Result] = []
    /// Whether more files match than ``contentResults`` holds (the server stopped at its
    /// limit), or may (its index is still being built): a screen says so under the results.
    public private(set) var contentResultsArePartial = false

    private var items: [ListItem] = []
    /// The ETag of the listing ``items`` came from, and its folder: a reload sends it, and a
    /// 304 keeps the rows shown. Cleared when live updates change the items.
    private var listingTag: (path: String, etag: String)?
    private var liveTask: Task<Void, Never>?
    private var lastEventID: String?

    /// A browser of `path` (the root by default) on `client`'s server.
    public init(client: APIClient, path: String = "/") {
        self.client = client
        self.path = Self.normalized(path)
    }

    /// The breadcrumbs from the root to the current folder.
    public var breadcrumbs: [Crumb] {
        var crumbs = [Crumb(name: client.server.name, path: "/")]
        var walked = ""
        for part in path.split(separator: "/") {
            walked += "/" + part
            crumbs.append(Crumb(name: String(part), path: walked))
        }
        return crumbs
    }

    /// Loads (or reloads) the current folder. A reload asks with the listing's ETag: when the
    /// server answers 304 the rows already shown stay, without a body sent or decoded.
    public func load() async {
        phase = .loading
        let folder = path
        let known = listingTag.flatMap { $0.path == folder ? $0.etag : nil }
        do {
            switch try await client.list(folder, ifNoneMatch: known) {
            case .notModified:
                break
            case .modified(let listing, let etag):
                items = listing.items
                listingTag = etag.map { (folder, $0) }
                rebuildRows()
            }
            phase = items.isEmpty ? .empty : .loaded
        } catch {
            items = []
            listingTag = nil
            rebuildRows()
            phase = error.code == .unreachable || error.code == .timedOut ? .offline(error) : .failed(error)
        }
    }

    /// Goes to another folder and loads it.
    public func go(to folder: String) async {
        stopLiveUpdates()
        path = Self.normalized(folder)
        searchResults = []
        contentResults = []
        contentResultsArePartial = false
        await load()
    }

    /// Opens a row: a folder (or `..`) is browsed; a file is returned for the viewer.
    public func open(_ row: BrowserRow) async -> BrowserRow? {
        switch row.kind {
        case .parent, .folder:
            await go(to: row.path)
            return nil
        case .file:
            return row
        }
    }

    /// The parent folder (no-op at the root).
    public func goUp() async {
        guard path != "/" else { return }
        await go(to: Self.parent(of: path))
    }

    /// Looks ``searchText`` up under the current folder; empty text clears the results.
    public func search() async {
        let text = searchText
        guard !text.allSatisfy({ $0 == " " }) else {
            searchResults = []
            contentResults = []
            contentResultsArePartial = false
            return
        }
        do {
            switch searchScope {
            case .names:
                let found = try await client.search(text, in: path)
                if text == searchText { searchResults = found.results }
            case .contents:
                let found = try await client.searchContent(text, in: path)
                if text == searchText {
                    contentResults = found.results
                    contentResultsArePartial = found.hasMore || !found.complete
                }
            }
        } catch {
            searchResults = []
            contentResults = []
            contentResultsArePartial = false
        }
    }

    /// Follows changes under the current folder from the server's events: a file added,
    /// removed, renamed or changed there shows without a reload (a `reset` reloads).
    public func startLiveUpdates() {
        stopLiveUpdates()
        let folder = path
        let client = client
        liveTask = Task { [weak self] in
            var lastID = self?.lastEventID
            while !Task.isCancelled {
                do {
                    for try await event in client.events(in: folder, after: lastID) {
                        lastID = event.id ?? lastID
                        guard let self else { return }
                        await self.apply(event, in: folder)
                    }
                } catch {}
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Stops following changes.
    public func stopLiveUpdates() {
        liveTask?.cancel()
        liveTask = nil
    }

    private func apply(_ event: ServerEvent, in folder: String) async {
        guard folder == path else { return }
        lastEventID = event.id
        if event.kind == .reset { return await load() }
        guard let change = event.change, let changed = change.path else { return }
        // The rows no longer read as the tagged listing: the next load takes a whole one.
        listingTag = nil
        let isChild: (String) -> Bool = { Self.parent(of: $0) == folder }
        if let from = change.from, isChild(from) {
            items.removeAll { $0.name == Self.name(of: from) }
        }
        if isChild(changed) {
            items.removeAll { $0.name == Self.name(of: changed) }
            if event.kind != .deleted, let item = change.item { items.append(item) }
        }
        rebuildRows()
        if case .loading = phase { return }
        phase = items.isEmpty ? .empty : .loaded
    }

    private func rebuildRows() {
        var built: [BrowserRow] = []
        if path != "/" {
            built.append(BrowserRow(kind: .parent, name: "..", path: Self.parent(of: path), item: nil))
        }
        for item in items.sorted(by: sort.precedes) {
            let isFolder = item.type == .directory || item.targetType == .directory
            let child = (path == "/" ? "" : path) + "/" + item.name
            built.append(
                BrowserRow(kind: isFolder ? .folder : .file, name: item.name, path: child, item: item))
        }
        rows = built
    }

    static func normalized(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }

    static func parent(of path: String) -> String {
        let parts = path.split(separator: "/").dropLast()
        return "/" + parts.joined(separator: "/")
    }

    static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? ""
    }
}
