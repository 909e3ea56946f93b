import FileTree
import Foundation
import TestSupport
import Testing

@testable import SearchIndex

@Suite("Search ranks and filters as users expect")
struct RankingTests {
    @Test("an exact name, then a prefix, then a word start, then any substring, then scattered letters")
    func rankingOrder() async throws {
        let folder = try TemporaryFolder()
        for name in [
            "a/b/c/r-e-a-d-m-e.txt", "thread.txt", "my read.txt", "readme.md", "read", "zz/Read Me First.pdf",
        ] {
            try folder.file(name, "x")
        }
        let index = NameIndex(options: .init(root: folder.path))
        index.start()
        defer { index.stop() }
        await index.waitUntilReady()
        let paths = IndexFixture.paths(index, "read")
        #expect(
            paths == [
                "/read", "/readme.md", "/zz/Read Me First.pdf", "/my read.txt", "/thread.txt",
                "/a/b/c/r-e-a-d-m-e.txt",
            ])
        let fuzzy = IndexFixture.paths(index, "rdme")
        #expect(fuzzy.first == "/readme.md", "fewer gaps first")
        #expect(Set(fuzzy) == ["/readme.md", "/zz/Read Me First.pdf", "/a/b/c/r-e-a-d-m-e.txt"])
    }

    @Test("words apart: every word in any order matches, below the words together, above scattered letters")
    func wordsInAnyOrder() async throws {
        let folder = try TemporaryFolder()
        for name in [
            "IMG_0001.jpg", "img 00 together.png", "big panorama.jpg", "Panorama (big).tif", "panorama.jpg",
            "i-m-g-x-0-0.txt",
        ] {
            try folder.file(name, "x")
        }
        let index = NameIndex(options: .init(root: folder.path))
        index.start()
        defer { index.stop() }
        await index.waitUntilReady()
        #expect(IndexFixture.paths(index, "img 00") == ["/img 00 together.png", "/IMG_0001.jpg"])
        #expect(
            Set(IndexFixture.paths(index, "panorama big")) == ["/big panorama.jpg", "/Panorama (big).tif"])
        #expect(
            IndexFixture.paths(index, "big panorama").first == "/big panorama.jpg", "the words together first"
        )
        #expect(IndexFixture.paths(index, "panorama zebra").isEmpty)
        let matcher = try #require(NameMatcher("panorama big"))
        #expect(matcher.score(name: "big panorama.jpg") != nil && matcher.score(name: "panorama.jpg") == nil)
    }

    @Test("a plain substring is always above a scattered match, however short or shallow the scattered one")
    func substringBeatsScattered() async throws {
        let folder = try TemporaryFolder()
        try folder.file("abc", "x")  // scattered for "ac"? no: "ac" is not in "abc" as a substring
        try folder.file("deep/er/and/deeper/a very long name that has ac somewhere in the middle.txt", "x")
        let index = NameIndex(options: .init(root: folder.path))
        index.start()
        defer { index.stop() }
        await index.waitUntilReady()
        let hits = index.search(SearchQuery(text: "ac")) ?? []
        #expect(
            hits.map(\.entry.name) == ["a very long name that has ac somewhere in the middle.txt", "abc"])
        #expect(hits.count == 2 && hits[0].score > hits[1].score)
    }

    @Test("case and accents are ignored, in names and queries alike")
    func caseAndAccents() async throws {
        let folder = try TemporaryFolder()
        try folder.file("Crème Brûlée.TXT", "x")
        try folder.file("cafe\u{301} decomposed.md", "x")
        let index = NameIndex(options: .init(root: folder.path))
        index.start()
        defer { index.stop() }
        await index.waitUntilReady()
        #expect(IndexFixture.paths(index, "creme brulee") == ["/Crème Brûlée.TXT"])
        #expect(IndexFixture.paths(index, "CRÈME") == ["/Crème Brûlée.TXT"])
        #expect(IndexFixture.paths(index, "café") == ["/cafe\u{301} decomposed.md"])
    }

    @Test("filters: kind, extensions, size and dates; filters alone list the newest first")
    func filters() async throws {
        let folder = try TemporaryFolder()
        try folder.file("reports/report 2024.pdf", Array(repeating: 1, count: 5000))
        try folder.file("reports/report 2025.md", "small")
        try folder.file("reports/report.TXT", Array(repeating: 1, count: 100))
        try folder.folder("reports/report archive")
        let old = Date(timeIntervalSince1970: 1_600_000_000)
        try FileManager.default.setAttributes(
            [.modificationDate: old], ofItemAtPath: folder.path("reports/report 2024.pdf"))
        let index = NameIndex(options: .init(root: folder.path))
        index.start()
        defer { index.stop() }
        await index.waitUntilReady()
        #expect(
            IndexFixture.paths(index, "report") { $0.kinds = [.directory] } == [
                "/reports", "/reports/report archive",
            ])
        #expect(Set(IndexFixture.paths(index, "report") { $0.kinds = [.file] }).count == 3)
        #expect(
            Set(IndexFixture.paths(index, "report") { $0.extensions = ["md", "txt"] })
                == ["/reports/report 2025.md", "/reports/report.TXT"])
        #expect(
            IndexFixture.paths(index, "report") { $0.minimumSize = 1000 } == ["/reports/report 2024.pdf"],
            "sizes filter files only")
        #expect(
            IndexFixture.paths(index, "report") {
                $0.maximumSize = 10; $0.kinds = [.file]
            } == ["/reports/report 2025.md"])
        let cut = Int64(1_700_000_000) * 1_000_000_000
        #expect(
            IndexFixture.paths(index, "report") { $0.modifiedBefore = cut } == ["/reports/report 2024.pdf"])
        #expect(
            !IndexFixture.paths(index, "report") { $0.modifiedAfter = cut }.contains(
                "/reports/report 2024.pdf"))
        let newest = IndexFixture.paths(index, "") { $0.kinds = [.file] }
        #expect(newest.last == "/reports/report 2024.pdf", "by filters alone, the oldest comes last")
        #expect(IndexFixture.paths(index, "").isEmpty, "no text and no filter finds nothing")
    }

    @Test("hidden names only when asked, ignored names never, and only under the searched folder")
    func hiddenIgnoredAndScope() async throws {
        let fixture = try IndexFixture()
        let index = fixture.start(includesHidden: true)
        defer { index.stop() }
        await index.waitUntilReady()
        #expect(IndexFixture.paths(index, "secret").isEmpty)
        #expect(IndexFixture.paths(index, "secret") { $0.includesHidden = true } == ["/.hidden/secret.txt"])
        #expect(IndexFixture.paths(index, "build").isEmpty, "ignored by *.log")
        #expect(
            IndexFixture.paths(index, "txt") { $0.folder = "/docs/deep" } == [
                "/docs/deep/er/still deeper.txt"
            ])
        #expect(
            IndexFixture.paths(index, "deep") { $0.folder = "/docs/deep/" } == [
                "/docs/deep/er/still deeper.txt"
            ])
        #expect(IndexFixture.paths(index, "main") { $0.folder = "/code" } == ["/code/main.swift"])
        #expect(
            IndexFixture.paths(index, "main") { $0.folder = "/cod" }.isEmpty, "a folder is not a name prefix")
    }

    @Test("the limit keeps the best hits")
    func limit() async throws {
        let folder = try TemporaryFolder()
        for number in 0..<300 { try folder.file("many/item \(number).txt", "x") }
        try folder.file("item", "x")
        let index = NameIndex(options: .init(root: folder.path))
        index.start()
        defer { index.stop() }
        await index.waitUntilReady()
        let hits = IndexFixture.paths(index, "item") { $0.limit = 50 }
        #expect(hits.count == 50)
        #expect(hits.first == "/item")
    }

    @Test(
        "hits that tie on score and depth come in the order of their names, however long a start they share")
    func tiesByName() async throws {
        let folder = try TemporaryFolder()
        // Names of one length over two letters share starts of 8 to 19 bytes.
        var generator = SeededGenerator(seed: 7)
        var names: Set<String> = []
        while names.count < 240 {
            names.insert(
                "report " + String((0..<12).map { _ in Bool.random(using: &generator) ? "a" : "b" }) + ".md")
        }
        for name in names { try folder.file("many/" + name, "x") }
        let index = NameIndex(options: .init(root: folder.path))
        index.start()
        defer { index.stop() }
        await index.waitUntilReady()
        #expect(await IndexFixture.eventually { index.hasNameOrder } != nil)
        let expected = names.sorted().prefix(30).map { "/many/" + $0 }
        #expect(IndexFixture.paths(index, "report") { $0.limit = 30 } == expected, "a prefix")
        #expect(IndexFixture.paths(index, "eport") { $0.limit = 30 } == expected, "one byte in")
        #expect(
            IndexFixture.paths(index, "report") {
                $0.limit = 30
                $0.extensions = ["md"]
            } == expected, "with a filter")
        // Every name scored, without the names in order or by pair.
        var query = SearchQuery(text: "report")
        query.limit = 30
        let catalog = try #require(index.catalogSnapshot)
        #expect(NameIndex.search(query, in: catalog, splitting: .never).map(\.path) == expected, "a scan")
    }
}

@Suite("The change feed")
struct ChangeFeedTests {
    static func change(_ name: String) -> TreeChange {
        TreeChange(
            kind: .created, path: "/docs/" + name,
            entry: IndexedEntry(name: name, kind: .file, size: 1, modified: 0, inode: 1))
    }

    @Test("a subscriber that reconnects with the last id it saw gets what it missed, in order")
    func resumption() async throws {
        let feed = ChangeFeed()
        feed.publish([Self.change("a"), Self.change("b")])
        let first = feed.subscribe()
        feed.publish([Self.change("c")])
        var iterator = first.items.makeAsyncIterator()
        guard case .event(let seen) = await iterator.next() else { Issue.record("no event"); return }
        #expect(seen.change.path == "/docs/c")
        feed.publish([Self.change("d"), Self.change("e")])
        let again = feed.subscribe(lastEventID: seen.id)
        var resumed = again.items.makeAsyncIterator()
        var paths: [String] = []
        for _ in 0..<2 {
            if case .event(let event) = await resumed.next() { paths.append(event.change.path) }
        }
        #expect(paths == ["/docs/d", "/docs/e"])
    }

    @Test("an id that is too old or from another run asks the subscriber to reload")
    func reset() async throws {
        let feed = ChangeFeed(capacity: 4)
        for number in 0..<20 { feed.publish([Self.change("f\(number)")]) }
        for stale in ["\(feed.run).1", "other.3", "garbage"] {
            var iterator = feed.subscribe(lastEventID: stale).items.makeAsyncIterator()
            let first = await iterator.next()
            guard case .reset = first else { Issue.record("expected a reset for \(stale)"); continue }
        }
    }

    @Test("a subscriber that does not keep up is dropped, and nobody waits for it")
    func slowSubscriberIsDropped() async throws {
        let feed = ChangeFeed()
        let slow = feed.subscribe(buffer: 4)
        let fast = feed.subscribe(buffer: 100)
        #expect(feed.subscriberCount == 2)
        for number in 0..<10 { feed.publish([Self.change("n\(number)")]) }
        #expect(feed.subscriberCount == 1)
        var count = 0
        for await _ in slow.items { count += 1 }
        #expect(count == 4, "its stream ends after what it had buffered")
        var fastIterator = fast.items.makeAsyncIterator()
        if case .event(let event) = await fastIterator.next() { #expect(event.change.path == "/docs/n0") }
    }

    @Test("a change concerns the folder it is in and every folder above it")
    func scope() {
        let moved = TreeChange(
            kind: .renamed, path: "/b/x", from: "/a/x",
            entry: IndexedEntry(name: "x", kind: .file, size: 0, modified: 0, inode: 1))
        #expect(moved.concerns("") && moved.concerns("/") && moved.concerns("/a") && moved.concerns("/b"))
        #expect(!moved.concerns("/c") && !moved.concerns("/b/x/y") && !moved.concerns("/a/xx"))
    }
}

@Suite("The index's shortcuts never change the answer")
struct ShortcutTests {
    @Test(
        "for random names and queries, the index answers exactly what scoring every name would",
        arguments: [false, true])
    func matchesBruteForce(includingHidden: Bool) async throws {
        let folder = try TemporaryFolder()
        var generator = SeededGenerator(seed: 42)
        let syllables = ["re", "po", "rt", "a", "b", "é", "de", " ", "-", "mo", "x", "R", "."]
        // The folders are names too.
        var names: [(folder: String, name: String)] = [("", "a"), ("/a", "b"), ("", "c d")]
        for number in 0..<1500 {
            let parts = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                syllables.randomElement(using: &generator) ?? ""
            }
            let name = parts.joined() + "\(number % 7).txt"
            let place = ["", "/a", "/a/b", "/c d"][number % 4]
            guard !names.contains(where: { $0 == (place, name) }) else { continue }
            names.append((place, name))
            try folder.file(String((place + "/" + name).dropFirst()), "x")
        }
        // The index holds hidden names (as a server showing them does); a query not asking for
        // them must leave them out.
        let index = NameIndex(options: .init(root: folder.path, filter: EntryFilter(includesHidden: true)))
        index.start()
        defer { index.stop() }
        await index.waitUntilReady()
        // Once by scanning, once more with the names in order (built a moment after the index is
        // ready), which answers prefix-dominated queries without a scan.
        for pass in 0..<2 {
            if pass == 1 {
                for _ in 0..<500 where !index.hasNameOrder { try await Task.sleep(for: .milliseconds(10)) }
                #expect(index.hasNameOrder)
            }
            for text in [
                "report", "re", "rpt", "porte", "é", "mo-x", "zzz", "a b", "rt1", ".r", "a", "R", "po", "de",
                // Scattered letters, where the gaps allowed shrink as the best hits gather.
                "rprt", "pomx", "rtmo", "ramo", "ptx",
            ] {
                for limit in [1, 10, 50] {
                    var query = SearchQuery(text: text)
                    query.limit = limit
                    query.includesHidden = includingHidden
                    let found = index.search(query)?.map(\.path) ?? []
                    let matcher = try #require(NameMatcher(text))
                    let expected = names.compactMap {
                        entry -> (score: Int, depth: Int, name: String, path: String)? in
                        guard includingHidden || !entry.name.hasPrefix("."),
                            let score = matcher.score(name: entry.name)
                        else {
                            return nil
                        }
                        let depth = entry.folder.filter { $0 == "/" }.count
                        return (score, depth, entry.name, entry.folder + "/" + entry.name)
                    }
                    .sorted { left, right in
                        if left.score != right.score { return left.score > right.score }
                        if left.depth != right.depth { return left.depth < right.depth }
                        let folded = (NameFolding.fold(left.name), NameFolding.fold(right.name))
                        if folded.0 != folded.1 { return folded.0.lexicographicallyPrecedes(folded.1) }
                        if left.name != right.name { return left.name < right.name }
                        return left.path < right.path
                    }
                    .prefix(limit).map(\.path)
                    #expect(found == Array(expected), "\(text) limit \(limit), pass \(pass)")
                }
            }
        }
    }

    @Test(
        "a scan in two halves at once answers exactly what one scan answers, ties across the halves included")
    func halvesAnswerAsOneScan() throws {
        var random = SeededGenerator(seed: 19)
        let pieces = ["rep", "ort", "a", "é", "Port", "rt", "x", "-", " ", "1", ".", "md", "mo", "d"]
        var catalog = Catalog()
        for number in 0..<40 {
            // Deep and shallow folders in both halves, the same names in many of them: the best
            // hits tie on score, depth and name, and only their folders order them.
            let path = ["", "/f\(number)", "/f\(number)/g", "/.h\(number)"][number % 4]
            var names = Set<String>()
            for _ in 0..<Int.random(in: 5...60, using: &random) {
                names.insert(
                    (0..<Int.random(in: 1...4, using: &random)).map { _ in
                        pieces.randomElement(using: &random)!
                    }
                    .joined())
            }
            catalog.put(
                FolderRecord(
                    path: path == "" ? "/r\(number)" : path,
                    entries: names.sorted().map {
                        IndexedEntry(
                            name: $0, kind: .file, size: Int64($0.utf8.count),
                            modified: Int64.random(in: 0...50, using: &random), inode: 0)
                    }))
        }
        // The count of names that decides whether to split is kept as folders come and go.
        #expect(catalog.entryCount == catalog.folders.reduce(0) { $0 + $1.entries.count })
        var changed = catalog
        changed.put(FolderRecord(path: "/f1", entries: []))
        changed.remove("/r0")
        changed.moveSubtree(from: "/f5", to: "/moved")
        #expect(changed.entryCount == changed.folders.reduce(0) { $0 + $1.entries.count })
        #expect(changed.entryCount < catalog.entryCount)
        var compared = 0
        for text in ["rprtmd", "rep", "ort", "é", "a", "md", "rtmo", "port", "zzz", "", "rep md", "a x"] {
            for limit in [1, 7, 50] {
                for variant in 0..<4 {
                    var query = SearchQuery(text: text)
                    query.limit = limit
                    if variant == 1 { query.includesHidden = true }
                    if variant == 2 { query.extensions = ["md"] }
                    if variant == 3 { query.folder = "/f1" }
                    let one = NameIndex.search(query, in: catalog, splitting: .never)
                    let halves = NameIndex.search(query, in: catalog, splitting: .always)
                    #expect(halves == one, "\(text) limit \(limit), variant \(variant)")
                    // As the server decides (split at the sampled middle when no other scan runs).
                    let sampled = NameIndex.search(query, in: catalog, splitting: .whenIdle, splitsAt: 64)
                    #expect(sampled == one, "\(text) limit \(limit), variant \(variant), sampled")
                    if !one.isEmpty { compared += 1 }
                }
            }
        }
        #expect(compared >= 60, "most queries have hits to compare")
    }

    @Test("a scan is estimated from every 64th folder, and its halves meet where half the sampled names lie")
    func sampleEstimatesTheNamesAScanReads() throws {
        func record(_ path: String, _ names: [String]) -> FolderRecord {
            FolderRecord(
                path: path,
                entries: names.map { IndexedEntry(name: $0, kind: .file, size: 1, modified: 0, inode: 0) })
        }
        // 256 folders: the sampled ones (0, 64, 128, 192) hold 10, 10, 30 and 50 names holding
        // `rp`; all others hold one name without those letters.
        var folders: [FolderRecord] = []
        for number in 0..<256 {
            let count = [0: 10, 64: 10, 128: 30, 192: 50][number]
            folders.append(
                record("/f\(number)", count.map { (0..<$0).map { "rep\($0)" } } ?? ["zzz"]))
        }
        let letters = try #require(NameMatcher("rp")).mask
        let sampled = try #require(NameIndex.sample(folders, letters: letters, under: ""))
        #expect(sampled.names == 100 * NameIndex.sampleStride)
        #expect(sampled.middle == 128, "50 of the 100 sampled names lie before the third sample")
        #expect(
            NameIndex.sample(folders, letters: letters, under: "/f64")?.names == 10 * NameIndex.sampleStride)
        let none = try #require(NameMatcher("xq")).mask
        #expect(NameIndex.sample(folders, letters: none, under: "")?.names == 0)
        #expect(NameIndex.sample(Array(folders.prefix(1)), letters: letters, under: "") == nil)
        #expect(NameIndex.sample(Array(folders.prefix(2)), letters: letters, under: "")?.middle == 1)
    }

    @Test("every pair of adjacent bytes has one of the 32 pair classes, and pairs of letters use them all")
    func pairClasses() {
        var classless = 0
        for first in UInt8.min...UInt8.max {
            for second in UInt8.min...UInt8.max {
                let mask = [first, second].withUnsafeBufferPointer { NameFolding.pairMask($0) }
                if mask.nonzeroBitCount != 1 { classless += 1 }
            }
        }
        #expect(classless == 0, "a pair without a class rules out no name")
        var perClass = [Int](repeating: 0, count: 32)
        let letters = Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
        for first in letters {
            for second in letters { perClass[Int(NameFolding.pairBit(first, second))] += 1 }
        }
        // 676 pairs over 32 classes: about 21 each.
        #expect(perClass.min() ?? 0 >= 7 && perClass.max() ?? 0 <= 63, "\(perClass)")
    }

    @Test("a word-start match that ties the kept hits' lowest score still enters when it is shallower")
    func tieAtAWordStartEnters() throws {
        func entry(_ name: String) -> IndexedEntry {
            IndexedEntry(name: name, kind: .file, size: 1, modified: 0, inode: 0)
        }
        var catalog = Catalog()
        // Four hits fill a limit of one (hits are cut back at four times the limit), all one
        // byte in at a word start (5,999), two folders deep; then the same score one folder up.
        catalog.put(FolderRecord(path: "/a/b", entries: ["_abc1", "_abc2", "_abc3", "_abc4"].map(entry)))
        catalog.put(FolderRecord(path: "/z", entries: ["_abc9"].map(entry)))
        var query = SearchQuery(text: "abc")
        query.limit = 1
        #expect(NameIndex.search(query, in: catalog).map(\.path) == ["/z/_abc9"], "by scanning")
        let grams = NameGrams(NameOrder(catalog.folders), bandsFrom: 0)
        #expect(NameIndex.search(query, in: catalog, grams: grams).map(\.path) == ["/z/_abc9"], "by trigram")
    }

    @Test("a scattered match lacking some of the query's pairs still enters when its gaps are few enough")
    func scatteredMatchLackingPairsEnters() {
        func entry(_ name: String) -> IndexedEntry {
            IndexedEntry(name: name, kind: .file, size: 1, modified: 0, inode: 0)
        }
        var catalog = Catalog()
        // Four scattered matches of `abcd` with three gaps fill a limit of one (hits are cut back
        // at four times the limit): the cut-off is then 963 (1,000 less 7 bytes, less 30).
        catalog.put(
            FolderRecord(path: "/a", entries: ["axbxcxd", "axbxcxd1", "axbxcxd22", "axbxcxd333"].map(entry)))
        // Then a name holding neither `ab` nor `cd` (two gaps at least), with just those two: 974.
        catalog.put(FolderRecord(path: "/b", entries: ["axbcxd"].map(entry)))
        var query = SearchQuery(text: "abcd")
        query.limit = 1
        #expect(NameIndex.search(query, in: catalog).map(\.path) == ["/b/axbcxd"])
    }

    @Test("the names in order answer a query that starts enough names, and leave the others to a scan")
    func nameOrder() throws {
        func entry(_ name: String) -> IndexedEntry {
            IndexedEntry(name: name, kind: .file, size: 1, modified: 0, inode: 0)
        }
        let root = FolderRecord(
            path: "",
            entries: ["Report 2.pdf", "report.pdf", "reports", "summary report.md", ".report"].map(entry))
        let deeper = FolderRecord(
            path: "/a", entries: ["report.pdf", "Réport 9.txt", "other.txt"].map(entry))
        // Empty folders before, between and after: a name's number finds its folder past them.
        let empty = ["/e1", "/e2", "/e3"].map { FolderRecord(path: $0, entries: []) }
        let order = NameOrder([empty[0], root, empty[1], deeper, empty[2]])
        func paths(_ text: String, limit: Int, folder: String = "") -> [String]? {
            var query = SearchQuery(text: text)
            query.limit = limit
            return order.prefixHits(for: query, text: NameFolding.fold(text), under: folder)?.sorted().map {
                $0.record.path(of: $0.index)
            }
        }
        // Shorter first (a prefix scores 8,000 less the name's length), then shallower.
        #expect(paths("rep", limit: 3) == ["/reports", "/report.pdf", "/a/report.pdf"])
        #expect(
            paths("rep", limit: 5) == [
                "/reports", "/report.pdf", "/a/report.pdf", "/Report 2.pdf", "/a/Réport 9.txt",
            ])
        #expect(
            paths("rep", limit: 6) == nil,
            "only five names start with it (the hidden one is not asked for): a scan must add substrings")
        #expect(paths("rep", limit: 2, folder: "/a") == ["/a/report.pdf", "/a/Réport 9.txt"])
        #expect(paths("summ", limit: 1) == ["/summary report.md"])
        #expect(paths("zzz", limit: 1) == nil && paths("other", limit: 2) == nil)
    }
}

/// A reproducible random source for generated trees.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
