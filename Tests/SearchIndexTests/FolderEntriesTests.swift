import Testing

@testable import SearchIndex

@Suite("A folder's entries kept as columns")
struct FolderEntriesTests {
    private static let names = [
        "a", "Report 2.pdf", "a name that is much longer than fifteen bytes.txt", "résumé.PDF", ".hidden.md",
        "no extension", "emoji 📷.JPG", "", "ends with a dot.", ".md", "a.b.c.tar.gz",
        ".\u{301}conf", "x\u{600}.pdf", "\u{600}.pdf", "a.\u{301}md", "ré.sumé.Pdf",
    ]

    private static func entries(_ random: inout SeededGenerator) -> [IndexedEntry] {
        let kinds: [IndexedEntry.Kind] = [.file, .directory, .symlink]
        return names.map {
            IndexedEntry(
                name: $0, kind: kinds[Int.random(in: 0..<kinds.count, using: &random)],
                size: Int64.random(in: 0...1_000, using: &random),
                modified: Int64.random(in: -1_000...1_000, using: &random),
                inode: UInt64.random(in: 0...UInt64.max, using: &random))
        }
    }

    @Test("every entry reads back as it was put in, in order, names byte for byte")
    func roundTrip() {
        var random = SeededGenerator(seed: 7)
        let entries = Self.entries(&random)
        let columns = FolderEntries(entries)
        #expect(columns.count == entries.count)
        #expect(Array(columns) == entries)
        for (index, entry) in entries.enumerated() {
            #expect(Array(columns.name(at: index).utf8) == Array(entry.name.utf8))
            #expect(columns.withName(at: index) { Array($0) } == Array(entry.name.utf8))
        }
        #expect(FolderEntries([]).isEmpty)
        for (index, name) in Self.names.enumerated() where !Self.names[..<index].contains(name) {
            #expect(columns.firstIndex(named: Substring("/x/" + name).dropFirst(3)) == index, "\(name)")
        }
        #expect(
            columns.firstIndex(named: "re\u{301}sume\u{301}.PDF") == nil,
            "the other Unicode form is another name")
        #expect(columns.firstIndex(named: "missing") == nil)
    }

    @Test("sizes and inodes read back exactly, the few far from the smallest kept apart")
    func narrowColumns() {
        let values: [Int64] = [
            0, 1, 4_294_967_294, 4_294_967_295, 4_294_967_296, 12, Int64.max, 7, 1 << 40, 4_294_967_295,
        ]
        let column = NarrowColumn(values)
        #expect(values.indices.map { column[$0] } == values)
        #expect(column == NarrowColumn(values))
        var changed = values
        changed[6] -= 1
        #expect(column != NarrowColumn(changed))
        let inodes: [Int64] = [Int64.min, -1, Int64.max, 5_000_000_000, 5_000_000_007, 4_999_999_999]
        let mixed = NarrowColumn(inodes)
        #expect(inodes.indices.map { mixed[$0] } == inodes, "inodes past Int64.max are negative bit patterns")
        let near = NarrowColumn((0..<1_000).map { 9_000_000_000 + Int64($0) * 3 })
        #expect(near[999] == 9_000_002_997)
    }

    @Test("a name that is its own folded form is kept once; the others are kept as they are, too")
    func lowercaseNamesKeptOnce() {
        let names = ["notes.txt", "report 2.pdf", "Report 3.pdf", "résumé.pdf", "img_0001.jpg", "📷.jpg"]
        let columns = FolderEntries(
            names.map { IndexedEntry(name: $0, kind: .file, size: 0, modified: 0, inode: 0) })
        #expect(columns.unlikeNameBytes == "Report 3.pdf".utf8.count + "résumé.pdf".utf8.count)
        #expect(columns.folded.count == names.reduce(0) { $0 + $1.utf8.count } - 2, "é folds to e")
        for (index, name) in names.enumerated() {
            #expect(columns.withName(at: index) { Array($0) } == Array(name.utf8), "\(name)")
        }
        #expect(columns.firstIndex(named: "Report 3.pdf") == 2)
        #expect(columns.firstIndex(named: "report 3.pdf") == nil)
    }

    @Test(
        "the same entries are told apart from any change: a name's Unicode form, a date, an inode, the order")
    func sameness() {
        var random = SeededGenerator(seed: 8)
        let entries = Self.entries(&random)
        let columns = FolderEntries(entries)
        #expect(columns.holdsTheSame(as: entries))
        #expect(columns.holdsTheSame(as: FolderEntries(entries)))
        var renamed = entries
        renamed[3].name = "re\u{301}sume\u{301}.PDF"  // equal as Swift strings, other bytes on disk
        #expect(renamed[3].name == entries[3].name)
        #expect(!columns.holdsTheSame(as: renamed))
        var touched = entries
        touched[5].modified += 1
        #expect(!columns.holdsTheSame(as: touched))
        var replaced = entries
        replaced[0].inode &+= 1
        #expect(!columns.holdsTheSame(as: replaced))
        #expect(!columns.holdsTheSame(as: Array(entries.reversed())))
        #expect(!columns.holdsTheSame(as: Array(entries.dropLast())))
        #expect(!columns.holdsTheSame(as: FolderEntries(touched)))
    }

    @Test("names order as Swift orders them as strings, composed and decomposed accents too")
    func nameOrder() {
        let names = [
            "abc", "abd", "abc\u{301}", "ab\u{107}", "abé", "abe\u{301}", "ab", "abcd", "Abc", "a b",
            "ab.txt",
            "ab\u{301}c", "résumé", "re\u{301}sume\u{301}", "", "z", "é", "e", "📷", "abc\u{301}d",
            "abd\u{301}",
        ]
        let entries = FolderEntries(
            names.map { IndexedEntry(name: $0, kind: .file, size: 0, modified: 0, inode: 0) })
        for (i, left) in names.enumerated() {
            for (j, right) in names.enumerated() {
                let expected = left == right ? 0 : left < right ? -1 : 1
                #expect(
                    entries.compareName(at: i, to: entries, at: j) == expected, "\(left) against \(right)")
            }
        }
    }

    @Test("filters read from the columns admit exactly what they admit of the entries")
    func filtersAgree() {
        var random = SeededGenerator(seed: 9)
        let entries = Self.entries(&random)
        let columns = FolderEntries(entries)
        for _ in 0..<400 {
            var query = SearchQuery(text: "")
            if Bool.random(using: &random) {
                query.extensions = Set(
                    ["pdf", "md", "jpg", "gz", "txt", ""].filter { _ in Bool.random(using: &random) })
            }
            if Bool.random(using: &random) { query.kinds = [.file] }
            if Bool.random(using: &random) {
                query.modifiedAfter = Int64.random(in: -1_000...1_000, using: &random)
            }
            if Bool.random(using: &random) {
                query.modifiedBefore = Int64.random(in: -1_000...1_000, using: &random)
            }
            if Bool.random(using: &random) { query.minimumSize = Int64.random(in: 0...1_000, using: &random) }
            if Bool.random(using: &random) { query.maximumSize = Int64.random(in: 0...1_000, using: &random) }
            query.includesHidden = Bool.random(using: &random)
            for (index, entry) in entries.enumerated() {
                #expect(query.admits(columns, at: index) == query.admits(entry), "\(entry.name) \(query)")
            }
        }
    }
}
