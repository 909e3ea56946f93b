import BrowseyClient
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("The file viewer's model against the live server")
@MainActor
struct FileViewerModelTests {
    private static func tree() throws -> TemporaryFolder {
        let tree = try LiveServer.makeTree()
        try tree.file("pics/a #1.png", Self.png(width: 640, height: 480))
        try tree.file("pics/b.png", Self.png(width: 10, height: 20))
        try tree.file("pics/notes.txt", "plain words")
        try tree.file("sound.mp3", [0xFF, 0xFB, 0x90, 0x00])
        return tree
    }

    private static func png(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        return bytes + [8, 6, 0, 0, 0]
    }

    @Test(
        "each kind of file gets its content: code with its language, Markdown, text, image with neighbours, audio, binary"
    )
    func contentKinds() async throws {
        let tree = try Self.tree()
        try await LiveServer.with(tree) { @MainActor _, client in
            let code = FileViewerModel(client: client, path: "/code/main.swift")
            await code.load()
            #expect(code.content == .code("print(\"hi\")\n", language: "swift"))
            let markdown = FileViewerModel(client: client, path: "/docs/notes #1.md")
            await markdown.load()
            #expect(markdown.content == .markdown("# Notes\n\nSome *text*.\n"))
            let text = FileViewerModel(client: client, path: "/pics/notes.txt")
            await text.load()
            #expect(text.content == .text("plain words"))

            let image = FileViewerModel(client: client, path: "/pics/a #1.png")
            await image.load()
            #expect(
                image.content
                    == .image(
                        url: "/api/file?path=/pics/a%20%231.png&download=false", width: 640, height: 480))
            #expect(image.neighbours == ["/pics/a #1.png", "/pics/b.png"])
            await image.show(offset: 1)
            #expect(image.path == "/pics/b.png")
            await image.show(offset: 1)
            #expect(image.path == "/pics/a #1.png", "swiping wraps around")

            let audio = FileViewerModel(client: client, path: "/sound.mp3")
            await audio.load()
            guard case .audio = audio.content else {
                Issue.record("\(String(describing: audio.content))"); return
            }
            let binary = FileViewerModel(client: client, path: "/big.bin")
            await binary.load()
            #expect(binary.content == .binary && !binary.isEditable)
            let size = binary.info.first { $0.label == "Size" }?.value
            #expect(size == "300 kB (300000 bytes)")
            #expect(
                binary.info.map(\.label) == [
                    "Name", "Type", "Size", "Extension", "Modified", "Created", "Path",
                ])
        }
    }

    @Test(
        "editing: a save goes through; a file changed meanwhile shows both versions and keeps the user's text"
    )
    func editingWithConflict() async throws {
        let tree = try Self.tree()
        try await LiveServer.with(tree, readOnly: false) { @MainActor server, client in
            let model = FileViewerModel(client: client, path: "/docs/100% done.txt")
            await model.load()
            #expect(model.isEditable && !model.hasChanges)
            model.draft = "my edit"
            #expect(model.hasChanges)
            #expect(await model.save())
            #expect(try server.folder.text("docs/100% done.txt") == "my edit" && !model.hasChanges)

            try await Task.sleep(for: .milliseconds(20))
            try server.folder.file("docs/100% done.txt", "their edit, longer")
            model.draft = "my second edit"
            #expect(await model.save() == false)
            #expect(
                model.conflict?.mine == "my second edit" && model.conflict?.theirs == "their edit, longer")
            #expect(model.draft == "my second edit", "the user's text is never dropped")
            #expect(try server.folder.text("docs/100% done.txt") == "their edit, longer")
            #expect(await model.keepMine())
            #expect(try server.folder.text("docs/100% done.txt") == "my second edit" && model.conflict == nil)
        }
    }

    @Test("a download for sharing arrives whole; a missing file is an error state")
    func downloadAndMissing() async throws {
        let tree = try Self.tree()
        let local = try TemporaryFolder()
        try await LiveServer.with(tree) { @MainActor _, client in
            let model = FileViewerModel(client: client, path: "/big.bin")
            await model.load()
            try await model.download(to: local.path("shared.bin"))
            #expect(try local.contents("shared.bin").count == 300_000 && model.download == nil)
            let missing = FileViewerModel(client: client, path: "/nope.txt")
            await missing.load()
            guard case .failed(let error) = missing.phase else { Issue.record("\(missing.phase)"); return }
            #expect(error.status == 404)
        }
    }
}
