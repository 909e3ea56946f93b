#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One segment's postings as kept: its blocks (see ``PostingBlock``) in a file of their own,
/// written once and never changed (a merge writes a new file and removes its parts), or held in
/// memory for an index kept in memory. Read by any thread: a block is read with `pread`.
///
/// The bytes, little-endian: eight bytes `BRSEGMT1`; the number of blocks; four bytes of 0; for
/// each block, in block-number order, its number and the end of its bytes (two 32-bit numbers,
/// the end counted from the start of the blocks); then the blocks, one after the other. A file
/// whose size is not what its directory adds up to is damaged.
final class SegmentFile: Sendable {
    /// The segment: files `first ..< first + span`.
    let first: Int64
    let span: Int
    /// The file's size in bytes.
    let size: Int64
    /// Each block's number, in order.
    private let numbers: [UInt32]
    /// Where each block's bytes end, counted from ``start``; a block starts where the one
    /// before it ends.
    private let ends: [UInt32]
    /// Where the blocks start in the file.
    private let start: Int
    /// The open file (-1 in memory).
    private let descriptor: Int32
    /// The whole file, for a segment in memory.
    private let bytes: [UInt8]

    /// The first eight bytes of every segment file.
    static let magic: [UInt8] = Array("BRSEGMT1".utf8)

    /// The bytes of a segment file holding `blocks` (in block-number order).
    static func encode(_ blocks: [PostingBlock]) -> [UInt8] {
        var bytes = head(of: blocks)
        for block in blocks { bytes += block.data }
        return bytes
    }

    /// What a segment file holding `blocks` (in block-number order) starts with: the magic, the
    /// count and the directory; the blocks' bytes follow.
    static func head(of blocks: [PostingBlock]) -> [UInt8] {
        let size = 16 + 8 * blocks.count
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.copyBytes(from: magic)
            raw.storeBytes(of: UInt32(blocks.count).littleEndian, toByteOffset: 8, as: UInt32.self)
            raw.storeBytes(of: 0, toByteOffset: 12, as: UInt32.self)
            var end = 0
            for (index, block) in blocks.enumerated() {
                end += block.data.count
                raw.storeBytes(
                    of: UInt32(block.number).littleEndian, toByteOffset: 16 + 8 * index, as: UInt32.self)
                raw.storeBytes(of: UInt32(end).littleEndian, toByteOffset: 20 + 8 * index, as: UInt32.self)
            }
            initialized = size
        }
    }

    /// The segment in `bytes` (see ``encode(_:)``), kept in memory.
    convenience init(first: Int64, span: Int, bytes: [UInt8]) throws(SearchIndexError) {
        try self.init(first: first, span: span, descriptor: -1, bytes: bytes, size: Int64(bytes.count))
    }

    /// The segment file open as `descriptor` (it is closed with the segment, or if it is damaged).
    convenience init(first: Int64, span: Int, descriptor: Int32) throws(SearchIndexError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw SearchIndexError(
                .storage, "Cannot read a content segment: \(String(cString: strerror(errno)))")
        }
        try self.init(
            first: first, span: span, descriptor: descriptor, bytes: [], size: Int64(status.st_size))
    }

    private init(
        first: Int64, span: Int, descriptor: Int32, bytes: [UInt8], size: Int64
    ) throws(SearchIndexError) {
        func damaged(_ why: String) -> SearchIndexError {
            if descriptor >= 0 { close(descriptor) }
            return SearchIndexError(.corrupt, "The content segment \(first)-\(span) is damaged: \(why)")
        }
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            if descriptor < 0 {
                return offset + count <= bytes.count ? Array(bytes[offset..<(offset + count)]) : nil
            }
            let read = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                initialized = max(
                    0, Self.readFully(descriptor, into: UnsafeMutableRawBufferPointer(buffer), at: offset))
            }
            return read.count == count ? read : nil
        }
        guard size >= 16, let head = read(16, at: 0), head.prefix(8).elementsEqual(Self.magic) else {
            throw damaged("not a segment file")
        }
        let count = head.withUnsafeBytes {
            Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        }
        guard count <= Int(ContentStore.blocksPerSegment), Int64(16 + 8 * count) <= size,
            let directory = read(8 * count, at: 16)
        else { throw damaged("its directory does not fit") }
        var numbers: [UInt32] = []
        var ends: [UInt32] = []
        numbers.reserveCapacity(count)
        ends.reserveCapacity(count)
        directory.withUnsafeBytes { raw in
            for index in 0..<count {
                numbers.append(
                    UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * index, as: UInt32.self)))
                ends.append(
                    UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * index + 4, as: UInt32.self)))
            }
        }
        for index in 0..<count {
            guard numbers[index] < UInt32(ContentStore.blocksPerSegment),
                index == 0 || (numbers[index] > numbers[index - 1] && ends[index] >= ends[index - 1])
            else { throw damaged("its directory is out of order") }
        }
        let start = 16 + 8 * count
        guard Int64(start) + Int64(ends.last ?? 0) == size else {
            throw damaged("\(size) bytes where its directory says \(start + Int(ends.last ?? 0))")
        }
        self.first = first
        self.span = span
        self.size = size
        self.numbers = numbers
        self.ends = ends
        self.start = start
        self.descriptor = descriptor
        self.bytes = bytes
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// How many blocks it holds.
    var blockCount: Int { numbers.count }

    /// The number of the block at `index` (0 ..< ``blockCount``).
    func number(at index: Int) -> Int { Int(numbers[index]) }

    /// Where block `number` is, or `nil` when the segment holds none of its keys.
    func index(of number: Int) -> Int? {
        var low = 0
        var high = numbers.count
        while low < high {
            let middle = (low + high) >> 1
            if Int(numbers[middle]) < number { low = middle + 1 } else { high = middle }
        }
        return low < numbers.count && Int(numbers[low]) == number ? low : nil
    }

    /// Calls `body` with the bytes of the block at `index`.
    func withBlock<Result>(
        at index: Int, _ body: (UnsafeRawBufferPointer) -> Result
    ) throws(SearchIndexError) -> Result {
        let from = index == 0 ? 0 : Int(ends[index - 1])
        let count = Int(ends[index]) - from
        if descriptor < 0 {
            return bytes.withUnsafeBytes {
                body(UnsafeRawBufferPointer(rebasing: $0[(start + from)...].prefix(count)))
            }
        }
        return try withUnsafeTemporaryAllocation(byteCount: count, alignment: 8) {
            buffer throws(SearchIndexError) -> Result in
            guard Self.readFully(descriptor, into: buffer, at: start + from) == count else {
                throw SearchIndexError(
                    .corrupt, "The content segment \(first)-\(span) is damaged: a block cannot be read")
            }
            return body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// Calls `body` with the bytes of block `number`; `nil` when the segment holds none of its keys.
    func withBlock<Result>(
        numbered number: Int, _ body: (UnsafeRawBufferPointer) -> Result
    ) throws(SearchIndexError) -> Result? {
        guard let index = index(of: number) else { return nil }
        return try withBlock(at: index, body)
    }

    /// Reads `buffer.count` bytes at `offset`, as many calls as it takes; how many were read.
    private static func readFully(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
    ) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let read = pread(descriptor, base + done, buffer.count - done, off_t(offset + done))
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { break }
            done += read
        }
        return done
    }
}
