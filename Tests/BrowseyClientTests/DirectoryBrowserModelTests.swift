import BrowseyAPI
import BrowseyClient
import BrowseyURLSession
import Foundation
import TestSupport
import Testing

@Suite("The directory browser's model against the live server")
@MainActor
struct DirectoryBrowserModelTests {
    @Test("rows put folders first, add .. below the root, and follow the chosen order; breadcrumbs lead back")
    func rowsAndNavigation() async throws {
        let tree = try LiveServer.makeTree()
        try tree.file("docs/zz large.txt", String(repeating: "x", count: 5000))
        try tree.folder("docs/a folder")
        try await LiveServer.with(tree) { @MainActor _, client in
            let model = DirectoryBrowserModel(client: client)
            await model.load()
            #expect(model.rows.map(\.name) == ["code", "docs", "big.bin"])
            #expect(model.rows.last?.detail.hasPrefix("300 kB • ") == true)

            let docs = try #require(model.rows.first { $0.name == "docs" })
            #expect(await model.open(docs) == nil)
            #expect(model.path == "/docs")
            #expect(
                model.rows.map(\.name) == [
                    "..", "a folder", "100% done.txt", "café ☕.txt", "notes #1.md", "zz large.txt",
                ])
            #expect(model.breadcrumbs.map(\.name) == ["Test server", "docs"])

            model.sort = BrowserSort(key: .size, ascending: false)
            #expect(
                model.rows.map(\.name) == [
                    "..", "a folder", "zz large.txt", "notes #1.md", "café ☕.txt", "100% done.txt",
                ])
            model.sort = BrowserSort(key: .name, ascending: false)
            #expect(
                model.rows.dropFirst(2).map(\.name) == [
                    "zz large.txt", "notes #1.md", "café ☕.txt", "100% done.txt",
                ])

            let file = try #require(model.rows.first { $0.name == "notes #1.md" })
            #expect(await model.open(file)?.path == "/docs/notes #1.md")
            await model.open(model.rows[0]).map { _ in () }
            #expect(model.path == "/")
            await model.go(to: "/docs/a folder")
            guard case .empty = model.phase else {
                Issue.record("an empty folder says so: \(model.phase)"); return
            }
            await model.goUp()
            #expect(model.path == "/docs")
        }
    }

    @Test(
        "a search of the contents lists the files whose text holds the words, with the lines; names are not searched"
    )
    func searchInsideFiles() async throws {
        let tree = try LiveServer.makeTree()
        try tree.file("docs/menu.txt", "starter\ncrème brûlée for two\n")
        // One file more than a search shows (50).
        for number in 0..<51 { try tree.file("docs/tusks/\(number).txt", "a walrus tusk, \(number)\n") }
        let index = try TemporaryFolder(prefix: "browsey-index")
        try await LiveServer.with(tree, index: index) { @MainActor _, client in
            let model = DirectoryBrowserModel(client: client, path: "/docs")
            await model.load()
            model.searchScope = .contents
            model.searchText = "creme brulee"
            // The content index is built in the background after the names.
            for _ in 0..<50 where model.contentResults.isEmpty {
                await model.search()
                if model.contentResults.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            }
            let menu = try #require(model.contentResults.first)
            #expect(menu.path == "/docs/menu.txt" && model.searchResults.isEmpty)
            #expect(menu.lines.map(\.line) == [2] && menu.lines.first?.text == "crème brûlée for two")
            #expect(!model.contentResultsArePartial, "one file matches, and the index is built")
            model.searchText = "walrus tusk"
            for _ in 0..<50 where model.contentResults.count < 50 || !model.contentResultsArePartial {
                await model.search()
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(model.contentResults.count == 50 && model.contentResultsArePartial, "51 files match")
            model.searchText = "menu"
            await model.search()
            #expect(model.contentResults.isEmpty, "a file's name is not its content")
            await model.go(to: "/")
            #expect(model.contentResults.isEmpty, "going elsewhere clears the results")
        }
    }

    @Test("a missing folder is an error to retry; a server gone is offline")
    func errorStates() async throws {
        let tree = try LiveServer.makeTree()
        try await LiveServer.with(tree) { @MainActor _, client in
            let model = DirectoryBrowserModel(client: client, path: "/nowhere")
            await model.load()
            guard case .failed(let error) = model.phase else { Issue.record("\(model.phase)"); return }
            #expect(error.status == 404 && model.rows.map(\.name) == [".."])
        }
        let gone = APIClient(server: try Server(host: "127.0.0.1", port: 9), transport: URLSessionTransport())
        let model = DirectoryBrowserModel(client: gone)
        await model.load()
        guard case .offline = model.phase else { Issue.record("\(model.phase)"); return }
    }

    @Test("search finds names under the folder; a file added or removed on disk shows without a reload")
    func searchAndLiveUpdates() async throws {
        let tree = try LiveServer.makeTree()
        let index = try TemporaryFolder(prefix: "browsey-index")
        try await LiveServer.with(tree, index: index) { @MainActor server, client in
            let model = DirectoryBrowserModel(client: client, path: "/docs")
            await model.load()
            model.searchText = "cafe"
            await model.search()
            #expect(model.searchResults.first?.name == "café ☕.txt")

            model.startLiveUpdates()
            defer { model.stopLiveUpdates() }
            // The stream connects in its own time: a new file each second until one shows.
            var seen = false
            for attempt in 1...8 where !seen {
                try server.folder.file("docs/arrived #\(attempt).txt", "new")
                for _ in 0..<33 where !seen {
                    try await Task.sleep(for: .milliseconds(30))
                    seen = model.rows.contains { $0.name == "arrived #\(attempt).txt" }
                }
            }
            #expect(seen, "the new file shows by itself")
            try FileManager.default.removeItem(atPath: server.folder.path("docs/100% done.txt"))
            var gone = false
            for _ in 0..<100 where !gone {
                try await Task.sleep(for: .milliseconds(30))
                gone = !model.rows.contains { $0.name == "100% done.txt" }
            }
            #expect(gone, "a removed file goes by itself")
        }
    }
}
