import BrowseyAPI
import BrowseyServer
import FileTree
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A writable fixture with its trash in a folder of its own, outside the served tree.
struct WritableFixture {
    let base: ServerFixture
    let trash: TemporaryFolder
    var folder: TemporaryFolder { base.folder }

    static func make() throws -> WritableFixture {
        WritableFixture(base: try ServerFixture.make(), trash: try TemporaryFolder(prefix: "browsey-trash"))
    }

    func configuration(trash: Bool = true, allowsSymlinks: Bool = false) -> ServerConfiguration {
        base.configuration(
            readOnly: false, allowsSymlinks: allowsSymlinks, trashFolder: trash ? self.trash.path : nil)
    }

    func withClient(
        _ configuration: ServerConfiguration? = nil,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await base.withClient(configuration ?? self.configuration(), body)
    }

    func text(_ relative: String) -> String? {
        try? String(contentsOfFile: folder.path(relative), encoding: .utf8)
    }

    func exists(_ relative: String) -> Bool {
        var status = stat()
        return lstat(folder.path(relative), &status) == 0
    }
}

@Suite("Writes are refused unless the server is writable")
struct WriteGateTests {
    @Test("a read-only server answers every write 403 and says so in health")
    func readOnly() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            for write in ["save", "rename", "delete", "move", "copy", "mkdir", "restore"] {
                let answer = try await client.post("/api/\(write)", PathRequest(path: "/docs/café.txt"))
                #expect(
                    answer.status == .forbidden && answer.error == "Server is in read-only mode", "\(write)")
            }
            #expect(try await client.ask("/api/trash").status == .forbidden)
            #expect(try await client.ask("/api/health").json["readonly"] as? Bool == true)
        }
        #expect(try String(contentsOfFile: fixture.folder.path("docs/café.txt"), encoding: .utf8) == "crème")
    }

    @Test("a writable server says so in health, and refuses writes that a cross-site form could send")
    func formsRefused() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            #expect(try await client.ask("/api/health").json["readonly"] as? Bool == false)
            let form = try await client.post(
                "/api/mkdir", bytes: Array("path=%2Fnew".utf8),
                contentType: "application/x-www-form-urlencoded")
            #expect(form.status == .unsupportedMediaType)
            let plain = try await client.post(
                "/api/mkdir", PathRequest(path: "/new"), contentType: "text/plain")
            #expect(plain.status == .unsupportedMediaType)
            let broken = try await client.post(
                "/api/mkdir", bytes: Array("{\"path\":".utf8), contentType: "application/json")
            #expect(broken.status == .badRequest && broken.error == "Invalid JSON body")
        }
        #expect(!fixture.exists("new"))
    }
}

@Suite("Saving a text file")
struct SaveTests {
    /// What a client read of a file: its `modified` and `size` from `/api/stat`.
    static func bases(_ client: any TestClientProtocol, _ path: String) async throws -> (Date, Int64) {
        let stat = try await client.ask("/api/stat?path=\(q(path))").decode(StatResponse.self)
        return (stat.modified, stat.size)
    }

    @Test(
        "a save with the bases the client read replaces the file, keeps its mode, and answers the new bases")
    func save() async throws {
        let fixture = try WritableFixture.make()
        chmod(fixture.folder.path("docs/café.txt"), 0o640)
        try await fixture.withClient { client in
            let (modified, size) = try await Self.bases(client, "/docs/café.txt")
            let answer = try await client.post(
                "/api/save",
                SaveRequest(
                    path: "/docs/café.txt", content: "crème brûlée", baseModified: modified, baseSize: size))
            #expect(answer.status == .ok)
            let saved = try answer.decode(SaveResponse.self)
            #expect(saved.ok && saved.size == Int64("crème brûlée".utf8.count))
            #expect(answer.headers[.eTag] != nil)
            let (after, afterSize) = try await Self.bases(client, "/docs/café.txt")
            #expect(after == saved.modified && afterSize == saved.size)
        }
        #expect(fixture.text("docs/café.txt") == "crème brûlée")
        var status = stat()
        stat(fixture.folder.path("docs/café.txt"), &status)
        #expect(status.st_mode & 0o777 == 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path("docs"))
        #expect(leftovers.sorted() == ["100% done.txt", "café.txt", "notes #1.md"])
    }

    @Test("a file changed since it was read answers 409 with its current date and size, and is left alone")
    func conflict() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let (modified, size) = try await Self.bases(client, "/docs/café.txt")
            try fixture.folder.file("docs/café.txt", "changed by someone else")
            let answer = try await client.post(
                "/api/save",
                SaveRequest(path: "/docs/café.txt", content: "mine", baseModified: modified, baseSize: size))
            #expect(answer.status == .conflict)
            let body = try answer.decode(ErrorResponse.self)
            #expect(body.size == Int64("changed by someone else".utf8.count) && body.modified != nil)
            let stale = try await client.post(
                "/api/save",
                SaveRequest(path: "/docs/café.txt", content: "mine", baseModified: nil, baseSize: nil))
            #expect(stale.status == .badRequest && stale.error == "baseModified and baseSize required")
        }
        #expect(fixture.text("docs/café.txt") == "changed by someone else")
    }

    @Test("If-Match with the ETag catches a second write, even within the same millisecond")
    func ifMatch() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let etag = try #require(
                try await client.ask("/api/file?path=%2Fdocs%2Fcaf%C3%A9.txt").headers[.eTag])
            let request = SaveRequest(
                path: "/docs/café.txt", content: "first", baseModified: nil, baseSize: nil)
            let first = try await client.post("/api/save", request, headers: [.ifMatch: etag])
            #expect(first.status == .ok)
            let second = try await client.post(
                "/api/save",
                SaveRequest(path: "/docs/café.txt", content: "second", baseModified: nil, baseSize: nil),
                headers: [.ifMatch: etag])
            #expect(second.status == .preconditionFailed)
            #expect(second.headers[.eTag] == first.headers[.eTag])
        }
        #expect(fixture.text("docs/café.txt") == "first")
    }

    @Test("only text files are saved: 413 over 5 MiB, 400 for binaries and folders, 404 for what is missing")
    func limits() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let (modified, size) = try await Self.bases(client, "/big.txt")
            let huge = String(repeating: "a", count: 5 * 1024 * 1024 + 1)
            let tooLarge = try await client.post(
                "/api/save",
                SaveRequest(path: "/big.txt", content: huge, baseModified: modified, baseSize: size))
            #expect(tooLarge.status == .contentTooLarge)
            let binary = try await client.post(
                "/api/save",
                SaveRequest(path: "/binary.bin", content: "x", baseModified: modified, baseSize: 5))
            #expect(binary.status == .badRequest && binary.error == "File type not editable")
            let folder = try await client.post(
                "/api/save", SaveRequest(path: "/docs", content: "x", baseModified: modified, baseSize: 5))
            #expect(folder.status == .badRequest && folder.error == "Cannot save directory")
            let missing = try await client.post(
                "/api/save",
                SaveRequest(path: "/docs/none.txt", content: "x", baseModified: modified, baseSize: 5))
            #expect(missing.status == .notFound)
        }
        #expect(fixture.text("big.txt")?.count == 1000)
    }
}

@Suite("Renaming, moving, copying and making folders")
struct FileOperationRouteTests {
    @Test("a rename answers the new path; a taken or invalid name is refused and nothing moves")
    func rename() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let answer = try await client.post(
                "/api/rename", RenameRequest(path: "/docs/notes #1.md", newName: "notes 100%.md"))
            #expect(answer.status == .ok)
            #expect(try answer.decode(ChangeResponse.self).newPath == "/docs/notes 100%.md")
            let taken = try await client.post(
                "/api/rename", RenameRequest(path: "/docs/café.txt", newName: "100% done.txt"))
            #expect(taken.status == .conflict)
            for bad in ["", ".", "..", "a/b", "a\\b", "x\u{0}y"] {
                let refused = try await client.post(
                    "/api/rename", RenameRequest(path: "/docs/café.txt", newName: bad))
                #expect(refused.status == .badRequest, "\(bad)")
            }
            let hidden = try await client.post(
                "/api/rename", RenameRequest(path: "/docs/café.txt", newName: ".café"))
            #expect(hidden.status == .badRequest)
            let root = try await client.post("/api/rename", RenameRequest(path: "/", newName: "elsewhere"))
            #expect(root.status == .forbidden)
        }
        #expect(fixture.text("docs/notes 100%.md") == "# Notes\n")
        #expect(fixture.text("docs/café.txt") == "crème" && fixture.text("docs/100% done.txt") == "done")
    }

    @Test("a move never replaces, never puts a folder into itself, and needs a folder inside the root")
    func move() async throws {
        let fixture = try WritableFixture.make()
        try fixture.folder.file("archive/café.txt", "older café")
        try await fixture.withClient(fixture.configuration(allowsSymlinks: true)) { client in
            let moved = try await client.post(
                "/api/move", TransferRequest(path: "/code/main.swift", destination: "/docs"))
            #expect(moved.status == .ok)
            #expect(try moved.decode(ChangeResponse.self).newPath == "/docs/main.swift")
            let clash = try await client.post(
                "/api/move", TransferRequest(path: "/docs/café.txt", destination: "/archive"))
            #expect(clash.status == .conflict)
            let intoItself = try await client.post(
                "/api/move", TransferRequest(path: "/docs", destination: "/docs"))
            #expect(
                intoItself.status == .badRequest
                    && intoItself.error == "Cannot move or copy a folder into itself")
            try fixture.folder.file("code/inner/x.txt", "x")
            let below = try await client.post(
                "/api/move", TransferRequest(path: "/code", destination: "/code/inner"))
            #expect(below.status == .badRequest && below.error == "Cannot move or copy a folder into itself")
            let notFolder = try await client.post(
                "/api/move", TransferRequest(path: "/docs/café.txt", destination: "/big.txt"))
            #expect(notFolder.status == .badRequest && notFolder.error == "Destination is not a directory")
            // Reading may follow links out with --allow-symlinks; writing never leaves the root.
            let out = try await client.post(
                "/api/move", TransferRequest(path: "/docs/café.txt", destination: "/escape"))
            #expect(out.status == .forbidden)
        }
        #expect(fixture.text("docs/main.swift") == "print(\"hi\")\n" && !fixture.exists("code/main.swift"))
        #expect(fixture.text("docs/café.txt") == "crème" && fixture.text("archive/café.txt") == "older café")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.base.outside.path) == ["secret.txt"])
    }

    @Test("copies take free names and copy folders whole")
    func copy() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            var paths: [String] = []
            for _ in 0..<3 {
                let answer = try await client.post(
                    "/api/copy", TransferRequest(path: "/docs/café.txt", destination: "/docs"))
                #expect(answer.status == .ok)
                paths.append(try answer.decode(ChangeResponse.self).newPath)
            }
            #expect(paths == ["/docs/café (copy).txt", "/docs/café (copy 2).txt", "/docs/café (copy 3).txt"])
            let folder = try await client.post(
                "/api/copy", TransferRequest(path: "/docs", destination: "/code"))
            #expect(try folder.decode(ChangeResponse.self).newPath == "/code/docs")
        }
        #expect(fixture.text("code/docs/notes #1.md") == "# Notes\n")
        #expect(fixture.text("docs/café (copy 2).txt") == "crème")
    }

    @Test("mkdir makes one folder; a taken name is 409, a missing parent 404")
    func makeFolder() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let made = try await client.post("/api/mkdir", PathRequest(path: "/docs/new folder ✓"))
            #expect(made.status == .ok)
            #expect(try made.decode(ChangeResponse.self).newPath == "/docs/new folder ✓")
            #expect(
                try await client.post("/api/mkdir", PathRequest(path: "/docs/new folder ✓")).status
                    == .conflict)
            #expect(
                try await client.post("/api/mkdir", PathRequest(path: "/nowhere/new")).status == .notFound)
            #expect(
                try await client.post("/api/mkdir", PathRequest(path: "/escape/new")).status == .forbidden)
        }
        #expect(fixture.exists("docs/new folder ✓"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.base.outside.path) == ["secret.txt"])
    }
}

@Suite("Deleting into the trash and restoring")
struct TrashRouteTests {
    @Test("a deleted item leaves the listing, waits in the trash outside the root, and comes back whole")
    func deleteAndRestore() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let deleted = try await client.post("/api/delete", PathRequest(path: "/docs"))
            #expect(deleted.status == .ok)
            let id = try #require(try deleted.decode(DeleteResponse.self).trashId)
            let listing = try await client.ask("/api/list?path=%2F").decode(ListResponse.self)
            #expect(!listing.items.contains { $0.name == "docs" })
            let trash = try await client.ask("/api/trash").decode(TrashResponse.self)
            #expect(trash.items.map(\.id) == [id])
            #expect(trash.items.first?.originalPath == "/docs" && trash.items.first?.type == .directory)
            #expect(
                trash.items.first?.size
                    == Int64("# Notes\n".utf8.count + "done".utf8.count + "crème".utf8.count))
            let restored = try await client.post("/api/restore", RestoreRequest(id: id))
            #expect(restored.status == .ok)
            #expect(try restored.decode(ChangeResponse.self).newPath == "/docs")
            #expect(try await client.ask("/api/trash").decode(TrashResponse.self).items.isEmpty)
            #expect(try await client.post("/api/restore", RestoreRequest(id: id)).status == .notFound)
            #expect(
                try await client.post("/api/restore", RestoreRequest(id: "../../etc")).status == .notFound)
        }
        #expect(fixture.text("docs/café.txt") == "crème" && fixture.text("docs/notes #1.md") == "# Notes\n")
    }

    @Test("a restore never replaces what took the item's place, and brings back missing folders")
    func restoreConflicts() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let first = try await client.post("/api/delete", PathRequest(path: "/docs/café.txt"))
            let id = try #require(try first.decode(DeleteResponse.self).trashId)
            try fixture.folder.file("docs/café.txt", "a new café")
            let clash = try await client.post("/api/restore", RestoreRequest(id: id))
            #expect(clash.status == .conflict)
            let second = try await client.post("/api/delete", PathRequest(path: "/docs/notes #1.md"))
            let notes = try #require(try second.decode(DeleteResponse.self).trashId)
            try FileManager.default.removeItem(atPath: fixture.folder.path("docs"))
            #expect(try await client.post("/api/restore", RestoreRequest(id: notes)).status == .ok)
        }
        #expect(fixture.text("docs/notes #1.md") == "# Notes\n" && !fixture.exists("docs/café.txt"))
    }

    @Test("the trash says how long it keeps things, and empties one entry or all of them for good")
    func retentionAndEmptying() async throws {
        let fixture = try WritableFixture.make()
        var configuration = fixture.configuration()
        configuration.trashMaximumAge = 7 * 24 * 3600
        configuration.trashMaximumBytes = 5_000_000
        try await fixture.withClient(configuration) { client in
            var ids: [String] = []
            for path in ["/big.txt", "/Makefile", "/docs"] {
                let answer = try await client.post("/api/delete", PathRequest(path: path))
                ids.append(try #require(try answer.decode(DeleteResponse.self).trashId))
            }
            let trash = try await client.ask("/api/trash").decode(TrashResponse.self)
            #expect(trash.retention == TrashRetention(days: 7, maximumBytes: 5_000_000))
            let one = try await client.post(
                "/api/trash/empty", EmptyTrashRequest(ids: [ids[1], "0-00000000"]))
            #expect(one.status == .ok)
            #expect(try one.decode(EmptyTrashResponse.self).removed == 1)
            #expect(
                try await client.ask("/api/trash").decode(TrashResponse.self).items.map(\.name) == [
                    "docs", "big.txt",
                ])
            let rest = try await client.post("/api/trash/empty", EmptyTrashRequest())
            #expect(try rest.decode(EmptyTrashResponse.self).removed == 2)
            #expect(try await client.ask("/api/trash").decode(TrashResponse.self).items.isEmpty)
            #expect(try await client.post("/api/restore", RestoreRequest(id: ids[0])).status == .notFound)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.trash.path).isEmpty)
        try await fixture.withClient(fixture.configuration(trash: false)) { client in
            let trash = try await client.ask("/api/trash").decode(TrashResponse.self)
            #expect(trash.retention == nil)
            let emptied = try await client.post("/api/trash/empty", EmptyTrashRequest())
            #expect(emptied.status == .notFound)
        }
    }

    @Test("the root is never deleted; --no-trash deletes for good; the size limit purges the oldest")
    func limits() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            for root in ["/", "", fixture.folder.path] {
                let answer = try await client.post("/api/delete", PathRequest(path: root))
                #expect(answer.status == .badRequest, "\(root)")
            }
        }
        try await fixture.withClient(fixture.configuration(trash: false)) { client in
            let answer = try await client.post("/api/delete", PathRequest(path: "/binary.bin"))
            #expect(answer.status == .ok)
            #expect(try answer.decode(DeleteResponse.self).trashId == nil)
        }
        #expect(!fixture.exists("binary.bin") && fixture.exists("docs"))
        var small = fixture.configuration()
        small.trashMaximumBytes = 1500
        try await fixture.withClient(small) { client in
            // 1000 bytes, then 11.
            #expect(try await client.post("/api/delete", PathRequest(path: "/big.txt")).status == .ok)
            #expect(try await client.post("/api/delete", PathRequest(path: "/Makefile")).status == .ok)
            try fixture.folder.file("more.txt", Array(repeating: UInt8(ascii: "m"), count: 1000))
            #expect(try await client.post("/api/delete", PathRequest(path: "/more.txt")).status == .ok)
            let left = try await client.ask("/api/trash").decode(TrashResponse.self).items.map(\.name)
            #expect(left == ["more.txt", "Makefile"])
        }
    }
}

@Suite("Hostile paths never let a write out of the root")
struct HostileWriteTests {
    static let corpus = [
        "../outside.txt", "/../outside.txt", "docs/../../outside.txt", "..\\outside.txt", "docs\\..\\..\\x",
        "/etc/passwd", "escape/secret.txt", "escape/new.txt", "docs/\u{0}x", ".env", "%2e%2e/outside.txt",
    ]

    @Test(
        "every write with a hostile path answers 400, 403 or 404 and changes nothing outside",
        arguments: [false, true])
    func corpus(allowsSymlinks: Bool) async throws {
        let fixture = try WritableFixture.make()
        let before = try String(contentsOfFile: fixture.base.outside.path("secret.txt"), encoding: .utf8)
        try await fixture.withClient(fixture.configuration(allowsSymlinks: allowsSymlinks)) { client in
            for path in Self.corpus {
                let answers = [
                    try await client.post(
                        "/api/save",
                        SaveRequest(path: path, content: "pwned", baseModified: nil, baseSize: nil)),
                    try await client.post("/api/rename", RenameRequest(path: path, newName: "pwned")),
                    try await client.post("/api/move", TransferRequest(path: path, destination: "/docs")),
                    try await client.post(
                        "/api/move", TransferRequest(path: "/docs/café.txt", destination: path)),
                    try await client.post(
                        "/api/copy", TransferRequest(path: "/docs/café.txt", destination: path)),
                    try await client.post("/api/delete", PathRequest(path: path)),
                    try await client.post("/api/mkdir", PathRequest(path: path)),
                ]
                for answer in answers {
                    #expect(
                        [.badRequest, .forbidden, .notFound].contains(answer.status),
                        "\(path): \(answer.status)")
                    #expect(!answer.text.contains("TOP SECRET"))
                }
            }
        }
        #expect(
            try String(contentsOfFile: fixture.base.outside.path("secret.txt"), encoding: .utf8) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.base.outside.path) == ["secret.txt"])
        #expect(fixture.text("docs/café.txt") == "crème" && fixture.text(".env") == "SECRET=1")
        #expect(fixture.exists("escape") && fixture.exists("escape-file.txt"))
    }

    @Test("a link that leads out is never written through; renaming or deleting it touches only the link")
    func linksOut() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient(fixture.configuration(allowsSymlinks: true)) { client in
            let save = try await client.post(
                "/api/save",
                SaveRequest(path: "/escape-file.txt", content: "pwned", baseModified: nil, baseSize: nil),
                headers: [.ifMatch: "*"])
            #expect(save.status == .forbidden)
            #expect(try await client.post("/api/delete", PathRequest(path: "/escape-file.txt")).status == .ok)
            #expect(
                try await client.post("/api/rename", RenameRequest(path: "/escape", newName: "gone")).status
                    == .ok)
        }
        #expect(
            try String(contentsOfFile: fixture.base.outside.path("secret.txt"), encoding: .utf8)
                == "TOP SECRET OUTSIDE")
        #expect(!fixture.exists("escape-file.txt") && fixture.exists("gone"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.base.outside.path) == ["secret.txt"])
    }
}
