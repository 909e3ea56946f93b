import Testing

@testable import SearchIndex

@Suite("Names by pair answer queries found inside names, and scattered letters")
struct NameGramsTests {
    private static func entry(_ name: String, modified: Int64 = 0) -> IndexedEntry {
        IndexedEntry(name: name, kind: .file, size: Int64(name.utf8.count), modified: modified, inode: 0)
    }

    @Test(
        "a query inside enough names is answered from the pair lists, a rarer one is left to the scattered reading"
    )
    func substringHitsOrNil() throws {
        let root = FolderRecord(
            path: "",
            entries: ["Report 2.pdf", "my report.pdf", "reports", "xreport.md", ".report", "other.txt"].map {
                Self.entry($0)
            })
        let deeper = FolderRecord(
            path: "/a", entries: ["old Réport 9.txt", "rXeXpXoXrXt"].map { Self.entry($0) })
        let grams = NameGrams(NameOrder([root, deeper]), bandsFrom: 0)
        func paths(_ text: String, limit: Int, folder: String = "") throws -> [String]? {
            var query = SearchQuery(text: text)
            query.limit = limit
            let matcher = try #require(NameMatcher(text))
            return grams.substringHits(for: query, matcher: matcher, under: folder)?.sorted().map {
                $0.record.path(of: $0.index)
            }
        }
        // Earlier in the name first, then shallower, then by name.
        #expect(
            try paths("eport", limit: 5) == [
                "/Report 2.pdf", "/reports", "/xreport.md", "/my report.pdf", "/a/old Réport 9.txt",
            ])
        #expect(try paths("eport", limit: 6) == nil, "five names hold it (the hidden one is not asked for)")
        #expect(try paths("eport", limit: 1, folder: "/a") == ["/a/old Réport 9.txt"])
        #expect(try paths("eport", limit: 2, folder: "/a") == nil, "scattered letters are read apart")
        #expect(try paths("ep", limit: 1) == nil, "two letters are a scan's")
        #expect(try paths("e port", limit: 1) == nil, "several words are a scan's")
        #expect(try paths("zzz", limit: 1) == nil)
    }

    @Test("names that differ only in case are ordered as written, also once the best are gathered")
    func sameFoldedNamesStillCompeteAfterTheCut() throws {
        var catalog = Catalog()
        // A limit of one is cut back after four hits, all `xeport` one folder deep (4,999: the
        // query one byte in); the folder written last holds `Xeport`, which comes first as written.
        for folder in ["/a", "/b", "/c", "/d", "/e", "/f"] {
            catalog.put(FolderRecord(path: folder, entries: [Self.entry("xeport")]))
        }
        catalog.put(FolderRecord(path: "/g", entries: [Self.entry("Xeport")]))
        var query = SearchQuery(text: "eport")
        query.limit = 1
        let grams = NameGrams(NameOrder(catalog.folders), bandsFrom: 0)
        #expect(NameIndex.search(query, in: catalog, grams: grams).map(\.path) == ["/g/Xeport"])
        #expect(NameIndex.search(query, in: catalog).map(\.path) == ["/g/Xeport"])
        // The same for a prefix, read from the names in order.
        query.text = "xepo"
        let order = NameOrder(catalog.folders)
        #expect(NameIndex.search(query, in: catalog, order: order).map(\.path) == ["/g/Xeport"])
    }

    @Test(
        "names holding the query one byte in are passed by a block at a time once deeper than the best, never a shallower one"
    )
    func deepBlocksArePassedByNotShallowerNames() throws {
        // 300 names two folders deep hold `ocket` one byte in (4,999); after them in the order
        // comes one a folder deep. Once the best five are gathered from the first deep names,
        // the blocks of deep names that follow are passed by whole; the block holding the name
        // a folder deep is still read, and that name ranks before them all.
        var catalog = Catalog()
        let deep = (1000..<1300).map { "xocket \(String($0).dropFirst())" }
        catalog.put(FolderRecord(path: "/a/b", entries: deep.map { Self.entry($0) }))
        catalog.put(FolderRecord(path: "/s", entries: [Self.entry("yocket")]))
        // The name a folder deep must be found from the names in order: none of its pairs
        // shares a bucket with the pairs that mark a word start (a separator, then `o`), which
        // are read from the lists instead.
        let grams = NameGrams(NameOrder(catalog.folders), bandsFrom: 0)
        let bits = grams.bucketBits
        let marking = Set(
            (UInt8(0)..<0x80).filter { !NameMatcher.isAlphanumeric($0) }.map {
                NameGrams.bucket($0, UInt8(ascii: "o"), bits: bits)
            })
        let pairs = Array("yocket".utf8)
        try #require(
            (1..<pairs.count).allSatisfy {
                !marking.contains(NameGrams.bucket(pairs[$0 - 1], pairs[$0], bits: bits))
            })
        var query = SearchQuery(text: "ocket")
        query.limit = 5
        let matcher = try #require(NameMatcher("ocket"))
        let expected = [
            "/s/yocket", "/a/b/xocket 000", "/a/b/xocket 001", "/a/b/xocket 002", "/a/b/xocket 003",
        ]
        #expect(
            grams.substringHits(for: query, matcher: matcher, under: "")?.sorted().map {
                $0.record.path(of: $0.index)
            } == expected)
        #expect(NameIndex.search(query, in: catalog).map(\.path) == expected)
    }

    @Test("the buckets grow with the names: a small folder keeps a small table, a million names the largest")
    func bucketsFollowTheNames() {
        #expect(NameGrams.bucketBits(forNames: 0) == 10)
        #expect(NameGrams.bucketBits(forNames: 3_000) == 13)
        #expect(NameGrams.bucketBits(forNames: 10_002) == 14, "64 KiB of offsets")
        #expect(NameGrams.bucketBits(forNames: 1_011_100) == 14)
        let small = NameGrams(NameOrder([FolderRecord(path: "", entries: [Self.entry("Report.pdf")])]))
        #expect(small.byteCount < 5_000)
    }

    @Test("a pair in more than one name in eight is listed as a bitmap, a rarer one as gaps; both read alike")
    func commonPairsAreBitmaps() throws {
        // 80 names: `re` in all of them, `zq` in 5 (fewer than one in eight), `xy` in 11.
        let names = (0..<80).map { number in
            "re \(number)" + (number % 16 == 0 ? " zq" : "") + (number % 7 == 0 ? " xy" : "")
        }
        let grams = NameGrams(NameOrder([FolderRecord(path: "", entries: names.map { Self.entry($0) })]))
        func listed(_ pair: String) -> (dense: Bool, numbers: [UInt32]) {
            let bytes = Array(pair.utf8)
            let bucket = NameGrams.bucket(bytes[0], bytes[1], bits: grams.bucketBits)
            var list = grams.cursor(bucket)
            var numbers: [UInt32] = []
            grams.withPostings { postings in
                while let number = list.next(in: postings) { numbers.append(number) }
            }
            return (grams.isDense(bucket), numbers)
        }
        // Names are numbered in the folder's order, which is the order given.
        #expect(listed("re").dense && listed("re").numbers == Array(0..<80))
        #expect(!listed("zq").dense && listed("zq").numbers == [0, 16, 32, 48, 64])
        #expect(
            listed("xy").dense && listed("xy").numbers == stride(from: 0, to: 80, by: 7).map { UInt32($0) })
    }

    @Test("on generated names, every query answers exactly what a scan of every name answers")
    func sameAsScan() async throws {
        var random = SeededGenerator(seed: 25)
        let pieces = [
            "rep", "ort", "eport", "a", "é", "ré", "Port", "po", "rt", "x", "-", " ", "_", "1", "12", ".",
            "md",
            "résumé", "REP", "ab", "ba", "aaa",
        ]
        func name() -> String {
            var name = ""
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                name += pieces.randomElement(using: &random)!
            }
            return name
        }
        var catalog = Catalog()
        var all: [String] = []
        for folder in ["", "/a", "/a/b", "/.hidden", "/c", "/c/d/e", "/ab"] {
            var names = Set<String>()
            for _ in 0..<Int.random(in: 20...200, using: &random) { names.insert(name()) }
            all += names
            catalog.put(
                FolderRecord(
                    path: folder,
                    entries: names.sorted().map {
                        Self.entry($0, modified: Int64.random(in: 0...1_000, using: &random))
                    }))
        }
        // Every list read in bands, and as the server reads them (these lists are short: whole).
        let banded = NameGrams(NameOrder(catalog.folders), bandsFrom: 0)
        let whole = NameGrams(NameOrder(catalog.folders))
        var texts = ["eport", "rep", "por", "ort", "aaa", "é r", "résumé", "md1", ".re", "zzzz", "rpt"]
        for _ in 0..<150 {
            let source = Array(all.randomElement(using: &random)!.lowercased())
            guard source.count >= 3 else { continue }
            let length = Int.random(in: 3...min(8, source.count), using: &random)
            let start = Int.random(in: 0...(source.count - length), using: &random)
            texts.append(String(source[start..<(start + length)]))
        }
        // And scattered letters: a name's bytes, some left out.
        for _ in 0..<100 {
            let source = Array(all.randomElement(using: &random)!.lowercased())
            let kept = source.filter { _ in Bool.random(using: &random) }
            if kept.count >= 3 { texts.append(String(kept)) }
        }
        var answered = 0
        var scattered = 0
        for text in texts {
            // Thousands of searches, tens of seconds in the full parallel run: the thread is
            // given back between texts, so the tests waiting on the two cores' shared threads
            // (live servers' clients among them) get their turns.
            await Task.yield()
            for limit in [1, 7, 50] {
                for folder in ["", "/a", "/c/d"] {
                    for variant in 0..<3 {
                        var query = SearchQuery(text: text)
                        query.limit = limit
                        query.folder = folder
                        if variant == 1 { query.includesHidden = true }
                        if variant == 2 { query.extensions = ["md"] }
                        let fromScan = NameIndex.search(query, in: catalog)
                        for grams in [banded, whole] {
                            for splitting in [NameIndex.Splitting.never, .always] {
                                #expect(
                                    NameIndex.search(
                                        query, in: catalog, grams: grams, splitting: splitting, scattersAt: 0)
                                        == fromScan,
                                    "\(text) limit \(limit) in \(folder), variant \(variant), \(splitting)")
                            }
                        }
                        if let matcher = NameMatcher(text) {
                            if banded.substringHits(for: query, matcher: matcher, under: folder) != nil {
                                answered += 1
                            } else if banded.scatteredHits(for: query, matcher: matcher, under: folder) != nil
                            {
                                scattered += 1
                            }
                        }
                    }
                }
            }
        }
        // The comparison means something only if the pair lists answered a good share both ways.
        #expect(answered > texts.count && scattered > texts.count, "\(answered), \(scattered)")
    }

    @Test("a scan passes by folders that lack one of the query's letters, and still finds every match")
    func foldersLackingALetterArePassedBy() throws {
        var catalog = Catalog()
        for number in 0..<300 {
            catalog.put(
                FolderRecord(
                    path: "/plain \(number)",
                    entries: ["report.pdf", "notes.txt", "IMG_\(number).jpg"].map { Self.entry($0) }))
        }
        catalog.put(FolderRecord(path: "/rare", entries: ["Zebra corn.txt", "z.txt"].map { Self.entry($0) }))
        catalog.put(FolderRecord(path: "/moved", entries: ["the zebra-corn log"].map { Self.entry($0) }))
        catalog.moveSubtree(from: "/moved", to: "/renamed")
        var query = SearchQuery(text: "zbrcrn")
        query.limit = 50
        #expect(
            NameIndex.search(query, in: catalog).map(\.path) == [
                "/rare/Zebra corn.txt", "/renamed/the zebra-corn log",
            ],
            "scattered letters, in a folder kept and in one renamed")
        query.text = "ZEBRA"
        #expect(NameIndex.search(query, in: catalog).count == 2)
        query.text = "repo"
        #expect(NameIndex.search(query, in: catalog).count == 50, "a letter every folder has passes none by")
    }
}
