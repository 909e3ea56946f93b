import FileTree
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Filters and orders")
struct FilterAndOrderTests {
    @Test("globs match whole names with *, ?, classes and escapes")
    func globs() {
        #expect(NamePattern("*.log").matches("server.log"))
        #expect(!NamePattern("*.log").matches("server.log.1"))
        #expect(NamePattern("file?.txt").matches("file1.txt"))
        #expect(!NamePattern("file?.txt").matches("file10.txt"))
        #expect(NamePattern("[abc]*").matches("beta"))
        #expect(!NamePattern("[!abc]*").matches("beta"))
        #expect(NamePattern("img_[0-9][0-9].png").matches("img_42.png"))
        #expect(NamePattern("\\*literal").matches("*literal"))
        #expect(!NamePattern("\\*literal").matches("xliteral"))
        #expect(NamePattern("node_modules").matches("node_modules"))
        #expect(NamePattern("*.JPG", ignoresCase: true).matches("photo.jpg"))
        #expect(NamePattern("a*b*c").matches("aXXbYYc"))
        #expect(!NamePattern("a*b*c").matches("aXXbYY"))
    }

    @Test("Browsey's order puts folders first, then names ignoring case, accents and number width")
    func browseyOrder() throws {
        let folder = try TemporaryTreeFixture.make { tree in
            for name in [
                "file 10.txt", "File 2.txt", "apple.txt", "Zebra", "éclair.txt", "eclair.txt", "banana",
            ] {
                if name == "Zebra" || name == "banana" { try tree.folder(name) } else { try tree.file(name) }
            }
        }
        let node = try DirectoryReader(order: .browsey).read(at: folder.path)
        #expect(
            node.entries.map(\.name) == [
                "banana", "Zebra", "apple.txt", "eclair.txt", "éclair.txt", "File 2.txt", "file 10.txt",
            ])
    }

    @Test("orders by size and by date go either way and keep folders first")
    func sizeAndDate() throws {
        let folder = try TemporaryTreeFixture.make { tree in
            try tree.file("small", "a")
            try tree.file("large", String(repeating: "a", count: 100_000))
            try tree.file("medium", String(repeating: "a", count: 100))
            try tree.folder("sub")
        }
        let reader = DirectoryReader()
        let node = try reader.read(at: folder.path)
        #expect(
            node.sorted(by: EntryOrder(.size)).entries.map(\.name) == ["sub", "small", "medium", "large"])
        #expect(
            node.sorted(by: EntryOrder(.size, ascending: false, foldersFirst: false)).entries.first?.name
                == "large")
        let byName = EntryOrder(.name, ascending: false)
        #expect(node.sorted(by: byName).entries.map(\.name) == ["sub", "small", "medium", "large"])
    }

    @Test("orders by kind and by modification date group and date entries, names breaking ties")
    func kindAndModified() throws {
        let folder = try TemporaryTreeFixture.make { tree in
            try tree.file("b.png")
            try tree.file("a.txt")
            try tree.file("c.png")
            try tree.file("A.txt")
        }
        let node = try DirectoryReader().read(at: folder.path)
        // com.compuserve… < public.plain-text < public.png; ties by name, case folded, exact name last.
        #expect(
            node.sorted(by: EntryOrder(.kind)).entries.map(\.name) == ["A.txt", "a.txt", "b.png", "c.png"])
        for (index, name) in ["a.txt", "A.txt", "b.png", "c.png"].enumerated() {
            var times = [
                timespec(tv_sec: 1_000_000 + index * 100, tv_nsec: 0),
                timespec(tv_sec: 1_000_000 + index * 100, tv_nsec: 0),
            ]
            utimensat(AT_FDCWD, folder.path(name), &times, 0)
        }
        let dated = try DirectoryReader().read(at: folder.path)
        #expect(
            dated.sorted(by: EntryOrder(.modified, ascending: false)).entries.map(\.name) == [
                "c.png", "b.png", "A.txt", "a.txt",
            ])
        #expect(
            dated.sorted(by: EntryOrder(.modified)).entries.map(\.name) == [
                "a.txt", "A.txt", "b.png", "c.png",
            ])
    }

    @Test("hidden names and ignored globs are neither listed nor descended into")
    func filters() throws {
        let folder = try TemporaryTreeFixture.make { tree in
            try tree.file(".env", "SECRET=1")
            try tree.file(".git/config")
            try tree.file("node_modules/pkg/index.js")
            try tree.file("notes.md")
            try tree.file("build.log")
        }
        var filter = EntryFilter.visible
        filter.excludedNames = [NamePattern("node_modules"), NamePattern("*.log")]
        let tree = try DirectoryReader(filter: filter).read(at: folder.path, depth: .deep)
        #expect(tree.map(\.name) == ["notes.md"])
        let everything = try DirectoryReader().read(at: folder.path, depth: .deep)
        #expect(everything.descendantCount == 8)
    }

    @Test("a predicate filter sees the metadata and prunes folders it refuses")
    func predicate() throws {
        let folder = try TemporaryTreeFixture.make { tree in
            try tree.file("empty.txt")
            try tree.file("full.txt", "x")
            try tree.file("skip/inner.txt", "x")
        }
        let filter = EntryFilter(predicate: { $0.name != "skip" && ($0.isDirectory || $0.size > 0) })
        let tree = try DirectoryReader(filter: filter).read(at: folder.path, depth: .deep)
        #expect(tree.map(\.name) == ["full.txt"])
    }
}

@Suite("Folder-only walks")
struct FoldersOnlyTests {
    @Test("a folders-only walk keeps every folder and no file, link or package contents")
    func foldersOnly() throws {
        let folder = try TemporaryTreeFixture.make { tree in
            try tree.file("a/b/c/deep.txt")
            try tree.file("a/top.txt")
            try tree.file("Tool.app/Contents/Info.plist")
            try tree.symlink("a/link", to: "b")
        }
        var filter = EntryFilter()
        filter.foldersOnly = true
        var seen: [String] = []
        try DirectoryReader(filter: filter, order: .browsey).walk(at: folder.path) { entry, _ in
            seen.append(String(entry.path.dropFirst(folder.path.count + 1)))
            return .continue
        }
        #expect(seen == ["a", "a/b", "a/b/c", "Tool.app"])
    }
}
