import FileTree
import Foundation
import TestSupport
import Testing

@Suite("Reading folders")
struct DirectoryReaderTests {
    let reader = DirectoryReader()

    @Test("a shallow read returns every awkward name exactly, NFC and NFD apart")
    func awkwardNames() throws {
        let folder = try TemporaryFolder()
        for name in AwkwardNames.all { try folder.file(name, name) }
        let node = try reader.read(at: folder.path)
        #expect(Set(node.entries.map(\.name)) == Set(AwkwardNames.all))
        #expect(node.entries.count == AwkwardNames.all.count)
        for entry in node {
            #expect(entry.size == Int64(entry.name.utf8.count), "\(entry.name)")
            #expect(entry.error == nil)
            #expect(FileManager.default.fileExists(atPath: entry.path), "the path of \(entry.name) must open")
        }
        let longest = try #require(node.child(named: AwkwardNames.longest))
        #expect(longest.entry.name.utf8.count == 255)
    }

    @Test("entries carry the default metadata from one status call")
    func metadata() throws {
        let folder = try TemporaryFolder()
        try folder.file("notes #1.md", "# Hello\n", mode: 0o640)
        try folder.file("empty.txt")
        try folder.folder("Sub Folder")
        let before = Date().addingTimeInterval(-5)
        let node = try reader.read(at: folder.path)

        let notes = try #require(node.child(named: "notes #1.md")).entry
        #expect(notes.type == .regular && notes.isRegularFile)
        #expect(notes.size == 8)
        #expect(notes.allocatedSize >= 0)
        #expect(notes.pathExtension == "md")
        #expect(notes.displayName == "notes #1")
        #expect(notes.path == folder.path + "/notes #1.md")
        #expect(notes.parentPath == folder.path)
        #expect(notes.url.lastPathComponent == "notes #1.md")
        #expect(notes.permissions == FilePermissions(rawValue: 0o640))
        #expect(notes.permissions?.description == "rw-r-----")
        #expect(notes.ownerID == getuid())
        #expect(notes.contentType == .markdown)
        #expect(notes.mimeType == "text/markdown")
        let modified = try #require(notes.modified)
        #expect(modified > before && modified < Date().addingTimeInterval(5))
        #expect(notes.accessed != nil && notes.statusChanged != nil)
        #expect(notes.status?.modified.nanoseconds ?? -1 >= 0)

        let empty = try #require(node.child(named: "empty.txt")).entry
        #expect(empty.size == 0)

        let sub = try #require(node.child(named: "Sub Folder"))
        #expect(sub.entry.type == .directory && sub.entry.contentType == .folder)
        #expect(sub.children == nil, "a shallow read does not read below the top")
        #expect(node.entry.path == folder.path)
        #expect(node.entry.isDirectory)
    }

    @Test("the creation date is the birth time where the file system keeps one")
    func creationDate() throws {
        let folder = try TemporaryFolder()
        try folder.file("born.txt", "x")
        let entry = try reader.entry(at: folder.path("born.txt"))
        if let created = entry.created {
            #expect(abs(created.timeIntervalSinceNow) < 60)
            #expect(created <= (entry.modified ?? created))
        } else {
            // tmpfs and some others keep no birth time; the entry says so instead of inventing one.
            #expect(entry.status?.created == nil)
        }
    }

    @Test("a deep read covers the tree but never enters symlinked folders or packages")
    func deepRead() throws {
        let folder = try TemporaryFolder()
        try folder.file("docs/a.txt", "a")
        try folder.file("docs/deeper/b.txt", "b")
        try folder.file("Tool.app/Contents/Info.plist", "<plist/>")
        try folder.file("outside/secret.txt", "s")
        try folder.symlink("docs/link-to-outside", to: "../outside")
        let tree = try reader.read(at: folder.path, depth: .deep)
        let paths = Set(tree.map { String($0.path.dropFirst(folder.path.count + 1)) })
        #expect(
            paths == [
                "docs", "docs/a.txt", "docs/deeper", "docs/deeper/b.txt", "docs/link-to-outside", "Tool.app",
                "outside", "outside/secret.txt",
            ])
        let app = try #require(tree.child(named: "Tool.app"))
        #expect(app.entry.isPackage && app.children == nil)
        let link = try #require(tree.node(atRelativePath: "docs/link-to-outside"))
        #expect(link.entry.type == .symlink && link.children == nil)
        #expect(link.entry.symlink?.targetType == .directory)
        #expect(link.entry.symlink?.resolvedPath == folder.path("outside"))
        #expect(tree.node(atRelativePath: "docs/deeper")?.entries.map(\.name) == ["b.txt"])
    }

    @Test("depth levels stop the read where asked")
    func levels() throws {
        let folder = try TemporaryFolder()
        try folder.file("1/2/3/deep.txt")
        let two = try reader.read(at: folder.path, depth: .levels(2))
        #expect(two.map(\.name) == ["1", "2"])
        #expect(two.node(atRelativePath: "1/2")?.children == nil)
    }

    @Test("a broken symlink is listed as broken, with its target")
    func brokenSymlink() throws {
        let folder = try TemporaryFolder()
        try folder.symlink("dangling", to: "no such file.txt")
        let entry = try #require(try reader.read(at: folder.path).child(named: "dangling")).entry
        #expect(entry.type == .symlink)
        #expect(entry.symlink?.target == "no such file.txt")
        #expect(entry.symlink?.isBroken == true)
        #expect(entry.contentType == .symbolicLink)
        #expect(entry.error == nil)
    }

    @Test("a symlink loop is read without a hang and reported as broken")
    func symlinkLoop() async throws {
        let folder = try TemporaryFolder()
        try folder.symlink("a", to: "b")
        try folder.symlink("b", to: "a")
        try folder.symlink("self", to: ".")
        try folder.file("real.txt", "r")
        let tree = try await reader.read(at: folder.path, depth: .deep)
        #expect(Set(tree.map(\.name)) == ["a", "b", "self", "real.txt"])
        #expect(tree.child(named: "a")?.entry.symlink?.isBroken == true)
        #expect(tree.child(named: "self")?.entry.symlink?.targetType == .directory)
        #expect(tree.child(named: "self")?.children == nil)
    }

    @Test("an unreadable folder is reported on its node and the walk goes on")
    func unreadableFolder() throws {
        let folder = try TemporaryFolder()
        try folder.file("locked/secret.txt", "s")
        try folder.file("open/visible.txt", "v")
        try folder.setMode("locked", 0o000)
        let path = folder.path
        // On one thread: root's file-access override is dropped for the calling thread only, and
        // a parallel read may read the locked folder on another (it did, once, in a full run).
        var reader = DirectoryReader()
        reader.readsInParallel = false
        let result = withOrdinaryFileAccess { [reader] () -> Result<FileNode, FileTreeError> in
            Result { () throws(FileTreeError) in try reader.read(at: path, depth: .deep) }
        }
        let tree = try #require(result, "permissions cannot be enforced on this machine").get()
        let locked = try #require(tree.child(named: "locked"))
        #expect(locked.readError?.code == .permissionDenied)
        #expect(locked.readError?.path == folder.path("locked"))
        #expect(locked.children == nil)
        #expect(tree.node(atRelativePath: "open")?.entries.map(\.name) == ["visible.txt"])
        #expect(tree.errors.map(\.code) == [.permissionDenied])
    }

    @Test("an entry whose metadata cannot be read is still listed, with its error")
    func unreadableEntry() throws {
        let folder = try TemporaryFolder()
        try folder.file("listable/inside.txt", "i")
        try folder.setMode("listable", 0o444)  // names readable, but no search permission
        let path = folder.path("listable")
        let result = withOrdinaryFileAccess { () -> Result<FileNode, FileTreeError> in
            Result { () throws(FileTreeError) in try DirectoryReader().read(at: path) }
        }
        let node = try #require(result, "permissions cannot be enforced on this machine").get()
        let entry = try #require(node.entries.first)
        #expect(entry.name == "inside.txt")
        #expect(entry.status == nil)
        #expect(entry.error?.code == .permissionDenied)
        #expect(entry.type == .regular, "the type still comes from readdir")
    }

    @Test("a folder of 10,000 entries is read completely")
    func tenThousand() throws {
        let folder = try TemporaryFolder()
        for index in 0..<10_000 { try folder.file("item \(index).txt") }
        let node = try DirectoryReader(order: .browsey).read(at: folder.path)
        #expect(node.entries.count == 10_000)
        #expect(node.entries.first?.name == "item 0.txt")
        #expect(node.entries[9].name == "item 9.txt")
        #expect(node.entries[10].name == "item 10.txt")
        #expect(node.entries.last?.name == "item 9999.txt")
    }

    @Test(
        "a large folder's listing (read on two threads when a core is free) has every entry's own size, type and place"
    )
    func largeListing() throws {
        let folder = try TemporaryFolder()
        // Sizes that tell the entries apart, folders and links to folders among them: whichever
        // thread reads an entry, its status must land in its own place.
        for index in 0..<5_000 {
            if index % 500 == 7 {
                _ = try folder.folder("entry \(index)")
            } else if index % 500 == 9 {
                _ = try folder.symlink("entry \(index)", to: "entry \(index - 2)")
            } else {
                _ = try folder.file("entry \(index)", [UInt8](repeating: 0x61, count: index % 997))
            }
        }
        let listing = try DirectoryReader(order: .browsey).listing(in: OpenFolder(path: folder.path))
        #expect(listing.items.count == 5_000)
        var folders = 0
        for item in listing.items {
            let index = try #require(Int(listing.name(of: item).dropFirst("entry ".count)))
            switch index % 500 {
            case 7:
                #expect(item.type == .directory)
                folders += 1
            case 9:
                #expect(item.type == .symlink && item.sortsAsFolder)
                folders += 1
            default:
                #expect(item.type == .regular && item.size == Int64(index % 997))
            }
        }
        #expect(folders == 20)
        let foldersFirst = listing.items.prefix(20).allSatisfy { $0.sortsAsFolder }
        #expect(foldersFirst, "folders and links to them first")
    }

    @Test("reading a missing path or a file throws a clear error")
    func errors() throws {
        let folder = try TemporaryFolder()
        try folder.file("file.txt")
        #expect {
            try reader.read(at: folder.path("missing"))
        } throws: { error in
            (error as? FileTreeError)?.code == .notFound && (error as? FileTreeError)?.errno == ENOENT
        }
        #expect {
            try reader.read(at: folder.path("file.txt"))
        } throws: { error in
            (error as? FileTreeError)?.code == .notADirectory
        }
        #expect(throws: FileTreeError.self) { try reader.entry(at: folder.path("missing")) }
    }

    @Test("the sync and async reads give the same tree")
    func asyncRead() async throws {
        let folder = try TemporaryFolder()
        try folder.file("a/b/c.txt", "c")
        try folder.file("d.txt", "d")
        let sorted = DirectoryReader(order: .browsey)
        let sync = try { try sorted.read(at: folder.path, depth: .deep).map(\.path) }()
        let async = try await sorted.read(at: folder.url(""), depth: .deep).map(\.path)
        #expect(sync == async)
        #expect(sync.count == 4)
        var serial = sorted
        serial.readsInParallel = false
        #expect(try { try serial.read(at: folder.path, depth: .deep).map(\.path) }() == sync)
    }

    @Test("the streaming walk visits the same entries, and can skip and stop")
    func walk() throws {
        let folder = try TemporaryFolder()
        try folder.file("keep/x.txt")
        try folder.file("skip/y.txt")
        try folder.file("z.txt")
        var seen: [String] = []
        let problems = try DirectoryReader(order: .browsey).walk(at: folder.path) { entry, level in
            seen.append("\(level):\(entry.name)")
            return entry.name == "skip" ? .skipChildren : .continue
        }
        #expect(seen == ["1:keep", "2:x.txt", "1:skip", "1:z.txt"])
        #expect(problems.isEmpty)
        var count = 0
        try DirectoryReader().walk(at: folder.path) { _, _ in
            count += 1
            return .stop
        }
        #expect(count == 1)
    }

    @Test("a name that is not UTF-8 reads as U+FFFD, keeps its bytes, and the walk enters it")
    func namesThatAreNotUTF8() throws {
        let folder = try TemporaryFolder()
        let latin: [UInt8] = Array("r".utf8) + [0xE9] + Array("sum".utf8) + [0xE9]  // Latin-1 "résumé"
        try folder.make(systemPath: latin)
        let inside = try OpenFolder(path: folder.path).folder(systemName: latin)
        try FileOperations.makeFolder(named: "inside", in: inside)
        try folder.file("plain.txt")
        var seen: [(level: Int, name: String, bytes: [UInt8], exact: Bool)] = []
        let problems = try DirectoryReader(order: .browsey).walk(at: folder.path) { entry, level in
            seen.append((level, entry.name, entry.systemName, entry.hasExactName))
            return .continue
        }
        #expect(problems.isEmpty)
        #expect(seen.count == 3, "\(seen.map(\.name))")
        let odd = try #require(seen.first { !$0.exact })
        #expect(odd.name == "r\u{FFFD}sum\u{FFFD}" && odd.bytes == latin && odd.level == 1)
        #expect(seen.contains { $0.name == "inside" && $0.level == 2 }, "the walk went in by the bytes")
        let plain = try #require(seen.first { $0.name == "plain.txt" })
        #expect(plain.exact && plain.bytes == Array("plain.txt".utf8))
    }

    @Test("extra metadata is loaded only when asked, per call or per reader")
    func extraAttributes() throws {
        let folder = try TemporaryFolder()
        try folder.file("sub/one.txt")
        try folder.file("sub/two.txt")
        try folder.file("empty.txt")
        let plain = try reader.read(at: folder.path)
        #expect(plain.child(named: "sub")?.entry[.childCount] == nil)

        let counted = try reader.read(at: folder.path, extraAttributes: [.childCount, .ownerName])
        #expect(counted.child(named: "sub")?.entry[.childCount] == 2)
        #expect(counted.child(named: "empty.txt")?.entry[.childCount] == nil)
        let owner = counted.child(named: "empty.txt")?.entry[.ownerName]
        #expect(owner != nil && owner?.isEmpty == false)

        let isEmpty = EntryAttribute<Bool>(name: "test.isEmptyFile") { context in
            context.type == .regular ? context.status.map { $0.size == 0 } : nil
        }
        let custom = DirectoryReader(extraAttributes: [AnyEntryAttribute(isEmpty)])
        let node = try custom.read(at: folder.path)
        #expect(node.child(named: "empty.txt")?.entry[isEmpty] == true)
        #expect(node.child(named: "sub")?.entry[isEmpty] == nil)
        #expect(node.child(named: "empty.txt")?.entry.extraAttributeNames == ["test.isEmptyFile"])
    }

    @Test("cancelling the task of an async deep read stops it with a cancelled error")
    func cancellation() async throws {
        let folder = try TemporaryFolder()
        for index in 0..<200 { try folder.file("f\(index)/a.txt") }
        let task = Task { try await DirectoryReader().read(at: folder.path, depth: .deep) }
        task.cancel()
        do {
            let tree = try await task.value
            // The read may finish before the cancellation lands; then it is complete.
            #expect(tree.descendantCount == 400)
        } catch let error as FileTreeError {
            #expect(error.code == .cancelled)
        }
    }
}
