import Dispatch
import FileTree
public import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What text files say, searchable by any three or more characters: for each trigram of each
/// text file's folded text (lowercase, accents dropped, as names are folded), which files hold
/// it, kept in segments: the files and segments in an SQLite file (see ``ContentStore``), each
/// segment's postings a file in a folder beside it (see ``SegmentShelf``). It follows a ``NameIndex``:
/// built in the background once the names are ready (reconciled by size and date with what the
/// last run saved), then kept fresh by the names' change feed.
///
/// ```swift
/// let content = ContentIndex(options: .init(root: root, storePath: cache + "/content.sqlite"), names: index)
/// Task { await content.run() }
/// let pattern = try ContentPattern(text: "quarterly report")
/// for candidate in content.candidates(pattern) ?? [] { /* read it, then pattern.matcher().lines(in:limit:) */ }
/// ```
///
/// The index answers which files may match; a caller reads each one (it may have changed since)
/// and finds the lines with a ``ContentMatcher``.
public final class ContentIndex: Sendable {
    /// What to index and where to keep it.
    public struct Options: Sendable {
        /// The indexed folder, absolute (the name index's).
        public var root: String
        /// The index file, or `nil` to keep it in memory. The segments' postings are kept in a
        /// folder beside it: `content.sqlite` keeps `content.segments`.
        public var storePath: String?
        /// Extensions (lowercase, no dot) and whole names (`makefile`) of text files, besides
        /// what the content-type registry calls text.
        public var textExtensions: Set<String>
        /// Files larger than this are not read (4 MiB).
        public var maximumFileSize: Int64

        /// Options for `root`.
        public init(
            root: String, storePath: String? = nil, textExtensions: Set<String> = [],
            maximumFileSize: Int64 = 4 << 20
        ) {
            self.root = root
            self.storePath = storePath
            self.textExtensions = textExtensions
            self.maximumFileSize = maximumFileSize
        }
    }

    /// Where the index is in its life.
    public enum Phase: String, Sendable {
        /// Waiting for the name index.
        case waiting
        /// Reading the files that changed since the last run (all of them, the first time).
        case building
        /// Current, and kept current.
        case ready
        /// Stopped.
        case stopped
    }

    /// How far it is.
    public struct Progress: Sendable, Hashable {
        /// Where it is.
        public var phase: Phase
        /// Files read in the current build.
        public var filesRead: Int
        /// Files the current build reads in all.
        public var filesToRead: Int
        /// Files whose text is in the index.
        public var textFiles: Int
        /// The index file's size with its write-ahead log and its segments' files, in bytes (0 in
        /// memory).
        public var bytesOnDisk: Int64
    }

    private enum Job: Hashable {
        case everything
        case path(String)
    }

    private struct State {
        var progress = Progress(phase: .waiting, filesRead: 0, filesToRead: 0, textFiles: 0, bytesOnDisk: 0)
        var pending: [Job] = []
        var pendingSet = Set<Job>()
        var busy = false
        var stopping = false
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var readers: [ContentStore] = []
        /// The indexing thread is running.
        var working = false
        /// Waiting for the indexing thread to let go of the writer and its lock.
        var workEndWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The options it was made with.
    public let options: Options
    private let names: NameIndex
    private let logger: Logger
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    /// The writer, and for an index in memory the only connection (then reads share its lock).
    private let writer = Mutex<ContentStore?>(nil)
    /// The segments' postings, shared by the writer and every reader.
    private let shelf: SegmentShelf
    /// How many files hold each trigram lately asked for.
    private let frequencies = Mutex(TrigramFrequencies())

    /// An index of the text of `names`' files, idle until ``run()``.
    public init(options: Options, names: NameIndex, logger: Logger = Logger(label: "Browsey.ContentIndex")) {
        self.options = options
        shelf = SegmentShelf(folder: SegmentShelf.folder(besideIndexAt: options.storePath ?? ":memory:"))
        self.names = names
        self.logger = logger
    }

    /// How far it is.
    public var progress: Progress { state.withLock { $0.progress } }

    /// Waits for the names, builds, then follows the names' changes until the calling task is
    /// cancelled; the index is ``Phase/stopped`` once it returns, its file closed and its folder
    /// free for another index to open.
    public func run() async {
        await names.waitUntilReady()
        guard !Task.isCancelled, names.phase == .ready, openWriter() else {
            finish()
            return
        }
        state.withLock { $0.working = true }
        guard DetachedThread.start(name: "Index.Content", nice: 10, { [self] in work() }) else {
            logger.warning("Content index: no thread to build it on, searching inside files is off")
            state.withLock { $0.working = false }
            writer.withLock { $0 = nil }
            shelf.unlock()
            finish()
            return
        }
        var subscription = names.feed.subscribe(buffer: 4096)
        enqueue([.everything])
        while !Task.isCancelled {
            for await item in subscription.items {
                guard !Task.isCancelled else { break }
                switch item {
                case .event(let event):
                    var jobs = [Job.path(event.change.path)]
                    if let from = event.change.from { jobs.append(.path(from)) }
                    enqueue(jobs)
                case .reset: enqueue([.everything])
                case .heartbeat: break
                }
            }
            // Dropped for falling behind (or the index stopped): read everything again.
            guard !Task.isCancelled, names.phase != .stopped else { break }
            subscription = names.feed.subscribe(buffer: 4096)
            enqueue([.everything])
        }
        finish()
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state -> Bool in
                guard state.working else { return true }
                state.workEndWaiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    private func finish() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.stopping = true
            state.progress.phase = .stopped
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        wake.signal()
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once every change seen so far is in the index (or it stopped); tests wait here.
    public func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.stopping || (!state.busy && state.pending.isEmpty && state.progress.phase == .ready)
                {
                    return true
                }
                state.idleWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func enqueue(_ jobs: [Job]) {
        state.withLock { state in
            for job in jobs where state.pendingSet.insert(job).inserted { state.pending.append(job) }
        }
        wake.signal()
    }

    // MARK: Searching

    /// Files whose text may match `pattern`, newest reading first, `limit` at most, after
    /// `before` (the last candidate's id of a previous page); `nil` before the index is open.
    /// While it builds, only what it has read is found (see ``progress``).
    public func candidates(
        _ pattern: ContentPattern, under folder: String = "", before: Int64? = nil, limit: Int = 64
    ) throws(SearchIndexError) -> [ContentCandidate]? {
        var folder = folder == "/" ? "" : folder
        while folder.hasSuffix("/") { folder.removeLast() }
        let before = before ?? Int64.max
        guard let path = options.storePath else {
            return try writer.withLock { store throws(SearchIndexError) -> [ContentCandidate]? in
                guard let store else { return nil }
                return try store.candidates(
                    plan(pattern, reading: store), under: folder, before: before, limit: limit)
            }
        }
        guard state.withLock({ $0.progress.phase != .waiting && $0.progress.phase != .stopped }) else {
            return nil
        }
        let reader: ContentStore
        if let kept = state.withLock({ $0.readers.popLast() }) {
            reader = kept
        } else {
            reader = try ContentStore(readingAt: path, cacheKiB: 1024, shelf: shelf)
        }
        defer { state.withLock { $0.readers.append(reader) } }
        return try reader.candidates(
            plan(pattern, reading: reader), under: folder, before: before, limit: limit)
    }

    /// The trigram keys that narrow `pattern`'s files (see ``TrigramPlan``), counting through
    /// `store` the trigrams not counted lately; `nil` when nothing narrows.
    private func plan(_ pattern: ContentPattern, reading store: ContentStore) -> [UInt32]? {
        guard !pattern.literals.isEmpty else { return nil }
        let files = state.withLock { $0.progress.textFiles }
        let trigrams: [String]
        if files == 0 {
            trigrams = pattern.indexTrigrams ?? []
        } else {
            let now = ContinuousClock.now
            trigrams =
                TrigramPlan(literals: pattern.literals, files: files) { trigram in
                    if let count = frequencies.withLock({ $0.count(of: trigram, at: now) }) { return count }
                    let count =
                        (try? store.fileCount(holding: TrigramKeys.key(of: Array(trigram.utf8)))) ?? files
                    frequencies.withLock { $0.keep(count, of: trigram, at: now) }
                    return count
                }.trigrams
        }
        return trigrams.map { TrigramKeys.key(of: Array($0.utf8)) }
    }

    // MARK: Indexing

    private func openWriter() -> Bool {
        let path = options.storePath ?? ":memory:"
        if options.storePath != nil { makeFolders(upTo: path) }
        do {
            let store = try ContentStore.openOrRecreate(
                path: path, root: options.root, cacheKiB: 2048, shelf: shelf
            ) { error in
                if error.code == .olderVersion {
                    logger.info("Content index: \(path) is of an older Browsey, building it again")
                } else {
                    logger.warning("Content index: \(path) is damaged, building it again (\(error))")
                }
            }
            let count = try store.textFileCount()
            writer.withLock { $0 = store }
            state.withLock {
                $0.progress.textFiles = count
                $0.progress.phase = .building
            }
            return true
        } catch {
            shelf.unlock()
            logger.warning("Content index: cannot open \(path), searching inside files is off (\(error))")
            return false
        }
    }

    /// The indexing thread: takes the pending jobs, does them, until stopped; then closes the
    /// writer, letting go of the shelf's lock.
    private func work() {
        defer {
            writer.withLock { $0 = nil }
            shelf.unlock()
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.working = false
                defer { state.workEndWaiters = [] }
                return state.workEndWaiters
            }
            for waiter in waiters { waiter.resume() }
        }
        while true {
            wake.wait()
            while true {
                let jobs = state.withLock { state -> [Job]? in
                    guard !state.stopping else { return nil }
                    let jobs = state.pending
                    state.pending = []
                    state.pendingSet = []
                    state.busy = !jobs.isEmpty
                    return jobs
                }
                guard let jobs else { return }
                guard !jobs.isEmpty else { break }
                guard let catalog = names.catalogSnapshot else { return }
                if jobs.contains(.everything) {
                    reconcile("", catalog: catalog, first: true)
                } else {
                    for case .path(let path) in jobs { reconcile(path, catalog: catalog, first: false) }
                }
                let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.busy = false
                    guard state.pending.isEmpty, state.progress.phase == .ready else { return [] }
                    defer { state.idleWaiters = [] }
                    return state.idleWaiters
                }
                for waiter in waiters { waiter.resume() }
            }
        }
    }

    /// Brings the index of `path` (a file or a folder with everything below it, `""` the root)
    /// in line with the catalog: reads what is new or changed, forgets what is gone.
    private func reconcile(_ path: String, catalog: Catalog, first: Bool) {
        let clock = ContinuousClock()
        let started = clock.now
        var wanted: [String: (known: ContentStore.Known, name: String)] = [:]
        if catalog.record(at: path) != nil {
            for folder in path.isEmpty ? catalog.folders : catalog.subtree(path)
            where !Self.isHidden(folder.path) {
                for entry in folder.entries where entry.kind == .file && isIndexable(entry) {
                    wanted[folder.path + "/" + entry.name] = (
                        .init(size: entry.size, modified: entry.modified), entry.name
                    )
                }
            }
        } else if let slash = path.lastIndex(of: "/"),
            let record = catalog.record(at: String(path[..<slash])),
            let index = record.entries.firstIndex(named: path[path.index(after: slash)...]),
            case let entry = record.entries[index],
            entry.kind == .file, isIndexable(entry), !Self.isHidden(path)
        {
            wanted[path] = (.init(size: entry.size, modified: entry.modified), entry.name)
        }
        let isFirstBuild = first && state.withLock { $0.progress.phase == .building }
        writer.withLock { store in
            guard let store else { return }
            do {
                let known = try store.known(under: path)
                let gone = known.keys.filter { wanted[$0] == nil }
                var reading = wanted.filter { known[$0.key] != $0.value.known }.map {
                    ($0.key, $0.value.known)
                }
                // Oldest first: the newest get the highest ids, and searches go newest first.
                reading.sort { $0.1.modified < $1.1.modified }
                if isFirstBuild {
                    logger.info(
                        "Content index: reading \(reading.count) text files (\(known.count - gone.count) kept from the last run)"
                    )
                    state.withLock {
                        $0.progress.filesToRead = reading.count
                        $0.progress.filesRead = 0
                    }
                }
                try store.transaction { () throws(SearchIndexError) in
                    for path in gone { try store.remove(path) }
                }
                try keep(reading, in: store, counting: isFirstBuild)
                guard !state.withLock({ $0.stopping }) else { return }
                try store.mergeSmallSegments()
                let count = try store.textFileCount()
                let size = bytesOnDisk()
                state.withLock {
                    $0.progress.textFiles = count
                    $0.progress.bytesOnDisk = size
                }
                if isFirstBuild {
                    logger.info(
                        "Content index: \(count) text files ready in \(clock.now - started), \(size / 1_048_576) MiB on disk"
                    )
                }
            } catch {
                logger.warning("Content index: cannot save what \(path.isEmpty ? "/" : path) says (\(error))")
            }
        }
        if first { state.withLock { if $0.progress.phase == .building { $0.progress.phase = .ready } } }
        writer.withLock { $0?.database.releaseMemory() }  // up to its 2 MiB cache, filled by writing
        FreeHeap.release()
    }

    /// Whether a file's name says text and its size is under the limit.
    private func isIndexable(_ entry: IndexedEntry) -> Bool {
        guard entry.size <= options.maximumFileSize else { return false }
        let name = entry.name
        let ext =
            FileName.pathExtension(of: name).map { $0.lowercased() }
            ?? String(name.drop { $0 == "." }).lowercased()
        if options.textExtensions.contains(ext) { return true }
        return ContentTypeRegistry.standard.type(forFileName: name).isText
    }

    private static func isHidden(_ path: String) -> Bool { path.contains("/.") }

    /// Reads `files` (oldest first: they get ids in this order, and searches go newest first)
    /// on every core, and keeps them in segments of up to ``segmentSpan`` files; `counting`:
    /// the first build's progress counts them (a later change's files are not its).
    private func keep(
        _ files: [(String, ContentStore.Known)], in store: ContentStore, counting: Bool
    ) throws(SearchIndexError) {
        var chunks: [Range<Int>] = []
        var start = 0
        var bytes: Int64 = 0
        for (index, file) in files.enumerated() {
            if index - start == Self.segmentSpan || (bytes > Self.chunkBytes && index > start) {
                chunks.append(start..<index)
                start = index
                bytes = 0
            }
            bytes += file.1.size
        }
        if start < files.count { chunks.append(start..<files.count) }
        let cut = chunks
        let work = OrderedWork<[SegmentPiece]>(
            count: chunks.count, threads: chunks.count > 1 ? Self.readingThreads : 0, ahead: 2,
            name: "Index.Content", nice: 10
        ) { [self] in
            let builder = SegmentBuilder(span: Self.segmentSpan)
            let reader = ContentReader(root: options.root, limit: Int(options.maximumFileSize))
            return { [self] index in extract(files[cut[index]], builder: builder, reader: reader) }
        }
        defer { work.finish() }
        for index in chunks.indices {
            guard !state.withLock({ $0.stopping }), let pieces = work.result(index) else { return }
            try store.transaction { () throws(SearchIndexError) in
                for piece in pieces { try store.put(piece.members, blocks: piece.blocks) }
            }
            let count = try store.textFileCount()
            state.withLock {
                if counting { $0.progress.filesRead += chunks[index].count }
                $0.progress.textFiles = count
            }
        }
    }

    /// The most files in one segment.
    static let segmentSpan = SegmentBuilder.maximumSpan
    /// A chunk of files read together ends past this many bytes.
    private static let chunkBytes: Int64 = 64 << 20
    /// Threads reading files while the index is built.
    private static let readingThreads = 2

    /// One segment's worth of files read: what is kept of each, and their postings.
    private struct SegmentPiece: Sendable {
        var members: [ContentStore.Member]
        var blocks: [PostingBlock]
    }

    /// Reads `files` into segments: one, unless its builder's bitmaps would pass
    /// ``SegmentBuilder/maximumBytes`` (a file alone never does: its group takes at most 512 KiB).
    private func extract(
        _ files: ArraySlice<(String, ContentStore.Known)>, builder: SegmentBuilder,
        reader: ContentReader
    ) -> [SegmentPiece] {
        var pieces: [SegmentPiece] = []
        var members: [ContentStore.Member] = []
        builder.reset(span: min(files.count, SegmentBuilder.maximumSpan))
        reader.forgetFolders()
        for (offset, (path, known)) in files.enumerated() {
            let remaining = min(files.count - offset, SegmentBuilder.maximumSpan)
            let size = Int(min(max(known.size, 0), options.maximumFileSize))
            if builder.files > 0,
                builder.files == builder.span || builder.bytes(adding: size) > SegmentBuilder.maximumBytes
            {
                pieces.append(SegmentPiece(members: members, blocks: PostingBlock.pack(builder.rows())))
                members = []
                builder.reset(span: remaining)
            }
            let indexed = reader.withText(of: path) { builder.add($0, ascii: $1) }
            if !indexed { builder.skip() }
            members.append(.init(path: path, known: known, indexed: indexed))
        }
        if !members.isEmpty {
            pieces.append(SegmentPiece(members: members, blocks: PostingBlock.pack(builder.rows())))
        }
        return pieces
    }

    private func bytesOnDisk() -> Int64 {
        guard let path = options.storePath else { return 0 }
        var total = shelf.bytes
        for suffix in ["", "-wal"] {
            var status = stat()
            if stat(path + suffix, &status) == 0 { total += Int64(status.st_size) }
        }
        return total
    }

    private func makeFolders(upTo file: String) {
        var folder = ""
        for component in file.split(separator: "/").dropLast() {
            folder += "/" + component
            _ = mkdir(folder, 0o700)
        }
    }
}
