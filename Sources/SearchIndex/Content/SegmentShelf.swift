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
/// A file is written under a temporary name, flushed to the disk and renamed before its segment
/// is committed to the index file; a segment's parts are removed only once the merge that
/// replaced them is committed. What a crash can leave, a file no segment names, is removed when
/// the index opens (``sweep(keeping:)``).
final class SegmentShelf: Sendable {
    /// The folder, or `nil` in memory.
    let folder: String?
    private let opened = Mutex<[Int64: SegmentFile]>([:])

    /// A shelf in `folder` (made by ``sweep(keeping:)`` if missing), or in memory when `folder`
    /// is `nil`.
    init(folder: String?) {
        self.folder = folder
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
        if let kept = opened.withLock({ $0[first] }), kept.span == span { return kept }
        guard let path = path(first, span) else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw SearchIndexError(.storage, "Cannot open \(path): \(String(cString: strerror(errno)))")
        }
        let segment = try SegmentFile(first: first, span: span, descriptor: descriptor)
        opened.withLock { open in
            if let kept = open[first], kept.span > span { return }
            open[first] = segment
        }
        return segment
    }

    /// Keeps `blocks` as segment `first`, `span` wide: on the disk once this returns, under its
    /// own name. Call it before the segment is committed to the index file.
    func put(first: Int64, span: Int, blocks: [PostingBlock]) throws(SearchIndexError) {
        guard let path = path(first, span) else {
            let segment = try SegmentFile(first: first, span: span, bytes: SegmentFile.encode(blocks))
            opened.withLock { $0[first] = segment }
            return
        }
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary) }
        guard Self.writeSegment(SegmentFile.head(of: blocks), blocks: blocks, to: descriptor),
            fdatasync(descriptor) == 0, rename(temporary, path) == 0
        else {
            let error = failure("write", temporary)
            close(descriptor)
            unlink(temporary)
            throw error
        }
        let segment = try SegmentFile(first: first, span: span, descriptor: descriptor)
        opened.withLock { $0[first] = segment }
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
        opened.withLock { open in
            if open[first]?.span == span { open[first] = nil }
        }
        if let path = path(first, span) { unlink(path) }
    }

    /// Removes every file of the folder that is not one of `segments` (first → span): what a
    /// crash left between writing a file and committing its segment, or parts of a merge not
    /// yet removed. Then opens each of `segments`.
    ///
    /// - Throws: `.corrupt` when a segment's file is missing or damaged.
    func sweep(keeping segments: [Int64: Int]) throws(SearchIndexError) {
        opened.withLock { open in open = open.filter { segments[$0.key] == $0.value.span } }
        if let folder { _ = mkdir(folder, 0o700) }
        if let folder, let listing = opendir(folder) {
            defer { closedir(listing) }
            while let entry = readdir(listing) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != ".." else { continue }
                let parts = name.hasSuffix(".seg") ? name.dropLast(4).split(separator: "-") : []
                if parts.count == 2, let first = Int64(parts[0]), let span = Int(parts[1]),
                    segments[first] == span
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

    /// The bytes the segments open take.
    var bytes: Int64 { opened.withLock { $0.values.reduce(0) { $0 + $1.size } } }

    private func failure(_ what: String, _ path: String) -> SearchIndexError {
        let code: SearchIndexError.Code = errno == ENOSPC || errno == EIO ? .storage : .cannotOpen
        return SearchIndexError(code, "Cannot \(what) \(path): \(String(cString: strerror(errno)))")
    }
}
