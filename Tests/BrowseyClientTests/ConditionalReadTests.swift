import BrowseyClient
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("Conditional reads: listings and views asked again with their ETag")
@MainActor
struct ConditionalReadTests {
    /// A folder whose listing is `names`, tagged `"v<version>"`: a request carrying the
    /// current tag (alone, in a list, or weak) gets 304, any other the listing.
    final class Folder: Sendable {
        final class Shared: Sendable {
            let state = Mutex((version: 1, names: ["a.txt", "b.txt"]))
            let notModified = Atomic(0)
            let full = Atomic(0)
        }

        let shared = Shared()
        let server: ScriptedHTTPServer
        var notModified: Int { shared.notModified.load(ordering: .relaxed) }
        var full: Int { shared.full.load(ordering: .relaxed) }

        init() throws {
            let shared = shared
            server = try ScriptedHTTPServer { head in
                let (version, names) = shared.state.withLock { ($0.version, $0.names) }
                let tag = "\"v\(version)\""
                let asked = ScriptedHTTPServer.header("If-None-Match", in: head) ?? ""
                let tags = asked.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if tags.contains(where: { $0 == tag || $0 == "W/" + tag }) {
                    shared.notModified.add(1, ordering: .relaxed)
                    return ("304 Not Modified", ["ETag: \(tag)"], "")
                }
                shared.full.add(1, ordering: .relaxed)
                let json = "Content-Type: application/json; charset=utf-8"
                if ScriptedHTTPServer.target(of: head).hasPrefix("/api/view") {
                    return (
                        "200 OK", [json, "ETag: \(tag)"],
                        #"{"type":"text","filename":"a.txt","content":"version \#(version)","size":9}"#
                    )
                }
                return ("200 OK", [json, "ETag: \(tag)"], listingJSON(names))
            }
        }

        func change(to names: [String]) {
            shared.state.withLock { $0 = (version: $0.version + 1, names: names) }
        }

        func client(cache: ConditionalReadCache = ConditionalReadCache()) throws -> APIClient {
            var client = APIClient(
                server: try Server(name: "Tagged", host: "127.0.0.1", port: server.port),
                transport: TransportKind.nio.make(), timeout: .seconds(30))
            client.conditionalReads = cache
            return client
        }
    }

    @Test("the directory model reloads with If-None-Match, and a 304 keeps the rows it shows")
    func directoryModelReusesItsRows() async throws {
        let folder = try Folder()
        defer { folder.server.stop() }
        let model = DirectoryBrowserModel(client: try folder.client())
        await model.load()
        #expect(model.rows.map(\.name) == ["a.txt", "b.txt"])
        #expect(ScriptedHTTPServer.header("If-None-Match", in: folder.server.received[0]) == nil)

        await model.load()
        #expect(folder.notModified == 1, "the reload was answered 304")
        #expect(ScriptedHTTPServer.header("If-None-Match", in: folder.server.received[1]) == "\"v1\"")
        #expect(model.rows.map(\.name) == ["a.txt", "b.txt"], "the rows already shown stay")
        guard case .loaded = model.phase else {
            Issue.record("a 304 leaves the folder loaded: \(model.phase)")
            return
        }

        folder.change(to: ["a.txt", "c.txt"])
        await model.load()
        #expect(model.rows.map(\.name) == ["a.txt", "c.txt"], "a stale tag gets the new listing")
        #expect(folder.full == 2)
    }

    @Test("the client keeps tagged listings and views: read again, a 304 gives back the same value")
    func clientCache() async throws {
        let folder = try Folder()
        defer { folder.server.stop() }
        let client = try folder.client()
        let first = try await client.list("/")
        let again = try await client.list("/")
        #expect(again == first && folder.notModified == 1)
        let view = try await client.view("/a.txt")
        #expect(try await client.view("/a.txt") == view && view.content == "version 1")
        #expect(folder.notModified == 2)
        #expect(client.conditionalReads.count == 2)

        folder.change(to: ["z.txt"])
        #expect(try await client.list("/").items.map(\.name) == ["z.txt"])
        #expect(try await client.view("/a.txt").content == "version 2")
    }

    @Test("the cache is bounded: past its capacity the least recently used read is asked for whole")
    func bounded() async throws {
        let folder = try Folder()
        defer { folder.server.stop() }
        let client = try folder.client(cache: ConditionalReadCache(capacity: 1))
        _ = try await client.list("/")
        _ = try await client.list("/docs")
        _ = try await client.list("/")
        #expect(folder.notModified == 0, "\"/\" was pushed out by \"/docs\"")
        #expect(client.conditionalReads.count == 1)
        _ = try await client.list("/")
        #expect(folder.notModified == 1)

        let tiny = try folder.client(cache: ConditionalReadCache(byteLimit: 64))
        _ = try await tiny.list("/")
        #expect(tiny.conditionalReads.count == 0, "an answer larger than a quarter of the limit is not kept")
    }
}
