import FileTree
import Synchronization
import TestSupport
import Testing

@Suite("Folder listings")
struct FolderListingTests {
    /// A folder with awkward names, folders, links (to a folder, to a file, dangling), sizes and
    /// hidden names, so that every order and filter has something to decide.
    static func awkwardFolder() throws -> TemporaryFolder {
        try TemporaryTreeFixture.make { tree in
            for (index, name) in AwkwardNames.all.enumerated() {
                try tree.file(name, String(repeating: "x", count: index * 7 % 23))
            }
            try tree.file("File 2.txt", "22")
            try tree.file("file 10.txt", "1")
            try tree.file("éclair.md", "")
            try tree.file(".hidden.txt", "h")
            try tree.file("notes.log", "l")
            try tree.folder("Zebra")
            try tree.folder("banana")
            try tree.symlink("link to banana", to: "banana")
            try tree.symlink("link to a file", to: "File 2.txt")
            try tree.symlink("dangling", to: "nowhere")
        }
    }

    @Test(
        "a listing holds the entries of entries(at:), with the same metadata, in the same order, for every order",
        arguments: [
            EntryOrder.browsey, EntryOrder(.name, ascending: false), EntryOrder(.size),
            EntryOrder(.size, ascending: false, foldersFirst: false), EntryOrder(.modified),
            EntryOrder(.kind),
            EntryOrder(.created, ascending: false),
        ])
    func sameAsEntries(order: EntryOrder) throws {
        let folder = try Self.awkwardFolder()
        let reader = DirectoryReader(order: order)
        let entries = try reader.entries(at: folder.path)
        let listing = try reader.listing(at: folder.path)
        #expect(listing.items.map { listing.name(of: $0) } == entries.map(\.name))
        #expect(listing.items.map(\.type) == entries.map(\.type))
        // Everything but the access time, which reading a link's target moves.
        func summary(_ status: FileStatus?) -> String {
            status.map {
                "\($0.mode) \($0.inode) \($0.size) \($0.modified) \($0.created.map(String.init(describing:)) ?? "-")"
            } ?? "unread"
        }
        #expect(listing.items.map { summary($0.status) } == entries.map { summary($0.status) })
        #expect(listing.items.map { listing.path(of: $0) } == entries.map(\.path))
        #expect(listing.readError == nil)
    }

    @Test(
        "a folder large enough to be read on two threads holds the entries of entries(at:), links and folders sorted alike",
        arguments: [EntryOrder.browsey, EntryOrder(.size, ascending: false), EntryOrder(.kind)])
    func largeSameAsEntries(order: EntryOrder) throws {
        let folder = try Self.awkwardFolder()
        for index in 0..<5000 {
            try folder.file("bulk \(index).txt", String(repeating: "y", count: index % 97))
        }
        _ = try folder.folder("zz folder in the second half")
        _ = try folder.symlink("zz link to Zebra", to: "Zebra")
        let reader = DirectoryReader(order: order)
        let entries = try reader.entries(at: folder.path)
        let listing = try reader.listing(at: folder.path)
        #expect(listing.items.count == entries.count && entries.count > 5000)
        #expect(listing.items.map { listing.name(of: $0) } == entries.map(\.name))
        #expect(listing.items.map(\.type) == entries.map(\.type))
        let sortedAsFolders = Set(listing.items.filter(\.sortsAsFolder).map { listing.name(of: $0) })
        #expect(sortedAsFolders.isSuperset(of: ["zz link to Zebra", "link to banana", "Zebra", "banana"]))
        #expect(!sortedAsFolders.contains("link to a file") && !sortedAsFolders.contains("dangling"))
        #expect(listing.items.map { $0.status?.size } == entries.map { $0.status?.size })
        #expect(listing.items.map { $0.status?.inode } == entries.map { $0.status?.inode })
    }

    @Test("filters leave out the same names: hidden, globs, a predicate, folders only")
    func sameFilters() throws {
        let folder = try Self.awkwardFolder()
        let filters = [
            EntryFilter.visible,
            EntryFilter(includesHidden: false, excludedNames: [NamePattern("*.log"), NamePattern("Zebra")]),
            EntryFilter(predicate: { $0.size > 2 }),
            {
                var filter = EntryFilter.all; filter.foldersOnly = true; return filter
            }(),
        ]
        for filter in filters {
            let reader = DirectoryReader(filter: filter, order: .browsey)
            let listing = try reader.listing(at: folder.path)
            #expect(
                listing.items.map { listing.name(of: $0) }
                    == (try reader.entries(at: folder.path)).map(\.name))
        }
        let visible = try DirectoryReader(filter: .visible).listing(at: folder.path)
        #expect(!visible.items.contains { listing in visible.name(of: listing).hasPrefix(".") })
    }

    @Test("a link to a folder sorts with the folders, and its full entry says where it points")
    func linksToFolders() throws {
        let folder = try Self.awkwardFolder()
        let listing = try DirectoryReader(order: .browsey).listing(at: folder.path)
        let names = listing.items.map { listing.name(of: $0) }
        #expect(Array(names.prefix(3)) == ["banana", "link to banana", "Zebra"])
        let link = try #require(listing.items.first { listing.name(of: $0) == "link to banana" })
        #expect(link.type == .symlink && link.sortsAsFolder)
        #expect(try listing.entry(of: link).symlink?.targetType == .directory)
    }

    @Test(
        "a link to a folder its owner says not to follow sorts with the files, in a listing, entries and a deep read alike"
    )
    func linksTheOwnerRefuses() throws {
        let folder = try Self.awkwardFolder()
        var reader = DirectoryReader(order: .browsey)
        let asked = Mutex<[String]>([])
        reader.linkSortsAsFolder = { path in
            asked.withLock { $0.append(path) }
            return false
        }
        let listing = try reader.listing(at: folder.path)
        let names = listing.items.map { listing.name(of: $0) }
        #expect(Array(names.prefix(2)) == ["banana", "Zebra"])
        let link = try #require(listing.items.first { listing.name(of: $0) == "link to banana" })
        #expect(link.type == .symlink && !link.sortsAsFolder)
        #expect(try reader.entries(at: folder.path).map(\.name) == names)
        #expect(try reader.read(at: folder.path).entries.map(\.name) == names)
        // Asked only of the link to a folder, by its path; the link to a file is not asked.
        #expect(Set(asked.withLock { $0 }) == [folder.path + "/link to banana"])
    }

    @Test("a missing folder or a file is the same error as for entries(at:)")
    func errors() throws {
        let folder = try Self.awkwardFolder()
        #expect(throws: FileTreeError.self) { try DirectoryReader().listing(at: folder.path("missing")) }
        do {
            _ = try DirectoryReader().listing(at: folder.path("File 2.txt"))
            Issue.record("a file was listed")
        } catch {
            #expect(error.code == .notADirectory)
        }
    }
}
