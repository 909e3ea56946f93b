import FileTree
public import Observation

/// The document browser: the documents and groups of a library's folder, kept current as the
/// folder changes, with selection, the app's document operations, groups (stacks), thumbnails
/// and the opening sequence. A plain model: the SwiftUI grid (in BrowseyUI) only shows it.
///
/// ```swift
/// let model = DocumentBrowserModel(library: library, actions: actions)
/// try model.startMonitoring()
/// await model.load()
/// // model.items, model.isSelecting, model.openingItemID … drive the grid
/// ```
///
/// File-system work (scans, changes, copies) runs off the main actor; the model's state changes
/// on it. Every change to the folder, the browser's own or anyone's, goes through one index in
/// order (see ``DocumentIndex``), so what is shown is never a stale copy. Pauses use the clock
/// given, so tests run the animated sequences instantly.
@Observable
@MainActor
public final class DocumentBrowserModel {
    /// What the browser shows.
    public let library: DocumentLibrary
    /// The items at ``location``, in ``sortOrder``.
    public internal(set) var items: [DocumentItem] = []
    /// Where the browser is: `""` for the root, else the group entered.
    public internal(set) var location: DocumentItem.ID = ""
    /// How items are ordered.
    public var sortOrder: DocumentSortOrder {
        didSet { if oldValue != sortOrder { rebuild() } }
    }
    /// Whether the first scan is running.
    public internal(set) var isLoading = false
    /// Why the folder could not be read, if it could not.
    public internal(set) var loadError: DocumentBrowserError?
    /// Whether the browser is in selection mode.
    public internal(set) var isSelecting = false
    /// The items selected (only in selection mode).
    public internal(set) var selection: Set<DocumentItem.ID> = []
    /// The document whose opening animation is playing.
    public internal(set) var openingItemID: DocumentItem.ID?
    /// The item the grid should scroll to (a new document, an import).
    public internal(set) var revealedItemID: DocumentItem.ID?
    /// The host's actions.
    @ObservationIgnored public var actions: DocumentBrowserActions
    /// The pauses of the animated sequences.
    @ObservationIgnored public var timing: DocumentBrowserTiming
    /// The thumbnails.
    @ObservationIgnored public let thumbnails: ThumbnailLoader

    @ObservationIgnored let clock: any Clock<Duration>
    @ObservationIgnored let store = IndexStore()
    @ObservationIgnored var index: DocumentIndex?
    @ObservationIgnored private var version = 0
    @ObservationIgnored private var watcher: DirectoryWatcher?
    @ObservationIgnored private var watchTask: Task<Void, Never>?

    /// A browser over `library`.
    ///
    /// - Parameters:
    ///   - clock: what the animated sequences wait on (an instant clock in tests).
    ///   - thumbnailGenerator: makes pictures for documents that carry none.
    public init(
        library: DocumentLibrary, actions: DocumentBrowserActions = DocumentBrowserActions(),
        sortOrder: DocumentSortOrder = .newestFirst, timing: DocumentBrowserTiming = DocumentBrowserTiming(),
        clock: any Clock<Duration> = ContinuousClock(), thumbnailGenerator: ThumbnailGenerator? = nil
    ) {
        self.library = library
        self.actions = actions
        self.sortOrder = sortOrder
        self.timing = timing
        self.clock = clock
        self.thumbnails = ThumbnailLoader(library: library, generator: thumbnailGenerator)
    }

    // MARK: Loading and watching

    /// Scans the folder (off the main actor) and shows what it holds. Start monitoring first:
    /// a change made during the scan is then not missed.
    public func load() async {
        isLoading = true
        defer { isLoading = false }
        await change(rescanning: true) { _ in [] }
    }

    /// Follows changes to the folder from now on (FileTree's watcher: inotify or kqueue,
    /// coalesced), applying each batch to the index off the main actor.
    public func startMonitoring() throws(DocumentBrowserError) {
        guard watcher == nil else { return }
        let watcher: DirectoryWatcher
        do {
            watcher = try DirectoryWatcher(
                path: library.root, options: DirectoryWatcher.Options(coalescing: timing.watchCoalescing))
        } catch {
            throw DocumentBrowserError(error, "Watching the documents folder")
        }
        self.watcher = watcher
        let changes = watcher.changes
        watchTask = Task { [weak self] in
            for await batch in changes {
                guard let self else { return }
                await self.change { index in index.apply(batch) }
            }
        }
    }

    /// Stops following changes.
    public func stopMonitoring() {
        watcher?.stop()
        watcher = nil
        watchTask?.cancel()
        watchTask = nil
    }

    /// Whether the browser follows changes.
    public var isMonitoring: Bool { watcher != nil }

    /// Looks at these paths again now (after an operation, before the watcher reports it).
    func refresh(_ paths: [String]) async {
        await change { index in index.refresh(paths: paths) }
    }

    /// Applies a change to the index on its queue and shows the result, unless a later change
    /// was shown already.
    func change(
        rescanning: Bool = false, _ body: @escaping @Sendable (inout DocumentIndex) -> Set<DocumentItem.ID>
    ) async {
        let location = location
        let order = sortOrder
        let result = await store.change(
            library: library, location: location, order: order, rescanning: rescanning, body)
        switch result {
        case .failure(let error):
            loadError = error
            items = []
        case .success(let snapshot):
            // Pictures go stale even when a later snapshot was already shown.
            thumbnails.invalidate(snapshot.touched)
            guard snapshot.version > version else { return }
            version = snapshot.version
            index = snapshot.index
            loadError = nil
            if location == self.location && order == sortOrder && isStillThere(location) {
                items = snapshot.items
                pruneSelection()
            } else {
                rebuild()
            }
        }
    }

    /// Shows the current location's items again (after a sort or a move between groups); a
    /// group that went away is left for the nearest group above it that is still there.
    func rebuild() {
        guard let index else { return }
        while !isStillThere(location) {
            location = DocumentIndex.split(location).parent
        }
        items = index.items(in: location, order: sortOrder)
        pruneSelection()
    }

    private func isStillThere(_ location: DocumentItem.ID) -> Bool {
        location.isEmpty || index?.isGroup(location) == true
    }

    private func pruneSelection() {
        guard !selection.isEmpty else { return }
        let shown = Set(items.map(\.id))
        selection.formIntersection(shown)
    }

    // MARK: Looking things up

    /// The item `id` wherever it is (not only at ``location``).
    public func item(_ id: DocumentItem.ID) -> DocumentItem? { index?.item(id) }

    /// How many documents the whole library holds.
    public var documentCount: Int { index?.documentCount ?? 0 }

    /// The folder new documents and imports go to: the group entered, or the root.
    public var currentFolder: String { library.path(of: location) }

    /// Runs blocking file work off the main actor.
    func fileWork<Value: Sendable>(
        _ doing: String, _ work: @escaping @Sendable () throws(FileTreeError) -> Value
    ) async throws(DocumentBrowserError) -> Value {
        do throws(FileTreeError) {
            return try await BlockingWork.run(work)
        } catch {
            throw DocumentBrowserError(error, doing)
        }
    }
}
