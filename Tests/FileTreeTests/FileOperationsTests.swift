import FileTree
import Foundation
import TestSupport
import Testing

@Suite("File operations that never lose data")
struct FileOperationsTests {
    @Test("an atomic write replaces the contents, keeps the mode and leaves no temporary file")
    func atomicWrite() throws {
        let folder = try TemporaryFolder()
        let path = try folder.file("script #1.sh", "old", mode: 0o750)
        try FileOperations.writeAtomically(Array("new contents".utf8), to: path)
        #expect(try folder.text("script #1.sh") == "new contents")
        #expect(try DirectoryReader().entry(at: path).permissions == FilePermissions(rawValue: 0o750))
        #expect(try folder.names() == ["script #1.sh"])
    }

    @Test(
        "a folder is replaced whole by one built beside it: the new one takes the name, the old one is gone, nothing is left over"
    )
    func replaceFolderWhole() throws {
        let folder = try TemporaryFolder()
        try folder.file("Café #1.pkg/old part.txt", "old")
        try folder.file("Café #1.pkg/kept/inner.txt", "old inner")
        let target = folder.path("Café #1.pkg")
        let replacement = FileOperations.temporarySibling(of: target)
        #expect(replacement.hasPrefix(folder.path(".Café #1.pkg.")))
        try FileOperations.makeFolder(at: replacement)
        try FileOperations.createFile(Array("new".utf8), at: replacement + "/new part.txt")
        let built = try #require(try DirectoryReader().entry(at: replacement).status?.inode)
        try FileOperations.replaceFolder(target, with: replacement)
        #expect(try DirectoryReader().entry(at: target).status?.inode == built)
        #expect(try folder.names(in: "Café #1.pkg") == ["new part.txt"])
        #expect(try folder.names() == ["Café #1.pkg"])

        // With nothing to replace, the folder simply takes the name.
        let fresh = FileOperations.temporarySibling(of: folder.path("Fresh.pkg"))
        try FileOperations.makeFolder(at: fresh)
        try FileOperations.replaceFolder(folder.path("Fresh.pkg"), with: fresh)
        #expect(try folder.names() == ["Café #1.pkg", "Fresh.pkg"])
    }

    @Test("an atomic write through a symlink updates the target and keeps the link")
    func atomicWriteThroughLink() throws {
        let folder = try TemporaryFolder()
        try folder.file("real.txt", "old")
        let link = try folder.symlink("link.txt", to: "real.txt")
        try FileOperations.writeAtomically(Array("new".utf8), to: link)
        #expect(try folder.text("real.txt") == "new")
        #expect(try DirectoryReader().entry(at: link).type == .symlink)
    }

    @Test("a writer that is discarded or dropped leaves nothing behind")
    func abandonedWrites() throws {
        let folder = try TemporaryFolder()
        let writer = try AtomicFileWriter(destination: folder.path("upload.bin"))
        try writer.write(Array(repeating: 7, count: 1000))
        #expect(writer.bytesWritten == 1000)
        writer.discard()
        do {
            let dropped = try AtomicFileWriter(destination: folder.path("other.bin"))
            try dropped.write(Array(repeating: 1, count: 10))
        }
        #expect(try folder.names().isEmpty)
    }

    @Test("creating over an existing file fails and keeps the original untouched")
    func noClobber() throws {
        let folder = try TemporaryFolder()
        let path = try folder.file("keep.txt", "original")
        #expect {
            try FileOperations.createFile(Array("intruder".utf8), at: path)
        } throws: { ($0 as? FileTreeError)?.code == .alreadyExists }
        #expect(try folder.text("keep.txt") == "original")
        #expect(try folder.names() == ["keep.txt"], "the temporary file is gone")
        let writer = try AtomicFileWriter(destination: path)
        try writer.write(Array("second".utf8))
        #expect(throws: FileTreeError.self) { try writer.commit(replacing: false) }
        #expect(try folder.text("keep.txt") == "original")
    }

    @Test("a move never replaces what is at the destination")
    func moveWithoutReplacing() throws {
        let folder = try TemporaryFolder()
        let a = try folder.file("a.txt", "A")
        let b = try folder.file("b.txt", "B")
        #expect {
            try FileOperations.move(a, to: b)
        } throws: { ($0 as? FileTreeError)?.code == .alreadyExists }
        #expect(try folder.text("a.txt") == "A")
        #expect(try folder.text("b.txt") == "B")
        try FileOperations.move(a, to: folder.path("c 100%.txt"))
        #expect(try folder.names() == ["b.txt", "c 100%.txt"])
    }

    @Test("a folder cannot be moved or copied into itself")
    func intoItself() throws {
        let folder = try TemporaryFolder()
        let parent = try folder.folder("parent/child")
        let top = folder.path("parent")
        #expect {
            try FileOperations.move(top, into: parent)
        } throws: { ($0 as? FileTreeError)?.code == .intoItself }
        #expect {
            try FileOperations.copy(top, into: parent)
        } throws: { ($0 as? FileTreeError)?.code == .intoItself }
        #expect(folder.exists("parent/child"))
    }

    @Test("renaming takes exactly one valid name and refuses a taken one")
    func renaming() throws {
        let folder = try TemporaryFolder()
        let path = try folder.file("draft.md", "d")
        try folder.file("taken.md")
        #expect(throws: FileTreeError.self) { try FileOperations.rename(path, to: "../escape.md") }
        #expect(throws: FileTreeError.self) { try FileOperations.rename(path, to: "taken.md") }
        let renamed = try FileOperations.rename(path, to: "café NFD \u{301}.md")
        #expect(renamed == folder.path("café NFD \u{301}.md"))
        #expect(try folder.text("café NFD \u{301}.md") == "d")
    }

    @Test("copies take free names: name (copy).ext, then name (copy 2).ext")
    func copyNames() throws {
        let folder = try TemporaryFolder()
        let original = try folder.file("report.final.pdf", "pdf")
        let first = try FileOperations.copy(original, into: folder.path)
        let second = try FileOperations.copy(original, into: folder.path)
        let ofCopy = try FileOperations.copy(first, into: folder.path)
        #expect(first == folder.path("report.final (copy).pdf"))
        #expect(second == folder.path("report.final (copy 2).pdf"))
        #expect(ofCopy == folder.path("report.final (copy 3).pdf"))
        #expect(try folder.text("report.final (copy 2).pdf") == "pdf")
        let other = try folder.folder("elsewhere")
        #expect(try FileOperations.copy(original, into: other) == other + "/report.final.pdf")
    }

    @Test("a folder copy is recursive and keeps links, modes and dates")
    func copyFolder() throws {
        let folder = try TemporaryFolder()
        try folder.file("v1.2/bin/run.sh", "#!/bin/sh", mode: 0o755)
        try folder.file("v1.2/notes #1.md", "n")
        try folder.symlink("v1.2/latest", to: "bin/run.sh")
        let copy = try FileOperations.copy(folder.path("v1.2"), into: folder.path)
        #expect(copy == folder.path("v1.2 (copy)"))
        let original = try DirectoryReader(order: .browsey).read(at: folder.path("v1.2"), depth: .deep)
        let copied = try DirectoryReader(order: .browsey).read(at: copy, depth: .deep)
        #expect(copied.map(\.name) == original.map(\.name))
        let script = try #require(copied.node(atRelativePath: "bin/run.sh")?.entry)
        #expect(script.permissions == FilePermissions(rawValue: 0o755))
        #expect(
            script.status?.modified == original.node(atRelativePath: "bin/run.sh")?.entry.status?.modified)
        #expect(copied.child(named: "latest")?.entry.symlink?.target == "bin/run.sh")
    }

    @Test("removing a folder removes what is inside but never what a link points to")
    func removal() throws {
        let folder = try TemporaryFolder()
        try folder.file("keep/precious.txt", "p")
        try folder.file("trash/a/b.txt")
        try folder.symlink("trash/link", to: "../keep")
        try FileOperations.remove(folder.path("trash"))
        #expect(!folder.exists("trash"))
        #expect(try folder.text("keep/precious.txt") == "p")
        #expect(throws: FileTreeError.self) { try FileOperations.remove(folder.path("trash")) }
    }

    @Test("a folder holding names that are not UTF-8 is copied and removed whole, those names byte for byte")
    func namesThatAreNotUTF8() throws {
        let folder = try TemporaryFolder()
        _ = try folder.folder("old")
        let cafe = Array("caf".utf8) + [0xE9]  // Latin-1 "café"
        let resume = Array("r".utf8) + [0xE9] + Array("sum".utf8) + [0xE9]
        try folder.make(systemPath: Array("old/".utf8) + cafe, contents: Array("latin-1".utf8))
        try folder.make(systemPath: Array("old/".utf8) + resume)
        try folder.make(systemPath: Array("old/".utf8) + resume + Array("/inside.txt".utf8), contents: [1])
        try folder.file("old/plain.txt", "p")
        /// Each entry below `path` as its level and its name's bytes, in walk order.
        func tree(_ path: String) throws -> [String] {
            var seen: [String] = []
            try DirectoryReader(order: .browsey).walk(at: path) { entry, level in
                seen.append("\(level) \(entry.systemName)")
                return .continue
            }
            return seen
        }
        let copy = try FileOperations.copy(folder.path("old"), into: folder.path)
        #expect(try tree(copy) == tree(folder.path("old")))
        #expect(try tree(copy).count == 4)
        let copied = try ContainedRoot(path: copy).open(systemPath: cafe, flags: O_RDONLY)
        defer { close(copied) }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(copied, &buffer, 16) == 7 && Array(buffer.prefix(7)) == Array("latin-1".utf8))

        try FileOperations.remove(folder.path("old"))
        try FileOperations.remove(copy)
        #expect(!folder.exists("old") && !folder.exists("old (copy)"))
    }

    @Test("new names count up from Untitled, Untitled 1, Untitled 2")
    func untitled() throws {
        let folder = try TemporaryFolder()
        #expect(UniqueName.numbered(pathExtension: "sketch", in: folder.path) == "Untitled.sketch")
        try folder.file("Untitled.sketch")
        try folder.file("Untitled 1.sketch")
        #expect(UniqueName.numbered(pathExtension: "sketch", in: folder.path) == "Untitled 2.sketch")
        try FileOperations.makeFolder(at: folder.path("Untitled"))
        #expect(UniqueName.numbered(in: folder.path) == "Untitled 1")
        #expect(throws: FileTreeError.self) { try FileOperations.makeFolder(at: folder.path("Untitled")) }
    }
}
