import Dispatch
public import FileTree
public import Logging
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Every name under a folder, searchable in milliseconds and never stale for long: built in
/// the background once it runs (from the index file of the last run when there is one, then
/// reconciled with the disk), kept fresh by a ``DirectoryWatcher``, and saved in SQLite.
///
/// ```swift
/// let index = NameIndex(options: .init(root: "/srv/files", storeFolder: "/var/cache/browsey"))
/// let running = Task { await index.run() }   // or as a `Service`: the caller owns its lifecycle
/// await index.waitUntilReady()
/// for hit in index.search(SearchQuery(text: "report")) ?? [] { print(hit.path, hit.score) }
/// for await item in index.feed.subscribe().items { print(item) }   // live changes
/// ```
public final class NameIndex: Sendable {
    /// What to index and where to keep it.
    public struct Options: Sendable {
        /// The indexed folder, absolute.
        public var root: String
        /// Which names are indexed (hidden and ignored names as the server lists them).
        public var filter: EntryFilter
        /// The index file, or `nil` to keep the index in memory only.
        public var storePath: String?
        /// How long changes are gathered before they are applied.
        public var coalescing: Duration

        /// Options for `root`.
        public init(
            root: String, filter: EntryFilter = .visible, storePath: String? = nil,
            coalescing: Duration = .milliseconds(50)
        ) {
            self.root = root
            self.filter = filter
            self.storePath = storePath
            self.coalescing = coalescing
        }
    }

    /// Where the index is in its life.
    public enum Phase: String, Sendable {
        /// Reading the last run's file or the disk; searches cannot be answered yet.
        case building
        /// Answering from what the last run saved while the disk is compared with it.
        case reconciling
        /// Current, and kept current by the watcher.
        case ready
        /// Stopped.
        case stopped
    }

    private struct State {
        var catalog = Catalog()
        /// Counts the catalogs published, so that a name order is used only with its own.
        var generation = 0
        /// The names of catalog `generation` in order and by pair, once built (see
        /// ``NameOrder`` and ``NameGrams``).
        var nameOrder: (generation: Int, order: NameOrder, grams: NameGrams)?
        var phase = Phase.building
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The options it was made with.
    public let options: Options
    /// The changes it sees, for live views.
    public let feed = ChangeFeed()
    private let state = Mutex(State())
    private let maintainer: IndexMaintainer
    private let appliedChanges = AppliedChanges()
    private let logger: Logger

    /// An index of `options.root`, idle until ``run()`` builds and maintains it;
    /// ``search(_:)`` answers once it can.
    ///
    /// - Parameter watcher: a watcher of `options.root` with the same filter whose ``DirectoryWatcher/changes``
    ///   nobody else reads (a server shares one between its listing cache and its index); by
    ///   default the index starts its own when it runs.
    public init(
        options: Options, watcher: DirectoryWatcher? = nil,
        logger: Logger = Logger(label: "Browsey.SearchIndex")
    ) {
        self.options = options
        self.logger = logger
        maintainer = IndexMaintainer(
            options: options, sharedWatcher: watcher, appliedChanges: appliedChanges, logger: logger)
    }

    /// Builds the index, then keeps it current until the calling task is cancelled or the
    /// watcher stops; the index is ``Phase/stopped`` once it returns. This is its whole
    /// lifecycle: the server runs it as a `Service`, anyone else in a task they own and cancel.
    public func run() async {
        await maintainer.run(publish: handOver())
        publish(nil, phase: .stopped)
    }

    /// What the maintainer calls with each catalog; it holds the index weakly, so the
    /// maintainer never keeps an index alive that nothing else holds.
    private func handOver() -> IndexMaintainer.Publish {
        { [weak self] catalog, phase, changes in
            guard let self else { return false }
            self.publish(catalog, phase: phase)
            self.feed.publish(changes)
            return true
        }
    }

    /// Where the index is in its life.
    public var phase: Phase { state.withLock { $0.phase } }

    /// Whether a search asked now reads a catalog that holds everything done to the tree before
    /// the call: the index is ready and its watcher, on kernel events, has handled everything the
    /// kernel queued and reported no change the catalog does not hold yet. Never waits; `false`
    /// whenever that cannot be proved (while building, during a batch, in polling mode, or with
    /// kqueue). A search's hits need no look at the disk while it is `true`.
    public var isCurrent: Bool { phase == .ready && appliedChanges.isCurrent }

    /// The current catalog, once the index can answer (the content index reads it).
    var catalogSnapshot: Catalog? {
        state.withLock { state in
            state.phase == .ready || state.phase == .reconciling ? state.catalog : nil
        }
    }

    /// How many entries it holds.
    public var entryCount: Int { state.withLock { $0.catalog }.entryCount }

    /// Returns once the index is current (or stopped).
    public func waitUntilReady() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                guard state.phase == .building || state.phase == .reconciling else { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func publish(_ catalog: Catalog?, phase: Phase) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if let catalog {
                state.catalog = catalog
                state.generation += 1
                state.nameOrder = nil
            }
            guard state.phase != .stopped else { return [] }
            state.phase = phase
            guard phase == .ready || phase == .stopped else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
        if catalog != nil && (phase == .ready || phase == .reconciling) { scheduleNameOrder() }
    }

    /// Builds the name order of the current catalog once no change has come for a quarter of a
    /// second, on a background queue (a burst of changes builds it once, at the end).
    private func scheduleNameOrder() {
        let scheduled = state.withLock { $0.generation }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(250)) { [weak self] in
            guard let self else { return }
            let catalog: Catalog? = self.state.withLock { state in
                state.generation == scheduled && state.phase != .stopped ? state.catalog : nil
            }
            guard let catalog else { return }  // a later catalog has its own turn
            let started = ContinuousClock.now
            let order = NameOrder(catalog.folders)
            let grams = NameGrams(order)
            self.logger.debug(
                "Names in order and by pair (\(grams.byteCount) bytes): \(catalog.entryCount) in \(ContinuousClock.now - started)"
            )
            self.state.withLock { state in
                if state.generation == scheduled { state.nameOrder = (scheduled, order, grams) }
            }
            FreeHeap.release()  // the burst of building is over
        }
    }

    /// Whether the current catalog's name order is built (tests wait for it).
    var hasNameOrder: Bool { state.withLock { $0.nameOrder?.generation == $0.generation } }

    /// The best hits for `query`, best first; `nil` while the index is still being built (walk
    /// the tree instead). Hits are what the index saw last: a caller serving them checks each
    /// path again.
    public func search(_ query: SearchQuery) -> [SearchHit]? {
        let current: (Catalog, NameOrder?, NameGrams?)? = state.withLock { state in
            guard state.phase == .ready || state.phase == .reconciling else { return nil }
            let built = state.nameOrder?.generation == state.generation ? state.nameOrder : nil
            return (state.catalog, built?.order, built?.grams)
        }
        guard let (catalog, order, grams) = current else { return nil }
        return Self.search(query, in: catalog, order: order, grams: grams)
    }

    /// The best hits for `query` in `catalog`: from `order` (the same catalog's names in order)
    /// when they are all prefix matches, else from `grams` (the same catalog's names by pair)
    /// when they are all substring matches; else from `grams` again, scattered letters too,
    /// when a scan would read at least `scattersAt` names (as ``sample(_:letters:under:)``
    /// estimates); else by scanning every name.
    ///
    /// A scan, or a reading of scattered letters, that would read at least `splitsAt` names (as
    /// ``sample(_:letters:under:)`` estimates) runs in two halves at once when no other runs
    /// and the machine has a second core (see ``Splitting``).
    static func search(
        _ query: SearchQuery, in catalog: Catalog, order: NameOrder? = nil, grams: NameGrams? = nil,
        splitting: Splitting = .whenIdle, splitsAt: Int = 200_000, scattersAt: Int = 20_000
    ) -> [SearchHit] {
        let matcher = NameMatcher(query.text)
        guard matcher != nil || query.hasFilters else { return [] }
        var folder = query.folder
        while folder.hasSuffix("/") { folder.removeLast() }
        if let order, let matcher, let top = order.prefixHits(for: query, text: matcher.query, under: folder)
        {
            return hits(top.sorted())
        }
        if let grams, let matcher, let top = grams.substringHits(for: query, matcher: matcher, under: folder)
        {
            return hits(top.sorted())
        }
        let folders = catalog.folders
        let scans = scansRunning.add(1, ordering: .relaxed).newValue
        defer { scansRunning.subtract(1, ordering: .relaxed) }
        let alone = scans == 1 && processorCount > 1
        // Scattered letters from the pair lists, when a scan would read many names (a scan of
        // a few folders, or of the few holding a rare letter, is quicker than counting lists
        // over every name); read in two halves at once as a scan is.
        if let grams, let matcher,
            let estimate = Self.sample(folders, letters: matcher.mask, under: folder),
            estimate.names >= scattersAt,
            let best = grams.scatteredHits(
                for: query, matcher: matcher, under: folder,
                inHalves: splitting == .always
                    || (splitting == .whenIdle && alone && estimate.names >= splitsAt))
        {
            return hits(best)
        }
        // Many names to read are read in two halves at once while no other scan runs (a second
        // core would otherwise idle); a few are read here, which is quicker than waking a thread.
        let middle: Int? =
            switch splitting {
            case .never: nil
            case .always: folders.count >= 2 ? folders.count / 2 : nil
            case .whenIdle:
                alone && catalog.entryCount >= splitsAt
                    ? Self.sample(folders, letters: matcher?.mask ?? 0, under: folder).flatMap {
                        $0.names >= splitsAt ? $0.middle : nil
                    } : nil
            }
        guard let middle else {
            var top = TopHits(limit: query.limit)
            scan(folders[...], for: query, matcher: matcher, under: folder, into: &top)
            return hits(top.sorted())
        }
        // Each half keeps its own best hits.
        let under = folder
        return hits(
            TopHits.best(of: (folders[..<middle], folders[middle...]), limit: query.limit) { part in
                var top = TopHits(limit: query.limit)
                scan(part, for: query, matcher: matcher, under: under, into: &top)
                return top.sorted()
            })
    }

    /// Whether a scan may run in two halves at once.
    enum Splitting {
        /// When the folders to read hold many names, no other scan runs and there is a second
        /// core.
        case whenIdle
        /// Always (for tests: the halves' answer must be one scan's).
        case always
        /// Never.
        case never
    }

    /// How many processors the machine has (a scan uses two at most).
    private static let processorCount = ProcessInfo.processInfo.activeProcessorCount

    /// How many scans and readings of scattered letters run now, in every index of the
    /// process: one is split only when it runs alone.
    private static let scansRunning = Atomic<Int>(0)

    /// How far apart the folders are that estimate how many names a scan reads.
    static let sampleStride = 64

    /// How many names a scan of `folders` would read, estimated from every 64th folder (whether
    /// it lies under `folder` and holds every one of `letters` among its names, and how many
    /// names it holds), and the folder at which the sampled names are half behind (where a
    /// second half would start); `nil` for fewer than two folders.
    static func sample(
        _ folders: [FolderRecord], letters: UInt64, under folder: String
    ) -> (names: Int, middle: Int)? {
        guard folders.count >= 2 else { return nil }
        var behind: [Int] = []
        behind.reserveCapacity(folders.count / sampleStride + 1)
        var total = 0
        for position in stride(from: 0, to: folders.count, by: sampleStride) {
            let record = folders[position]
            if record.anyMask & letters == letters && record.lies(in: folder) {
                total += record.entries.count
            }
            behind.append(total)
        }
        let half = behind.firstIndex { $0 * 2 >= total } ?? 0
        return (total * sampleStride, min(max(1, half * sampleStride), folders.count - 1))
    }

    /// Offers every name of `folders` under `folder` that matches `query` to `top`.
    private static func scan(
        _ folders: ArraySlice<FolderRecord>, for query: SearchQuery, matcher: NameMatcher?,
        under folder: String,
        into top: inout TopHits
    ) {
        let text = matcher?.query ?? []
        // Plain values hoisted out of the loop: binding the optional matcher there would retain
        // its query once per name.
        let matching = matcher != nil
        let mask = matcher?.mask ?? 0
        let pairMask = matcher?.pairMask ?? 0
        let words = matcher?.words ?? []
        let length = text.count
        // Without filters an entry needs no look at its metadata (no copy of its name): only
        // a hidden name is left out, seen on its first folded byte.
        let filtering = query.hasFilters
        let hidesHidden = !query.includesHidden
        text.withUnsafeBufferPointer { text in
            for record in folders
            where record.anyMask & mask == mask && record.lies(in: folder)
                && (query.includesHidden || !record.isHidden)
            {
                record.folded.withUnsafeBufferPointer { folded in
                    record.foldedEnds.withUnsafeBufferPointer { ends in
                        record.masks.withUnsafeBufferPointer { masks in
                            record.pairMasks.withUnsafeBufferPointer { pairMasks in
                                var start = 0
                                for index in 0..<ends.count {
                                    let end = Int(ends[index])
                                    defer { start = end }
                                    var score = 0
                                    if matching {
                                        guard
                                            NameMatcher.mayReach(
                                                top.minimum, count: end - start, length: length),
                                            masks[index] & mask == mask,
                                            case let holdsPairs = pairMasks[index] & pairMask == pairMask,
                                            top.minimum < 1_000 || holdsPairs,
                                            holdsPairs || !words.isEmpty
                                                || NameMatcher.mayScatter(
                                                    top.minimum, count: end - start,
                                                    missingPairs: (pairMask & ~pairMasks[index])
                                                        .nonzeroBitCount),
                                            let found = words.isEmpty
                                                ? NameMatcher.score(
                                                    UnsafeBufferPointer(rebasing: folded[start..<end]),
                                                    query: text, minimum: top.minimum, substring: holdsPairs)
                                                : NameMatcher.score(
                                                    UnsafeBufferPointer(rebasing: folded[start..<end]),
                                                    phrase: text, words: words, minimum: top.minimum),
                                            top.mayTake(score: found, depth: record.depth)
                                        else { continue }
                                        score = found
                                    }
                                    if filtering {
                                        guard query.admits(record.entries, at: index) else { continue }
                                    } else if hidesHidden && end > start && folded[start] == UInt8(ascii: ".")
                                    {
                                        continue
                                    }
                                    top.offer(
                                        .init(
                                            score: score,
                                            secondary: matching ? 0 : record.entries.modified[index],
                                            record: record,
                                            index: index,
                                            name: UnsafeBufferPointer(rebasing: folded[start..<end])))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private static func hits(_ top: [TopHits.Candidate]) -> [SearchHit] {
        top.map {
            SearchHit(path: $0.record.path(of: $0.index), entry: $0.record.entries[$0.index], score: $0.score)
        }
    }
}
