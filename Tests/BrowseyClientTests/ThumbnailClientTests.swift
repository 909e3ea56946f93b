import BrowseyAPI
import BrowseyClient
import BrowseyClientNIO
import Foundation
import Synchronization
import TestSupport
import Testing

/// A transport that counts what goes over the wire, and what came back.
private final class CountingTransport: HTTPTransport {
    let inner = NIOHTTPTransport()
    let sent = Mutex<[(target: String, status: Int)]>([])

    func send(
        _ request: TransportRequest, to server: Server, timeout: Duration
    ) async throws(BrowseyClientError) -> TransportResponse {
        let response = try await inner.send(request, to: server, timeout: timeout)
        sent.withLock { $0.append((request.target, response.status)) }
        return response
    }

    var thumbnailRequests: [Int] {
        sent.withLock { $0.filter { $0.target.hasPrefix("/api/thumb") }.map(\.status) }
    }
}

@Suite("Thumbnails in the client")
@MainActor
struct ThumbnailClientTests {
    static func tree() throws -> TemporaryFolder {
        let tree = try LiveServer.makeTree()
        let pixels = (0..<(64 * 48 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try tree.file("photos/a.png", GeneratedPNG.rgb(width: 64, height: 48, pixels: pixels))
        try tree.file("photos/notes.txt", "not a picture")
        return tree
    }

    @Test("the browser's rows get thumbnails once: a grid shown again asks the server nothing")
    func cachedInMemory() async throws {
        let tree = try Self.tree()
        try await LiveServer.with(tree) { @MainActor _, plain in
            let transport = CountingTransport()
            let client = APIClient(server: plain.server, transport: transport)
            let model = DirectoryBrowserModel(client: client, path: "/photos")
            await model.load()
            let picture = try #require(model.rows.first { $0.name == "a.png" })
            let text = try #require(model.rows.first { $0.name == "notes.txt" })
            #expect(picture.item?.hasThumbnail == true && text.item?.hasThumbnail == false)
            let first = try #require(await model.thumbnail(for: picture))
            #expect(first.bytes.starts(with: [0xFF, 0xD8]) && first.width == 64 && first.height == 48)
            #expect(await model.thumbnail(for: text) == nil, "not asked for a file without one")
            let again = try #require(await model.thumbnail(for: picture))
            #expect(again.bytes == first.bytes)
            #expect(transport.thumbnailRequests == [200], "one request for two showings")
        }
    }

    @Test(
        "a kept thumbnail past its freshness is asked again with its ETag, and a 304 keeps it; the disk keeps it across clients"
    )
    func revalidatedAndOnDisk() async throws {
        let tree = try Self.tree()
        let cache = try TemporaryFolder(prefix: "browsey-client-thumbs")
        try await LiveServer.with(tree) { @MainActor _, plain in
            let transport = CountingTransport()
            var client = APIClient(server: plain.server, transport: transport)
            client.thumbnails = ThumbnailStore(folder: cache.path, freshFor: .zero)
            let first = try await client.thumbnail(of: "/photos/a.png", size: 200)
            let second = try await client.thumbnail(of: "/photos/a.png", size: 200)
            #expect(second.bytes == first.bytes)
            #expect(transport.thumbnailRequests == [200, 304])

            var later = APIClient(server: plain.server, transport: transport)
            later.thumbnails = ThumbnailStore(folder: cache.path)
            let fromDisk = try await later.thumbnail(of: "/photos/a.png", size: 200)
            #expect(fromDisk.bytes == first.bytes && fromDisk.etag == first.etag)
            #expect(transport.thumbnailRequests.count == 2, "a new client found it on disk")
        }
    }
}
