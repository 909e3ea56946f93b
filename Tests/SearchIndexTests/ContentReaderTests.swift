import Foundation
import TestSupport
import Testing

@testable import SearchIndex

@Suite("Reading files for the content index")
struct ContentReaderTests {
    /// The text `reader` reads at `path`, or `nil` when it reads none.
    private func text(_ reader: ContentReader, _ path: String) -> String? {
        var text: String?
        let read = reader.withText(of: path) { bytes, _ in text = String(decoding: bytes, as: UTF8.self) }
        return read ? text : nil
    }

    @Test("a folder swapped for a link that leads out of the root is not read through")
    func refusesFolderLinksOut() throws {
        let root = try TemporaryFolder()
        let outside = try TemporaryFolder()
        try root.file("inside/notes.txt", "inside words")
        try root.file("top.txt", "top words")
        try outside.file("notes.txt", "outside secret")
        #expect(text(ContentReader(root: root.path, limit: 1 << 20), "/inside/notes.txt") == "inside words")

        // Swapped after the catalog listed it, as another program might, by a relative link
        // and by an absolute one.
        try FileManager.default.moveItem(atPath: root.path("inside"), toPath: root.path("moved"))
        for target in [outside.path, "../" + URL(fileURLWithPath: outside.path).lastPathComponent] {
            try? FileManager.default.removeItem(atPath: root.path("inside"))
            try FileManager.default.createSymbolicLink(
                atPath: root.path("inside"), withDestinationPath: target)
            #expect(
                try String(contentsOfFile: root.path("inside/notes.txt"), encoding: .utf8) == "outside secret"
            )
            let reader = ContentReader(root: root.path, limit: 1 << 20)
            // The first by its whole path, the second through its folder opened and held.
            #expect(text(reader, "/inside/notes.txt") == nil, "through \(target)")
            #expect(text(reader, "/inside/notes.txt") == nil, "through \(target), the folder held")
            #expect(text(reader, "/top.txt") == "top words")
        }
    }

    /// A root of more folders than a reader holds, `f0/sub` and on, each with `files` files
    /// saying whose they are (see ``says(_:_:)``).
    private func manyFolders(files: Int) throws -> (root: TemporaryFolder, folders: Int) {
        let root = try TemporaryFolder()
        let folders = ContentReader.heldFolders * 2 + 1
        for folder in 0..<folders {
            for file in 0..<files { try root.file("f\(folder)/sub/n\(file).txt", says(folder, file)) }
        }
        return (root, folders)
    }

    private func says(_ folder: Int, _ file: Int) -> String { "folder \(folder) file \(file)" }

    @Test("files of many folders, read in turn, each give their own text")
    func readsManyFolders() throws {
        let (root, folders) = try manyFolders(files: 2)
        let reader = ContentReader(root: root.path, limit: 1 << 20)
        for round in 0..<3 {
            for folder in (0..<folders).reversed() where folder % (round + 1) == 0 {
                for file in 0..<2 {
                    #expect(text(reader, "/f\(folder)/sub/n\(file).txt") == says(folder, file))
                }
            }
        }
        #expect(text(reader, "/f0/sub/missing.txt") == nil)
        #expect(text(reader, "/f0/sub/..") == nil)
        #expect(text(reader, "/f0/sub") == nil)
    }

    @Test(
        "files read from folder after folder, as the oldest-first order reads a tree, each give their own text"
    )
    func readsAFileFromEachFolderInTurn() throws {
        let (root, folders) = try manyFolders(files: 3)
        let reader = ContentReader(root: root.path, limit: 1 << 20)
        for file in 0..<3 {
            for folder in 0..<folders {
                #expect(text(reader, "/f\(folder)/sub/n\(file).txt") == says(folder, file))
            }
        }
        #expect(text(reader, "/f1/sub/missing.txt") == nil)
        #expect(text(reader, "/f2/..") == nil)
    }
}
