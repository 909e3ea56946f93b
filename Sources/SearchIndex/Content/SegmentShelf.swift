import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a content index keeps its segments' postings: a folder beside the index file, a file a
/// segment (see ``SegmentFile``), or memory for an index in memory. The index file says which
/// segments there are; the shelf holds their postings. One shelf is shared by the thread writing
/// and every search: a segment, once written, never changes, and each is opened once.
///
/// The postings were SQLite blobs before: written through the write-ahead log and copied again
/// by each checkpoint, a page at a time, they cost the thread writing about as much CPU as one
/// thread reading files. A segment's file is written in one call, once.
///
/// A file is written under a temporary name, flushed to the disk and renamed (the folder
/// flushed too) before its segment is committed to the index file; a segment's parts are
/// removed only once the merge that replaced them is committed. What a crash can leave, a file
/// no segment names, is removed when the index opens (``sweep(keeping:)``). The writer holds a
/// lock on the folder (``lock()``), so that a second Browsey on the same folder cannot sweep away
/// what the first has written and not yet committed.
final class SegmentShelf: Sendable {
    /// A segment: its first id and its span. A merged segment has its first part's first id, so
    /// both name it.
    struct Key: Hashable, Sendable {
        var first: Int64
        var span: Int
    }

    /// The folder, or `nil` in memory.
    let folder: String?
    private let opened = Mutex<Opened>(Opened())
    /// The segments open, and how many have been removed (a search opening one checks, when
    /// that count moved, that its file is still there before keeping it).
    private struct Opened {
        var files: [Key: SegmentFile] = [:]
        var removals = 0
    }
    /// The lock file, open and locked by the writer (-1 until ``lock()``).
    private let lockDescriptor = Atomic<Int32>(-1)

    /// The name of the lock file in the folder.
    static let lockName = "lock"

    /// A shelf in `folder` (made by ``sweep(keeping:)`` if missing), or in memory when `folder`
    /// is `nil`.
    init(folder: String?) {
        self.folder = folder
    }

    deinit {
        let descriptor = lockDescriptor.load(ordering: .relaxed)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Makes the folder if missing and locks it for the one writer, waiting up to 2 s for one that
    /// is letting go (an index stopped a moment ago, or a server restarting).
    ///
    /// - Throws: `.cannotOpen` when another writer holds the lock, or the folder cannot be made.
    func lock() throws(SearchIndexError) {
        guard let folder, lockDescriptor.load(ordering: .relaxed) < 0 else { return }
        _ = mkdir(folder, 0o700)
        let path = folder + "/" + Self.lockName
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("open", path) }
        var tries = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            // A file system without locks (some network mounts): one writer is then the
            // person's to keep, as it was before the lock.
            if errno == ENOLCK || errno == EOPNOTSUPP || errno == ENOSYS { break }
            tries += 1
            guard errno == EWOULDBLOCK || errno == EINTR, tries < 40 else {
                close(descriptor)
                throw SearchIndexError(.cannotOpen, "\(folder) is in use by another Browsey")
            }
            usleep(50_000)
        }
        lockDescriptor.store(descriptor, ordering: .relaxed)
    }

    /// Lets go of the lock ``lock()`` took: the writer is done.
    func unlock() {
        let descriptor = lockDescriptor.exchange(-1, ordering: .relaxed)
        if descriptor >= 0 { close(descriptor) }
    }

    /// The folder beside the index file at `path` (`nil` for `:memory:`).
    static func folder(besideIndexAt path: String) -> String? {
        guard path != ":memory:" else { return nil }
        return (path.hasSuffix(".sqlite") ? String(path.dropLast(7)) : path) + ".segments"
    }

    private func path(_ first: Int64, _ span: Int) -> String? {
        folder.map { "\($0)/\(first)-\(span).seg" }
    }

    /// The segment `first`, `span` wide; `nil` when its file is not there (a merge since
    /// committed removed it: the caller's view of the segments is out of date).
    func segment(first: Int64, span: Int) throws(SearchIndexError) -> SegmentFile? {
        let key = Key(first: first, span: span)
        let (kept, removals) = opened.withLock { ($0.files[key], $0.removals) }
        if let kept { return kept }
        guard let path = path(first, span) else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw SearchIndexError(.storage, "Cannot open \(path): \(String(cString: strerror(errno)))")
        }
        let segment = try SegmentFile(first: first, span: span, descriptor: descriptor)
        // Removed meanwhile (its file gone before this check, or its entry after this insert):
        // read by the search that asked, not kept.
        return opened.withLock { open in
            if let kept = open.files[key] { return kept }
            if open.removals != removals, access(path, F_OK) != 0 { return segment }
            open.files[key] = segment
            return segment
        }
    }

    /// Keeps `blocks` as segment `first`, `span` wide: on the disk once this returns, under its
    /// own name. Call it before the segment is committed to the index file.
    func put(first: Int64, span: Int, blocks: [PostingBlock]) throws(SearchIndexError) {
        guard let path = path(first, span) else {
            let segment = try SegmentFile(first: first, span: span, bytes: SegmentFile.encode(blocks))
            opened.withLock { $0.files[Key(first: first, span: span)] = segment }
            return
        }
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary) }
        guard Self.writeSegment(SegmentFile.head(of: blocks), blocks: blocks, to: descriptor),
            fdatasync(descriptor) == 0, rename(temporary, path) == 0, syncFolder()
        else {
            let error = failure("write", temporary)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        let segment = try SegmentFile(first: first, span: span, descriptor: descriptor)
        opened.withLock { $0.files[Key(first: first, span: span)] = segment }
    }

    /// Flushes the folder, so that a rename in it is on the disk.
    private func syncFolder() -> Bool {
        guard let folder else { return true }
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return fsync(descriptor) == 0
    }

    /// Writes `head`, then each block's bytes, gathered into writes of 256 KiB (a buffer for the
    /// whole file, tens of MiB, would be new memory for each segment, faulted in a page at a time).
    private static func writeSegment(_ head: [UInt8], blocks: [PostingBlock], to descriptor: Int32) -> Bool {
        func all(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard let base = bytes.baseAddress else { return true }
            var done = 0
            while done < bytes.count {
                let count = write(descriptor, base + done, bytes.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        let capacity = 256 << 10
        return withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 16) { buffer in
            var used = 0
            func add(_ bytes: UnsafeRawBufferPointer) -> Bool {
                if used + bytes.count > capacity {
                    guard all(UnsafeRawBufferPointer(rebasing: buffer[..<used])) else { return false }
                    used = 0
                    if bytes.count > capacity { return all(bytes) }
                }
                UnsafeMutableRawBufferPointer(rebasing: buffer[used...]).copyMemory(from: bytes)
                used += bytes.count
                return true
            }
            guard head.withUnsafeBytes(add) else { return false }
            for block in blocks {
                guard block.data.withUnsafeBytes(add) else { return false }
            }
            return all(UnsafeRawBufferPointer(rebasing: buffer[..<used]))
        }
    }

    /// Forgets segment `first`, `span` wide, and removes its file. Call it once the index file
    /// no longer names it (a search holding it open reads on).
    func remove(first: Int64, span: Int) {
        if let path = path(first, span) { unlink(path) }
        opened.withLock {
            $0.files[Key(first: first, span: span)] = nil
            $0.removals += 1
        }
    }

    /// Lets go of every segment open but those of `segments` (their descriptors and memory): a
    /// shelf of its own, or the writer's once a merge is over, keeps what the index names.
    func keepOnly(_ segments: Set<Key>) {
        opened.withLock { open in open.files = open.files.filter { segments.contains($0.key) } }
    }

    /// Removes every file of the folder that is not one of `segments` (first → span): what a
    /// crash left between writing a file and committing its segment, or parts of a merge not
    /// yet removed. Then opens each of `segments`.
    ///
    /// - Throws: `.corrupt` when a segment's file is missing or damaged.
    func sweep(keeping segments: [Int64: Int]) throws(SearchIndexError) {
        keepOnly(Set(segments.map { Key(first: $0.key, span: $0.value) }))
        try lock()
        if let folder, let listing = opendir(folder) {
            defer { closedir(listing) }
            while let entry = readdir(listing) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != "..", name != Self.lockName else { continue }
                let parts = name.hasSuffix(".seg") ? name.dropLast(4).split(separator: "-") : []
                if parts.count == 2, let first = Int64(parts[0]), let span = Int(parts[1]),
                    segments[first] == span, name == "\(first)-\(span).seg"
                {
                    continue
                }
                unlink(folder + "/" + name)
            }
        }
        for (first, span) in segments {
            guard try segment(first: first, span: span) != nil else {
                throw SearchIndexError(.corrupt, "The content segment \(first)-\(span) is missing")
            }
        }
    }

    /// How many segments are open.
    var openCount: Int { opened.withLock { $0.files.count } }

    /// The bytes the segments open take.
    var bytes: Int64 { opened.withLock { $0.files.values.reduce(0) { $0 + $1.size } } }

    private func failure(_ what: String, _ path: String) -> SearchIndexError {
        let code: SearchIndexError.Code = errno == ENOSPC || errno == EIO ? .storage : .cannotOpen
        return SearchIndexError(code, "Cannot \(what) \(path): \(String(cString: strerror(errno)))")
    }
}
