import BrowseyAPI
import BrowseyClient
import BrowseyURLSession
import Foundation
import TestSupport
import Testing

@Suite("BrowseyClient against the live server")
struct ClientTests {
    @Test(
        "reads: health, a listing with awkward names, stat, view, search and a file's bytes",
        arguments: TransportKind.allCases)
    func reads(transport: TransportKind) async throws {
        let tree = try LiveServer.makeTree()
        try await LiveServer.with(tree, transport: transport) { server, client in
            let health = try await client.health()
            #expect(health.ok && health.readonly)

            let root = try await client.list()
            #expect(root.items.map(\.name) == ["code", "docs", "big.bin"], "folders first, hidden left out")
            let docs = try await client.list("/docs")
            #expect(Set(docs.items.map(\.name)) == ["notes #1.md", "100% done.txt", "café ☕.txt"])
            let cafe = try #require(docs.items.first { $0.name == "café ☕.txt" })
            #expect(cafe.size == 6 && cafe.extension == "txt")

            let stat = try await client.stat("docs/100% done.txt")
            #expect(stat.size == 4 && stat.type == .file)
            #expect(stat.absolutePath == server.folder.path + "/docs/100% done.txt")

            let view = try await client.view("/docs/notes #1.md")
            #expect(
                view.type == .text && view.content == "# Notes\n\nSome *text*.\n"
                    && view.language == "markdown")

            let found = try await client.search("cafe")
            #expect(found.results.first?.name == "café ☕.txt")

            let bytes = try await client.contents("/big.bin")
            #expect(bytes == (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let part = try await client.contents("/big.bin", range: 10...19)
            #expect(part == (10..<20).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        }
    }

    @Test(
        "errors say what happened: missing file, escape attempt, read-only server, unreachable server",
        arguments: TransportKind.allCases)
    func errors(transport: TransportKind) async throws {
        let tree = try LiveServer.makeTree()
        try await LiveServer.with(tree, transport: transport) { _, client in
            await #expect {
                _ = try await client.stat("/nope.txt")
            } throws: { error in
                let error = error as? BrowseyClientError
                return error?.code == .httpStatus && error?.status == 404
                    && error?.message.contains("not found") == true
            }
            await #expect {
                _ = try await client.list("../..")
            } throws: { ($0 as? BrowseyClientError)?.status == 403 }
            await #expect {
                _ = try await client.makeFolder("/new")
            } throws: { error in
                (error as? BrowseyClientError)?.status == 403
                    && (error as? BrowseyClientError)?.message.contains("read-only") == true
            }
        }
        // A port nobody listens on.
        let closed = try Server(name: "Gone", host: "127.0.0.1", port: 9)
        let client = APIClient(server: closed, transport: transport.make(), timeout: .seconds(5))
        await #expect {
            _ = try await client.health()
        } throws: { error in
            let error = error as? BrowseyClientError
            return error?.code == .unreachable
                && error?.message.contains("cannot reach Gone at 127.0.0.1:9") == true
        }
    }

    @Test(
        "a token: without it, unauthorized in plain words; with it, answers",
        arguments: TransportKind.allCases)
    func token(transport: TransportKind) async throws {
        let tree = try LiveServer.makeTree()
        let token = "test-token-0123456789abcdef"
        try await LiveServer.with(tree, token: token, transport: transport) { server, client in
            _ = try await client.list()
            var anonymous = client
            anonymous.server.token = nil
            await #expect {
                _ = try await anonymous.list()
            } throws: { error in
                let error = error as? BrowseyClientError
                return error?.code == .unauthorized && error?.message.contains("asks for a token") == true
            }
            var wrong = client
            wrong.server.token = "not-the-token-0000000000"
            await #expect {
                _ = try await wrong.list()
            } throws: { ($0 as? BrowseyClientError)?.message.contains("refused the token") == true }
            #expect(server.port > 0)
        }
    }

    @Test(
        "writes: save with the 409 conflict flow keeping both versions, rename, copy, move, mkdir, delete",
        arguments: TransportKind.allCases)
    func writes(transport: TransportKind) async throws {
        let tree = try LiveServer.makeTree()
        try await LiveServer.with(tree, readOnly: false, transport: transport) { server, client in
            let before = try await client.stat("/docs/100% done.txt")
            let saved = try await client.save(
                "/docs/100% done.txt", content: "mine", baseModified: before.modified, baseSize: before.size)
            #expect(saved.ok && saved.size == 4)
            #expect(try server.folder.text("docs/100% done.txt") == "mine")

            // Someone else changes it; saving over the version read is refused and loses nothing.
            try await Task.sleep(for: .milliseconds(20))
            try server.folder.file("docs/100% done.txt", "theirs, longer")
            await #expect {
                _ = try await client.save(
                    "/docs/100% done.txt", content: "my second edit", baseModified: saved.modified,
                    baseSize: saved.size)
            } throws: {
                ($0 as? BrowseyClientError)?.code == .conflict && ($0 as? BrowseyClientError)?.status == 409
            }
            #expect(try server.folder.text("docs/100% done.txt") == "theirs, longer")

            _ = try await client.makeFolder("/new folder")
            let copied = try await client.copy("/docs/café ☕.txt", into: "/new folder")
            #expect(copied.ok && server.folder.exists("new folder/café ☕.txt"))
            let renamed = try await client.rename("/new folder/café ☕.txt", to: "tea #2.txt")
            #expect(renamed.newPath == "/new folder/tea #2.txt")
            _ = try await client.move("/new folder/tea #2.txt", into: "/code")
            #expect(server.folder.exists("code/tea #2.txt"))
            await #expect {
                _ = try await client.rename("/code/tea #2.txt", to: "main.swift")
            } throws: { ($0 as? BrowseyClientError)?.code == .conflict }
            _ = try await client.delete("/code/tea #2.txt")
            #expect(!server.folder.exists("code/tea #2.txt"))
        }
    }
}
