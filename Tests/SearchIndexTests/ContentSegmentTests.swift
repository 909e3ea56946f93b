import Foundation
import TestSupport
import Testing

@testable import SearchIndex

@Suite("The content index's segments")
struct ContentSegmentTests {
    /// Generated text: words of ASCII letters, some capitalized, some with a folded accent or a
    /// CJK character, on lines.
    static func text(_ generator: inout SystemRandomNumberGenerator, words: Int) -> [UInt8] {
        let syllables = ["ka", "ro", "zeb", "ra", "co", "rn", "qu", "ar", "te", "ly", "é", "日本", "X", "__"]
        var text = ""
        for index in 0..<words {
            let count = Int.random(in: 1...4, using: &generator)
            text += (0..<count).map { _ in syllables[Int.random(in: 0..<syllables.count, using: &generator)] }
                .joined()
            text += index % 9 == 8 ? "\n" : " "
        }
        return NameFolding.fold(text)
    }

    /// Every key of `text`, as a set.
    static func keys(_ text: [UInt8]) -> Set<UInt32> {
        var keys = Set<UInt32>()
        text.withUnsafeBufferPointer { TrigramKeys.forEach(in: $0) { keys.insert($0) } }
        return keys
    }

    /// The places an encoded row holds.
    static func places(_ data: [UInt8]) -> [Int] {
        var places: [Int] = []
        data.withUnsafeBytes { Postings.forEachPlace(in: $0) { places.append($0) } }
        return places
    }

    @Test("a segment's rows say exactly which files hold each trigram, again after a reset")
    func rowsAreExact() {
        var generator = SystemRandomNumberGenerator()
        let builder = SegmentBuilder(span: 300)
        for round in 0..<2 {
            let texts = (0..<(round == 0 ? 300 : 70)).map { _ in
                Self.text(&generator, words: Int.random(in: 0...200, using: &generator))
            }
            builder.reset(span: texts.count)
            var expected: [UInt32: [Int]] = [:]
            for (place, text) in texts.enumerated() {
                if place % 10 == 3 {
                    builder.skip()  // a file that is not text: a number, no trigrams
                    continue
                }
                text.withUnsafeBufferPointer { builder.add($0) }
                for key in Self.keys(text) { expected[key, default: []].append(place) }
            }
            let rows = builder.rows()
            #expect(rows.map(\.key) == expected.keys.sorted(), "a row for every trigram met, in key order")
            if round == 0 {
                #expect(
                    rows.count > SegmentBuilder.rowsAtATime,
                    "rows turned in more than one block, the last not full")
            }
            for row in rows {
                #expect(Self.places(row.data) == expected[row.key], "the files holding \(row.key)")
                #expect(row.count == expected[row.key]?.count)
            }
        }
    }

    @Test("8 words turned as a matrix of bytes: byte j of word i becomes byte i of word j, and back")
    func transposeBytes() {
        var generator = SystemRandomNumberGenerator()
        let words = (0..<8).map { _ in UInt64.random(in: .min ... .max, using: &generator) }
        var turned = words
        turned.withUnsafeMutableBufferPointer { SegmentBuilder.transposeBytes($0) }
        for i in 0..<8 {
            for j in 0..<8 {
                #expect(
                    turned[j] >> UInt64(8 * i) & 0xFF == words[i] >> UInt64(8 * j) & 0xFF,
                    "byte \(j) of word \(i)")
            }
        }
        turned.withUnsafeMutableBufferPointer { SegmentBuilder.transposeBytes($0) }
        #expect(turned == words)
    }

    @Test(
        "a block keeps 64 trigrams' rows, each read back by its key; a damaged block is read as far as it adds up"
    )
    func blocks() throws {
        let rows = [3, 64, 65, 127, 200, 5000].map { key in
            SegmentBuilder.Row(
                key: UInt32(key), count: key % 7 + 1,
                data: [UInt8](repeating: UInt8(key & 255), count: key % 5 + 1))
        }
        let blocks = PostingBlock.pack(rows)
        #expect(blocks.map(\.number) == [0, 1, 3, 78])
        for row in rows {
            let block = try #require(blocks.first { $0.number == Int(row.key >> 6) })
            let found = block.data.withUnsafeBytes {
                PostingBlock.row(of: row.key, in: $0) { count, data in (count, Array(data)) }
            }
            #expect(found?.0 == row.count && found?.1 == row.data, "the row of \(row.key)")
        }
        #expect(
            blocks[1].data.withUnsafeBytes { PostingBlock.row(of: 66, in: $0) { count, _ in count } } == nil)
        var listed: [UInt32] = []
        for block in blocks {
            block.data.withUnsafeBytes {
                PostingBlock.forEachRow(in: $0, number: block.number) { key, _, _ in listed.append(key) }
            }
        }
        #expect(listed == rows.map(\.key), "every row, in key order")
        // Cut short anywhere: what is read is the whole block's first rows, unchanged.
        let whole = blocks[1].data
        func rowsRead(_ bytes: [UInt8]) -> [[UInt8]] {
            var found: [[UInt8]] = []
            bytes.withUnsafeBytes {
                PostingBlock.forEachRow(in: $0, number: 1) { _, _, row in found.append(Array(row)) }
            }
            return found
        }
        let all = rowsRead(whole)
        #expect(all.count == 3)
        for length in 0..<whole.count {
            let read = rowsRead(Array(whole[0..<length]))
            #expect(read.count < all.count && read == Array(all.prefix(read.count)), "cut at \(length)")
        }
        // Damaged: random bytes. Nothing is read past the block (a read past it would trap).
        var generator = SystemRandomNumberGenerator()
        let damaged = (0..<500).map { _ in
            (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
        }
        for bytes in damaged {
            bytes.withUnsafeBytes { raw in
                for key: UInt32 in [64, 65, 127] {
                    _ = PostingBlock.row(of: key, in: raw) { _, data in data.first }
                }
                PostingBlock.forEachRow(in: raw, number: 1) { _, _, data in _ = data.last }
            }
        }
        #expect(
            whole.withUnsafeBytes { PostingBlock.row(of: 127, in: $0) { count, _ in count } } == 127 % 7 + 1)
    }

    @Test("a trigram is listed as places or as a bitmap, whichever is smaller, and both read back the same")
    func encodings() {
        var bitmap = [UInt64](repeating: 0, count: 32)
        for place in [0, 5, 700, 2047] { bitmap[place >> 6] |= 1 << UInt64(place & 63) }
        let sparse = bitmap.withUnsafeBufferPointer { Postings.encode($0, count: 4) }
        #expect(sparse.first == 0 && sparse.count == 9)
        #expect(Self.places(sparse) == [0, 5, 700, 2047])
        let dense = [UInt64](repeating: 0x5555_5555_5555_5555, count: 4)
        let packed = dense.withUnsafeBufferPointer { Postings.encode($0, count: 128) }
        #expect(packed.first == 1 && packed.count == 33)
        #expect(Self.places(packed) == Array(stride(from: 0, to: 256, by: 2)))
        // Intersecting: the places both hold.
        var both = [UInt64](repeating: ~0, count: 32)
        both.withUnsafeMutableBufferPointer { target in
            packed.withUnsafeBytes { Postings.apply($0, to: target, intersect: true) }
            sparse.withUnsafeBytes { Postings.apply($0, to: target, intersect: true) }
        }
        #expect(both[0] == 1, "0 is in both; 5 is odd; 700 and 2047 lie past the dense words")
        #expect(both[1...].allSatisfy { $0 == 0 })
    }

    @Test("a query's trigrams have the keys they have inside any text that holds the query")
    func queryKeysAreTextKeys() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let text = Self.text(&generator, words: 30)
            let characters = Array(String(decoding: text, as: UTF8.self))
            guard characters.count > 8 else { continue }
            let start = Int.random(in: 0..<(characters.count - 4), using: &generator)
            let end = Int.random(in: (start + 3)...min(characters.count, start + 12), using: &generator)
            let query = Array(String(characters[start..<end]).utf8)
            let keys = TrigramPlan.everyTrigram(of: [query]).map { TrigramKeys.key(of: Array($0.utf8)) }
            #expect(Set(keys).isSubset(of: Self.keys(text)), "\(String(decoding: query, as: UTF8.self))")
        }
        // An ASCII text, said to be ASCII or looked at: each run of three bytes, in order.
        for _ in 0..<50 {
            let text = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                UInt8.random(in: 0...127, using: &generator)
            }
            let each =
                text.count < 3 ? [] : (2..<text.count).map { TrigramKeys.key(of: Array(text[($0 - 2)...$0])) }
            for ascii in [nil, true] {
                var keys: [UInt32] = []
                text.withUnsafeBufferPointer { TrigramKeys.forEach(in: $0, ascii: ascii) { keys.append($0) } }
                #expect(keys == each, "ascii: \(String(describing: ascii))")
            }
        }
        // Capitals in an ASCII file are lowered as the query is folded.
        #expect(Self.keys(Array("ZebraCorn".utf8)).contains(TrigramKeys.key(of: Array("rac".utf8))))
    }

    @Test("pieces done on two threads come back in order, and a run finished early ends its threads")
    func orderedWork() {
        let work = OrderedWork<Int>(count: 40, threads: 2, ahead: 3, name: "Test.Work", nice: 0) {
            { index in
                usleep(UInt32.random(in: 0...2000))
                return index * index
            }
        }
        #expect((0..<40).map { work.result($0) } == (0..<40).map { $0 * $0 })
        let cancelled = OrderedWork<Int>(count: 1000, threads: 2, ahead: 2, name: "Test.Work", nice: 0) {
            { index in
                usleep(1000)
                return index
            }
        }
        #expect(cancelled.result(0) == 0)
        cancelled.finish()
        #expect(cancelled.result(500) == nil)
        work.finish()
    }

    @Test("a run stopped early lets its threads go, and nothing is left waiting")
    func orderedWorkStoppedEarly() {
        for _ in 0..<5 {
            let work = OrderedWork<Int>(count: 100, threads: 2, ahead: 3, name: "Test.Work", nice: 0) {
                { index in
                    usleep(500)
                    return index
                }
            }
            #expect(work.result(0) == 0)
            usleep(20_000)  // the threads fill every slot meanwhile
            work.finish()
        }
    }

    /// A store in memory holding one segment per entry of `sizes`, each file saying `text`.
    static func store(sizes: [Int], text: String = "zebra") throws -> ContentStore {
        let store = try ContentStore(
            path: ":memory:", root: "/r", cacheKiB: 256, shelf: SegmentShelf(folder: nil))
        try fill(store, sizes: sizes, text: text)
        return store
    }

    /// Adds one segment per entry of `sizes` to `store`, each file saying `text`, the files
    /// numbered from `number`.
    static func fill(_ store: ContentStore, sizes: [Int], text: String = "zebra", from number: Int = 0) throws
    {
        var number = number
        for size in sizes {
            let builder = SegmentBuilder(span: size)
            var members: [ContentStore.Member] = []
            for _ in 0..<size {
                Array(text.utf8).withUnsafeBufferPointer { builder.add($0) }
                members.append(
                    .init(path: "/notes/\(number).txt", known: .init(size: 5, modified: 0), indexed: true))
                number += 1
            }
            try store.transaction { () throws(SearchIndexError) in
                try store.put(members, blocks: PostingBlock.pack(builder.rows()))
            }
        }
    }

    @Test(
        "a search that meets a segment's file removed since it listed the segments starts again; one gone for good is an error"
    )
    func segmentGoneUnderASearch() throws {
        let cache = try TemporaryFolder(prefix: "browsey-segments")
        let path = cache.path("content.sqlite")
        let folder = try #require(SegmentShelf.folder(besideIndexAt: path))
        let writer = try ContentStore(
            path: path, root: "/r", cacheKiB: 256, shelf: SegmentShelf(folder: folder))
        try Self.fill(writer, sizes: [3, 2])
        let reader = try ContentStore(readingAt: path, cacheKiB: 256)
        let zebra = TrigramKeys.key(of: Array("zeb".utf8))
        let newest = try #require(writer.segments().first)
        #expect(unlink("\(folder)/\(newest.first)-\(newest.span).seg") == 0)
        #expect(
            try reader.candidatesOnce([zebra], folder: "", before: .max, limit: 10) == nil, "gone: look again"
        )
        #expect(throws: SearchIndexError.self) {
            try reader.candidates([zebra], under: "", before: .max, limit: 10)
        }
        #expect(
            try writer.candidates([zebra], under: "", before: .max, limit: 10).count == 5,
            "a connection that had the file open reads on")
    }

    @Test("a search that listed segments a merge then removes finds every file in the merged one")
    func mergedUnderASearch() throws {
        let cache = try TemporaryFolder(prefix: "browsey-segments")
        let path = cache.path("content.sqlite")
        let shelf = SegmentShelf(folder: SegmentShelf.folder(besideIndexAt: path))
        let writer = try ContentStore(path: path, root: "/r", cacheKiB: 256, shelf: shelf)
        try Self.fill(writer, sizes: [Int](repeating: 1, count: 8))
        let reader = try ContentStore(readingAt: path, cacheKiB: 256)
        var merged = false
        reader.onSegmentsListed = {
            guard !merged else { return }
            merged = true
            try? writer.mergeSmallSegments()
        }
        let zebra = TrigramKeys.key(of: Array("zeb".utf8))
        #expect(try reader.candidates([zebra], under: "", before: .max, limit: 100).count == 8)
        let segments = try writer.segments().count
        #expect(merged && segments == 1, "the eight were merged under the search")
    }

    @Test(
        "searches while segments are written and merged on another thread never fail and never lose a file",
        arguments: ["the writer's shelf", "a shelf of its own"])
    func searchesDuringMerges(shelfOf reader: String) async throws {
        let cache = try TemporaryFolder(prefix: "browsey-segments")
        let path = cache.path("content.sqlite")
        let shelf = SegmentShelf(folder: SegmentShelf.folder(besideIndexAt: path))
        let writer = try ContentStore(path: path, root: "/r", cacheKiB: 256, shelf: shelf)
        let zebra = TrigramKeys.key(of: Array("zeb".utf8))
        let saves = 300
        let shared = reader == "the writer's shelf"
        let searching = Task.detached { () throws -> (counts: [Int], open: Int) in
            // With a shelf of its own, every file it opens is new to it.
            let reader = try ContentStore(readingAt: path, cacheKiB: 256, shelf: shared ? shelf : nil)
            var counts: [Int] = []
            while counts.last != saves {
                counts.append(try reader.candidates([zebra], under: "", before: .max, limit: 1000).count)
            }
            return (counts, reader.shelf.openCount)
        }
        for number in 0..<saves {
            try Self.fill(writer, sizes: [1], from: number)
            try writer.mergeSmallSegments()
        }
        let (counts, open) = try await searching.value
        #expect(counts == counts.sorted(), "each search finds every file saved before it")
        let segments = try writer.segments().count
        #expect(segments < 20)
        // A search may have opened one or two since the last it listed.
        #expect(open <= segments + 2, "segments merged away are let go of: \(open) open")
        #expect(shelf.openCount == segments)
    }

    @Test("a second writer of the same index waits for the first to let go, and is refused while it holds on")
    func oneWriterAtATime() throws {
        let cache = try TemporaryFolder(prefix: "browsey-segments")
        let path = cache.path("content.sqlite")
        let folder = SegmentShelf.folder(besideIndexAt: path)
        let first = SegmentShelf(folder: folder)
        let writer = try ContentStore(path: path, root: "/r", cacheKiB: 256, shelf: first)
        try Self.fill(writer, sizes: [2])
        let started = ContinuousClock.now
        #expect(throws: SearchIndexError.self) {
            try ContentStore(path: path, root: "/r", cacheKiB: 256, shelf: SegmentShelf(folder: folder))
        }
        #expect(ContinuousClock.now - started >= .seconds(1.5), "it waited for the lock")
        first.unlock()
        let second = try ContentStore(
            path: path, root: "/r", cacheKiB: 256, shelf: SegmentShelf(folder: folder))
        let zebra = TrigramKeys.key(of: Array("zeb".utf8))
        #expect(
            try second.candidates([zebra], under: "", before: .max, limit: 10).count == 2,
            "nothing swept away")
    }

    @Test("small segments of every size are merged, not stranded behind one of another size")
    func mergesMixedSizes() throws {
        let store = try Self.store(sizes: [300, 5, 100, 1, 2, 50, 7, 3, 9, 1, 1, 200, 4])
        try store.mergeSmallSegments()
        #expect(try store.segments().count == 1)
        let zebra = TrigramKeys.key(of: Array("zeb".utf8))
        #expect(try store.candidates([zebra], under: "", before: .max, limit: 1000).count == 683)
        #expect(try store.fileCount(holding: zebra) == 683)
    }

    @Test("a merge never makes a segment wider than the build's: small ones join the newest that fit")
    func mergesNoWiderThanABuild() throws {
        // Build segments that ended early (a chunk of large files), then saves one at a time.
        let store = try Self.store(sizes: [2000, 2000, 2000] + [Int](repeating: 10, count: 7))
        try store.mergeSmallSegments()
        let spans = try store.segments().map(\.span)
        #expect(spans == [4070, 2000], "the seven saves and the newest build segments that fit with them")
        #expect(spans.allSatisfy { $0 <= ContentStore.mergedSpan })
        let zebra = TrigramKeys.key(of: Array("zeb".utf8))
        #expect(try store.candidates([zebra], under: "", before: .max, limit: 10_000).count == 6070)
        #expect(try store.fileCount(holding: zebra) == 6070)
    }

    @Test("the folder a search is limited to is compared by bytes: a name may start with a combining mark")
    func folderByBytes() throws {
        let store = try ContentStore(
            path: ":memory:", root: "/r", cacheKiB: 256, shelf: SegmentShelf(folder: nil))
        let builder = SegmentBuilder(span: 2)
        Array("zebra".utf8).withUnsafeBufferPointer { builder.add($0) }
        Array("zebra".utf8).withUnsafeBufferPointer { builder.add($0) }
        try store.transaction { () throws(SearchIndexError) in
            try store.put(
                [
                    .init(path: "/docs/\u{301}a.txt", known: .init(size: 5, modified: 0), indexed: true),
                    .init(path: "/docsier/b.txt", known: .init(size: 5, modified: 0), indexed: true),
                ], blocks: PostingBlock.pack(builder.rows()))
        }
        let zebra = TrigramKeys.key(of: Array("zeb".utf8))
        #expect(
            try store.candidates([zebra], under: "/docs", before: .max, limit: 10).map(\.path) == [
                "/docs/\u{301}a.txt"
            ])
        // The search's read transaction is over: a new one can begin (it could not inside one).
        try store.database.execute("BEGIN; COMMIT")
    }

    @Test(
        "a segment's groups of eight files keep a byte a row; a 4 MiB file at worst takes one for every key")
    func groupBytes() {
        let builder = SegmentBuilder(span: 4096)
        #expect(builder.bytes(adding: 4 << 20) == TrigramKeys.count, "a byte for every key at worst")
        #expect(builder.bytes == 0)
        Array("zebra corn".utf8).withUnsafeBufferPointer { builder.add($0) }
        #expect(builder.trigrams == 0 && builder.bytes == 0, "a group is kept once it has eight files")
        #expect(builder.bytes(adding: 100) == 10 + 100, "the group's bytes and the next file's, at worst")
        for _ in 0..<7 { Array("zebra corn".utf8).withUnsafeBufferPointer { builder.add($0) } }
        #expect(builder.trigrams == 8 && builder.bytes == 8, "eight rows: a byte each")
        for _ in 0..<91 { Array("zebra corn".utf8).withUnsafeBufferPointer { builder.add($0) } }
        builder.skip()
        #expect(builder.files == 100 && builder.bytes == 96, "twelve groups kept, the thirteenth not yet")
        #expect(builder.bytes(adding: 100) == 96 + 8 + 30 + 100, "its rows, its files' bytes and the next's")
        #expect(builder.rows().allSatisfy { $0.count == 99 }, "every text file, not the one skipped")
        builder.reset(span: 10)
        #expect(builder.bytes == 0 && builder.trigrams == 0)
        Array("quartz".utf8).withUnsafeBufferPointer { builder.add($0) }
        builder.reset(span: 10)  // a group not kept: its bytes are cleared, not carried over
        Array("zebra".utf8).withUnsafeBufferPointer { builder.add($0) }
        let rows = builder.rows()
        #expect(
            rows.map(\.key) == ["zeb", "ebr", "bra"].map { TrigramKeys.key(of: Array($0.utf8)) }.sorted())
        #expect(
            rows.allSatisfy { $0.count == 1 && Self.places($0.data) == [0] }, "the first file of its segment")
    }
}
