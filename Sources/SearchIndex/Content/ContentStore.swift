#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One connection to the content index file: the indexer writes through one, each search reads
/// through one of its own (WAL lets them run side by side). Used by one thread at a time.
///
/// Files are kept in segments: files indexed together get consecutive ids, and for each trigram
/// a segment keeps which of its files hold it (see ``Postings``). The index file holds the files
/// and the list of segments; each segment's postings are a file on the ``SegmentShelf`` it
/// shares with the other connections. A file read again gets a new id in a new segment; its old
/// id stays in its old segment's postings until that segment is merged, and is dropped when a
/// search finds no such file.
final class ContentStore: @unchecked Sendable {
    /// What the store knows of a file.
    struct Known: Equatable, Sendable {
        var size: Int64
        var modified: Int64
    }

    /// A file of a segment being kept: its place in the segment is its place in the list.
    struct Member: Sendable {
        var path: String
        var known: Known
        var indexed: Bool
    }

    /// A segment: the files with ids `first ..< first + span`.
    struct Segment {
        var first: Int64
        var span: Int
    }

    let database: SQLiteDatabase
    /// Where the segments' postings are.
    let shelf: SegmentShelf
    /// Whether the shelf is this connection's own (not shared with a writer that lets go of
    /// segments merged away).
    private let ownsShelf: Bool
    /// The segments written in the transaction under way: removed again if it is rolled back.
    private var writtenInTransaction: [SegmentShelf.Key] = []
    private var statements: [String: SQLiteDatabase.Statement] = [:]
    /// Called by a search once it has listed the segments, before it opens their files (tests
    /// merge segments away here).
    var onSegmentsListed: (() -> Void)?

    /// Opens (and makes and migrates) the file at `path`, its postings on `shelf`; `root` is
    /// kept in it, and a file made for another root is emptied. The shelf is swept: a file of it
    /// that no segment names is removed.
    ///
    /// Each commit is on the disk when it returns (`synchronous = FULL`: the commits are few and
    /// small, and a merge removes its parts' files once committed, which must not come undone).
    ///
    /// - Throws: `.cannotOpen` when another process writes the shelf, `.corrupt` when a segment's
    ///   postings are missing or damaged, and the errors of opening and migrating the file.
    init(path: String, root: String, cacheKiB: Int, shelf: SegmentShelf) throws(SearchIndexError) {
        try shelf.lock()
        database = try SQLiteDatabase(path: path)
        self.shelf = shelf
        ownsShelf = false
        try database.execute(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA cache_size = -\(cacheKiB)")
        try ContentMigrator.migrate(database)
        let stored = try statement("SELECT value FROM info WHERE key = 'root'")
        stored.bind()
        defer { stored.reset() }
        if try stored.step(), stored.text(0) != root {
            try database.execute("DELETE FROM segment; DELETE FROM file")
        }
        let keep = try statement("INSERT OR REPLACE INTO info (key, value) VALUES ('root', ?1)")
        keep.bind(.text(root))
        try keep.step()
        var kept: [Int64: Int] = [:]
        for segment in try segments() { kept[segment.first] = segment.span }
        try shelf.sweep(keeping: kept)
    }

    /// Opens the file at `path` for searches only: it writes nothing, not even its settings.
    /// Its postings are on `shelf` (`nil`: the folder beside the file).
    init(readingAt path: String, cacheKiB: Int, shelf: SegmentShelf? = nil) throws(SearchIndexError) {
        database = try SQLiteDatabase(path: path)
        self.shelf = shelf ?? SegmentShelf(folder: SegmentShelf.folder(besideIndexAt: path))
        ownsShelf = shelf == nil
        try database.execute("PRAGMA cache_size = -\(cacheKiB); PRAGMA query_only = 1")
    }

    /// Opens the file at `path`, its postings on `shelf`; a damaged one (or one whose postings
    /// are), or one of another schema, is removed and made anew (`onRemake` is told why). A file
    /// that cannot be opened for now (the disk failing, descriptors run out, another Browsey
    /// writing it) is left as it is.
    static func openOrRecreate(
        path: String, root: String, cacheKiB: Int, shelf: SegmentShelf, onRemake: (SearchIndexError) -> Void
    ) throws(SearchIndexError) -> ContentStore {
        do {
            return try ContentStore(path: path, root: root, cacheKiB: cacheKiB, shelf: shelf)
        } catch {
            guard path != ":memory:", error.code != .storage, error.code != .cannotOpen else { throw error }
            onRemake(error)
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            return try ContentStore(path: path, root: root, cacheKiB: cacheKiB, shelf: shelf)
        }
    }

    private func statement(_ sql: String) throws(SearchIndexError) -> SQLiteDatabase.Statement {
        if let statement = statements[sql] { return statement }
        let statement = try database.prepare(sql)
        statements[sql] = statement
        return statement
    }

    // MARK: Writing

    /// What is stored of every file at `folder` and below (`""`: everything).
    func known(under folder: String) throws(SearchIndexError) -> [String: Known] {
        let rows = try statement(
            "SELECT path, size, modified FROM file WHERE ?1 = '' OR path = ?1 OR (path >= ?1 || '/' AND path < ?1 || '0')"
        )
        rows.bind(.text(folder))
        var known: [String: Known] = [:]
        while try rows.step() { known[rows.text(0)] = Known(size: rows.int64(1), modified: rows.int64(2)) }
        return known
    }

    /// Forgets one file (its id's bits stay in its segment until the segment is merged).
    func remove(_ path: String) throws(SearchIndexError) {
        let file = try statement("DELETE FROM file WHERE path = ?1")
        file.bind(.text(path))
        try file.step()
    }

    /// The id the next file gets: past every file and every segment, so that no id is given
    /// twice while a segment may still name it.
    func nextID() throws(SearchIndexError) -> Int64 {
        let rows = try statement(
            "SELECT max(coalesce((SELECT max(id) FROM file), 0), coalesce((SELECT max(first + span - 1) FROM segment), 0))"
        )
        rows.bind()
        defer { rows.reset() }
        return try rows.step() ? rows.int64(0) + 1 : 1
    }

    /// Keeps a segment: `members` get the ids from ``nextID()`` on, in order (replacing what
    /// was kept of the same paths), and `blocks` are their postings (see ``SegmentBuilder`` and
    /// ``PostingBlock``). Call it inside a transaction.
    func put(_ members: [Member], blocks: [PostingBlock]) throws(SearchIndexError) {
        guard !members.isEmpty else { return }
        let first = try nextID()
        let file = try statement(
            "INSERT INTO file (id, path, size, modified, indexed) VALUES (?1, ?2, ?3, ?4, ?5)")
        for (place, member) in members.enumerated() {
            try remove(member.path)
            file.bind(
                .integer(first + Int64(place)), .text(member.path), .integer(member.known.size),
                .integer(member.known.modified), .integer(member.indexed ? 1 : 0))
            try file.step()
        }
        guard !blocks.isEmpty else { return }
        try putSegment(Segment(first: first, span: members.count), blocks: blocks)
    }

    /// Writes the segment's postings to the shelf, then names it in the index file (whose
    /// transaction the caller commits; a file left by one that is not is swept at the next start).
    private func putSegment(_ segment: Segment, blocks: [PostingBlock]) throws(SearchIndexError) {
        try shelf.put(first: segment.first, span: segment.span, blocks: blocks)
        writtenInTransaction.append(.init(first: segment.first, span: segment.span))
        let keep = try statement("INSERT INTO segment (first, span) VALUES (?1, ?2)")
        keep.bind(.integer(segment.first), .integer(Int64(segment.span)))
        try keep.step()
    }

    /// How many blocks a segment can have: a block holds 64 keys.
    static let blocksPerSegment: Int64 = Int64(TrigramKeys.count >> 6)

    /// Every segment, newest first.
    func segments(before: Int64 = .max) throws(SearchIndexError) -> [Segment] {
        let rows = try statement("SELECT first, span FROM segment WHERE first < ?1 ORDER BY first DESC")
        rows.bind(.integer(before))
        var segments: [Segment] = []
        while try rows.step() { segments.append(Segment(first: rows.int64(0), span: Int(rows.int64(1)))) }
        return segments
    }

    /// Merges the newest segments while they are small and many: a file saved now and then
    /// makes a segment of one, and a search asks each segment for its trigrams. The newest run of
    /// segments spanning fewer than 512 files each is merged once it is ``mergeWidth`` long (so
    /// a folder of notes saved one at a time stays a few segments), then the newest run of
    /// segments under 4,096 files; a run is taken only as far as it fits in ``mergedSpan``, so no
    /// merge makes a segment wider than the build's. Ids of files no longer kept are dropped.
    /// Then the shelf lets go of any segment open that the index no longer names (a search can
    /// open a part just before it is removed).
    func mergeSmallSegments() throws(SearchIndexError) {
        var merging = true
        while merging {
            merging = false
            let newest = try segments()
            defer {
                if !merging { shelf.keepOnly(Set(newest.map { .init(first: $0.first, span: $0.span) })) }
            }
            guard let end = newest.first.map({ $0.first + Int64($0.span) }) else { return }
            for threshold in [512, 4096] {
                let run = Array(
                    newest.prefix { $0.span < threshold && end - $0.first <= Int64(Self.mergedSpan) }
                        .reversed())
                guard run.count >= Self.mergeWidth, let first = run.first else { continue }
                try merge(run, into: Segment(first: first.first, span: Int(end - first.first)))
                merging = true
                break
            }
        }
    }

    /// How many small segments in a row are merged.
    static let mergeWidth = 8
    /// The widest segment a merge makes: as wide as the build's.
    static let mergedSpan = SegmentBuilder.maximumSpan

    /// Merges `parts` (oldest first, side by side) into `merged`, one block of 64 trigrams at a
    /// time: the parts' blocks are read in block order, so that only one block's rows are
    /// bitmaps at once, whatever the number of trigrams the parts hold. The merged segment's
    /// file is written first, the index file then names it instead of the parts in one
    /// transaction, and the parts' files are removed once it is committed.
    private func merge(_ parts: [Segment], into merged: Segment) throws(SearchIndexError) {
        let words = Postings.words(span: merged.span)
        var live = [UInt64](repeating: 0, count: words)
        let files = try statement("SELECT id FROM file WHERE indexed = 1 AND id >= ?1 AND id < ?2")
        files.bind(.integer(merged.first), .integer(merged.first + Int64(merged.span)))
        while try files.step() {
            let place = Int(files.int64(0) - merged.first)
            live[place >> 6] |= 1 << UInt64(place & 63)
        }
        var sources: [(file: SegmentFile, offset: Int, next: Int)] = []
        for part in parts {
            guard let file = try shelf.segment(first: part.first, span: part.span) else {
                throw SearchIndexError(.corrupt, "The content segment \(part.first)-\(part.span) is missing")
            }
            sources.append((file, Int(part.first - merged.first), 0))
        }
        var blocks: [PostingBlock] = []
        var bitmaps = [[UInt64]?](repeating: nil, count: 64)
        while true {
            // The lowest block number a part has not given yet.
            var number = Int.max
            for source in sources where source.next < source.file.blockCount {
                number = min(number, source.file.number(at: source.next))
            }
            guard number != Int.max else { break }
            for index in sources.indices {
                let source = sources[index]
                guard source.next < source.file.blockCount, source.file.number(at: source.next) == number
                else { continue }
                try source.file.withBlock(at: source.next) { data in
                    PostingBlock.forEachRow(in: data, number: number) { key, _, row in
                        let slot = Int(key & 63)
                        var bitmap = bitmaps[slot].take() ?? [UInt64](repeating: 0, count: words)
                        Postings.forEachPlace(in: row) { place in
                            let at = source.offset + place
                            if at >= 0 && at < merged.span { bitmap[at >> 6] |= 1 << UInt64(at & 63) }
                        }
                        bitmaps[slot] = bitmap
                    }
                }
                sources[index].next += 1
            }
            var rows: [SegmentBuilder.Row] = []
            for slot in 0..<64 {
                guard var bitmap = bitmaps[slot].take() else { continue }
                for word in 0..<words { bitmap[word] &= live[word] }
                let count = bitmap.reduce(0) { $0 + $1.nonzeroBitCount }
                guard count > 0 else { continue }
                rows.append(
                    .init(
                        key: UInt32(number << 6 | slot), count: count,
                        data: bitmap.withUnsafeBufferPointer { Postings.encode($0, count: count) }))
            }
            blocks += PostingBlock.pack(rows)
        }
        if !blocks.isEmpty { try shelf.put(first: merged.first, span: merged.span, blocks: blocks) }
        do {
            try database.transaction { () throws(SearchIndexError) in
                let forget = try statement("DELETE FROM segment WHERE first = ?1")
                for part in parts {
                    forget.bind(.integer(part.first))
                    try forget.step()
                }
                guard !blocks.isEmpty else { return }
                let keep = try statement("INSERT INTO segment (first, span) VALUES (?1, ?2)")
                keep.bind(.integer(merged.first), .integer(Int64(merged.span)))
                try keep.step()
            }
        } catch {
            if !blocks.isEmpty { shelf.remove(first: merged.first, span: merged.span) }
            throw error
        }
        for part in parts { shelf.remove(first: part.first, span: part.span) }
    }

    /// Runs `body` in one transaction; the segments' files it wrote are removed if it is rolled
    /// back.
    func transaction(_ body: () throws(SearchIndexError) -> Void) throws(SearchIndexError) {
        writtenInTransaction = []
        defer { writtenInTransaction = [] }
        do {
            try database.transaction(body)
        } catch {
            for key in writtenInTransaction { shelf.remove(first: key.first, span: key.span) }
            throw error
        }
    }

    // MARK: Reading

    /// Files that may hold every trigram of `keys` (`nil`: every text file), with an id below
    /// `before`, under `folder`, newest id first.
    func candidates(
        _ keys: [UInt32]?, under folder: String, before: Int64, limit: Int
    ) throws(SearchIndexError) -> [ContentCandidate] {
        guard let keys, !keys.isEmpty else {
            let rows = try statement(
                "SELECT id, path FROM file WHERE indexed = 1 AND id < ?1 AND (?2 = '' OR (path >= ?2 || '/' AND path < ?2 || '0')) ORDER BY id DESC LIMIT ?3"
            )
            rows.bind(.integer(before), .text(folder), .integer(Int64(limit)))
            var found: [ContentCandidate] = []
            while try rows.step() { found.append(ContentCandidate(id: rows.int64(0), path: rows.text(1))) }
            return found
        }
        guard limit > 0 else { return [] }
        // A merge committed after the segments were listed removes its parts' files: the search
        // starts again from the segments as they are then (twice at most, then it gives up).
        for _ in 0..<3 {
            if let found = try candidatesOnce(keys, folder: folder, before: before, limit: limit) {
                return found
            }
        }
        throw SearchIndexError(.corrupt, "A segment of the content index is missing")
    }

    /// ``candidates(_:under:before:limit:)`` with `keys`, in one read of the segments; `nil` when
    /// a segment listed was gone from the shelf.
    func candidatesOnce(
        _ keys: [UInt32], folder: String, before: Int64, limit: Int
    ) throws(SearchIndexError) -> [ContentCandidate]? {
        let file = try statement("SELECT path FROM file WHERE id = ?1 AND indexed = 1")
        // One read transaction: the files and the segments as of one moment.
        try database.execute("BEGIN")
        defer {
            file.reset()
            try? database.execute("COMMIT")
        }
        let prefix = Array((folder + "/").utf8)
        var found: [ContentCandidate] = []
        var bitmap: [UInt64] = []
        let listed = try segments(before: before)
        if ownsShelf { shelf.keepOnly(Set(listed.map { .init(first: $0.first, span: $0.span) })) }
        onSegmentsListed?()
        for segment in listed {
            guard let postings = try shelf.segment(first: segment.first, span: segment.span) else {
                return nil
            }
            bitmap = [UInt64](repeating: ~0, count: Postings.words(span: segment.span))
            var empty = false
            for key in keys {
                let held =
                    try postings.withBlock(numbered: Int(key >> 6)) { block in
                        PostingBlock.row(of: key, in: block) { _, data in
                            bitmap.withUnsafeMutableBufferPointer {
                                Postings.apply(data, to: $0, intersect: true)
                            }
                        } != nil
                    } ?? false
                guard held else {
                    empty = true
                    break
                }
            }
            guard !empty else { continue }
            for word in bitmap.indices.reversed() where bitmap[word] != 0 {
                var bits = bitmap[word]
                while bits != 0 {
                    let bit = 63 - bits.leadingZeroBitCount
                    bits &= ~(1 << UInt64(bit))
                    let id = segment.first + Int64(word << 6 | bit)
                    guard id < before, id < segment.first + Int64(segment.span) else { continue }
                    file.bind(.integer(id))
                    guard try file.step() else { continue }
                    let path = file.text(0)
                    // Bytes, not characters: a name starting with a combining mark joins the slash.
                    guard folder.isEmpty || path.utf8.starts(with: prefix) else { continue }
                    found.append(ContentCandidate(id: id, path: path))
                    if found.count == limit { return found }
                }
            }
        }
        return found
    }

    /// About how many files hold the trigram `key` (files since changed may still be counted).
    func fileCount(holding key: UInt32) throws(SearchIndexError) -> Int {
        var total = 0
        for segment in try segments() {
            guard let postings = try shelf.segment(first: segment.first, span: segment.span) else { continue }
            let count: Int?? = try postings.withBlock(numbered: Int(key >> 6)) { block in
                PostingBlock.row(of: key, in: block) { count, _ in count }
            }
            total += (count ?? nil) ?? 0
        }
        return total
    }

    /// How many files hold text.
    func textFileCount() throws(SearchIndexError) -> Int {
        let rows = try statement("SELECT count(*) FROM file WHERE indexed = 1")
        rows.bind()
        defer { rows.reset() }
        return try rows.step() ? Int(rows.int64(0)) : 0
    }
}
