import FileTree
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("A contained root: nothing opened through it leaves it")
struct ContainedRootTests {
    /// `served/` with a folder and links of every kind, beside `outside/`.
    static func tree() throws -> (folder: TemporaryFolder, root: ContainedRoot) {
        let folder = try TemporaryFolder()
        try folder.file("served/docs/a #1.txt", "inside")
        try folder.file("outside/secret.txt", "outside")
        _ = try folder.symlink("served/in", to: "docs")
        _ = try folder.symlink("served/out", to: "../outside")
        _ = try folder.symlink("served/docs/up", to: "../../outside/secret.txt")
        _ = try folder.symlink("served/abs-out", to: folder.path("outside"))
        let root = try ContainedRoot(path: folder.path("served"))
        _ = try folder.symlink("served/abs-in", to: root.realPath + "/docs/../docs")
        return (folder, root)
    }

    static func text(_ descriptor: Int32) -> String {
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &bytes, 64)
        return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }

    @Test("paths below the root open, through links that stay inside, relative or absolute")
    func insideOpens() throws {
        let (tree, root) = try Self.tree()
        defer { withExtendedLifetime(tree) {} }
        for path in [
            "docs/a #1.txt", "/docs/a #1.txt", "in/a #1.txt", "abs-in/a #1.txt", "docs/../docs/a #1.txt",
        ] {
            #expect(Self.text(try root.open(path, flags: O_RDONLY)) == "inside", "\(path)")
        }
        #expect(try root.openFolder("").path == root.path)
    }

    @Test("a .. past the root, or a link that leads out, relative or absolute, is refused as outsideRoot")
    func outsideRefused() throws {
        let (tree, root) = try Self.tree()
        defer { withExtendedLifetime(tree) {} }
        for path in [
            "../outside/secret.txt", "out/secret.txt", "docs/up", "abs-out/secret.txt",
            "docs/../../outside/secret.txt",
        ] {
            let error = #expect(throws: FileTreeError.self, "\(path)") {
                try root.open(path, flags: O_RDONLY)
            }
            #expect(error?.code == .outsideRoot, "\(path)")
        }
    }

    @Test("a write's final target follows links inside and refuses links that lead out")
    func finalTargets() throws {
        let (tree, root) = try Self.tree()
        defer { withExtendedLifetime(tree) {} }
        let (folder, name) = try root.finalTarget(of: "in/a #1.txt")
        let docs = try DirectoryReader().entry(at: tree.path("served/docs")).status?.inode
        #expect(name == "a #1.txt" && folder.status()?.inode == docs)
        let (_, fresh) = try root.finalTarget(of: "docs/new.txt")
        #expect(fresh == "new.txt")
        for path in ["docs/up", "out/secret.txt", "abs-out/secret.txt"] {
            #expect(throws: FileTreeError.self, "\(path)") { try root.finalTarget(of: path) }
        }
    }

    @Test("a tree deeper than PATH_MAX is opened, copied and removed whole, one descriptor at a time")
    func deeperThanPathMax() throws {
        let folder = try TemporaryFolder()
        let root = try ContainedRoot(path: folder.path(""))
        let name = String(repeating: "d", count: 200)
        var current = root.folder
        var relative = ""
        for _ in 0..<30 {  // 30 × 201 bytes: past the 4,096 of PATH_MAX
            try FileOperations.makeFolder(named: name, in: current)
            current = try current.folder(named: name)
            relative += "/" + name
        }
        let writer = try AtomicFileWriter(named: "deep.txt", in: current)
        try writer.write(Array("at the bottom".utf8))
        try writer.commit()
        #expect(relative.utf8.count > Int(PATH_MAX))
        #expect(Self.text(try root.open(relative + "/deep.txt", flags: O_RDONLY)) == "at the bottom")

        try FileOperations.copy(named: name, in: root.folder, to: "copy", in: root.folder)
        let copied = "/copy" + relative.dropFirst(name.count + 1) + "/deep.txt"
        #expect(Self.text(try root.open(copied, flags: O_RDONLY)) == "at the bottom")
        var files = 0
        try DirectoryReader().walk(in: root.folder) { entry, _ in
            if entry.name == "deep.txt" { files += 1 }
            return .continue
        }
        #expect(files == 2)

        try FileOperations.remove(named: name, in: root.folder)
        try FileOperations.remove(named: "copy", in: root.folder)
        #expect(try folder.names() == [])
    }

    @Test("a folder cannot be moved or copied below itself, however the destination is reached")
    func intoItself() throws {
        let folder = try TemporaryFolder()
        try folder.file("a/b/c.txt", "x")
        _ = try folder.symlink("shortcut", to: "a/b")
        let root = try ContainedRoot(path: folder.path(""))
        let inner = try root.openFolder("shortcut")
        for operation in ["move", "copy"] {
            let error = #expect(throws: FileTreeError.self, "\(operation)") {
                if operation == "move" {
                    try FileOperations.move(named: "a", in: root.folder, into: inner)
                } else {
                    try FileOperations.copy(named: "a", in: root.folder, into: inner)
                }
            }
            #expect(error?.code == .intoItself)
        }
        #expect(try folder.names(in: "a/b") == ["c.txt"])
    }
}
