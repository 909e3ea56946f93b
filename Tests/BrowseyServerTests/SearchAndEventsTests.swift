import BrowseyAPI
import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@Suite("Search over HTTP, answered from the index")
struct SearchTests {
    /// Asks once (the index builds in the background; until it is ready, search walks).
    static func search(_ client: some TestClientProtocol, _ query: String) async throws -> SearchResponse {
        try await client.ask("/api/search?" + query).decode(SearchResponse.self)
    }

    @Test("filters narrow the results, and a filter that makes no sense is a 400 that says why")
    func filtersOverHTTP() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("docs/report 2025.md", Array(repeating: 65, count: 3000))
        try fixture.folder.file("docs/report 2024.txt", "small")
        try fixture.folder.folder("docs/report archive")
        try await fixture.withClient { client in
            let files = try await Self.search(client, "q=report&type=file&ext=md,.TXT")
            #expect(Set(files.results.map(\.path)) == ["/docs/report 2025.md", "/docs/report 2024.txt"])
            let folders = try await Self.search(client, "q=report&type=directory")
            #expect(folders.results.map(\.path) == ["/docs/report archive"])
            let big = try await Self.search(client, "q=report&minSize=2K")
            #expect(big.results.map(\.path) == ["/docs/report 2025.md"])
            let recent = try await Self.search(
                client, "q=report&after=2020-01-01&before=2999-01-01T00:00:00Z")
            #expect(recent.results.count == 3)
            let none = try await Self.search(client, "q=report&before=2001-01-01")
            #expect(none.results.isEmpty)
            for bad in ["type=song", "minSize=lots", "after=yesterday", "maxSize=-1"] {
                let answer = try await client.ask("/api/search?q=report&" + bad)
                #expect(answer.status == .badRequest, "\(bad)")
                #expect(answer.error?.isEmpty == false, "\(bad): \(answer.text)")
            }
        }
    }

    @Test(
        "a search under a folder that is not there is a 404, under a file a 400, for names and contents alike"
    )
    func searchesOnlyAFolderThatIsThere() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("docs/report.md", "the report")
        try await fixture.withClient { client in
            for kind in ["", "&in=content"] {
                let missing = try await client.ask("/api/search?q=report&path=/nope" + kind)
                #expect(
                    missing.status == .notFound && missing.error == "Directory not found", "\(missing.text)")
                let file = try await client.ask("/api/search?q=report&path=/docs/report.md" + kind)
                #expect(file.status == .badRequest && file.text.contains("notADirectory"), "\(file.text)")
            }
            let there = try await client.ask("/api/search?q=report&path=/docs")
            #expect(there.status == .ok)
        }
    }

    @Test(
        "a link that leads out is never a search hit, whether what it names outside exists or not; one inside is"
    )
    func linksOutAreNotHitsEitherWay() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.symlink("zlinkq there", to: fixture.outside.path("secret.txt"))
        try fixture.folder.symlink("zlinkq missing", to: fixture.outside.path("no such file.txt"))
        try fixture.folder.symlink("zlinkq folder", to: fixture.outside.path)
        try fixture.folder.symlink("zlinkq inside", to: "docs")
        try fixture.folder.symlink("zlinkq inside, missing", to: "docs/no such file.txt")
        // Out by way of another link, to a name outside that is missing and to one that is not.
        try fixture.folder.symlink("docs/hop to nothing", to: fixture.outside.path("no such file.txt"))
        try fixture.folder.symlink("docs/hop to secret", to: fixture.outside.path("secret.txt"))
        try fixture.folder.symlink("zlinkq two hops, missing", to: "docs/hop to nothing")
        try fixture.folder.symlink("zlinkq two hops", to: "docs/hop to secret")
        try await fixture.withClient { client in
            let names = try await Self.search(client, "q=zlinkq").results.map(\.name).sorted()
            #expect(names == ["zlinkq inside", "zlinkq inside, missing"])
        }
    }

    @Test("search never returns a hidden, ignored or outside name, nor a file deleted a moment ago")
    func neverRevealsOrStale() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            for query in ["q=env", "q=secret", "q=build.log", "q=..%2F", "q=escape%2Fsecret"] {
                let answer = try await Self.search(client, query)
                #expect(
                    answer.results.allSatisfy {
                        !$0.path.contains("secret") && !$0.name.hasPrefix(".") && !$0.name.hasSuffix(".log")
                    }, "\(query)")
                #expect(answer.results.allSatisfy { $0.absolutePath.hasPrefix(fixture.folder.path + "/") })
            }
            #expect(try await Self.search(client, "q=caf%C3%A9").results.map(\.path) == ["/docs/café.txt"])
            try FileManager.default.removeItem(atPath: fixture.folder.path("docs/café.txt"))
            #expect(
                try await Self.search(client, "q=caf%C3%A9").results.isEmpty,
                "checked against the disk before answering")
        }
    }

    @Test("without the index, search walks the tree with the same rules and filters")
    func walkingFallback() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.indexesSearch = false
        try await fixture.withClient(configuration) { client in
            let answer = try await Self.search(client, "q=notes&ext=md")
            #expect(answer.results.map(\.path) == ["/docs/notes #1.md"])
            let events = try await client.ask("/api/events")
            #expect(events.status == .serviceUnavailable && events.error?.contains("--no-index") == true)
        }
    }
}

@Suite("Live events over Server-Sent Events")
struct EventsTests {
    /// Opens `/api/events` on a live server; returns the socket once the stream started, and
    /// what came with the start.
    static func open(
        port: Int, path: String = "/", lastEventID: String? = nil
    ) async throws -> (RawSocket, String) {
        guard let socket = RawSocket(port: port) else { throw TestSupportError("cannot connect") }
        let target =
            "/api/events?path=" + (path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? path)
        var request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
        socket.send(Array((request + "\r\n").utf8))
        // Seconds, not milliseconds: the parallel suite (a child process saving and fsyncing in
        // a loop among others) can hold the disk; this waits for a stream, not for speed.
        let head = await socket.receive(for: 60) { $0.contains(": connected") }
        guard head.contains("200 OK"), head.contains("text/event-stream") else {
            throw TestSupportError("no stream: \(head)")
        }
        // Replayed events may come in the same read; give the stream a moment to send them.
        return (socket, head + (await socket.receive(for: 0.2) { _ in false }))
    }

    /// The `data:` payloads of the events in `text`.
    static func events(in text: String) -> [ChangeEvent] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("data: ") else { return nil }
            return try? JSONDecoder.browsey().decode(ChangeEvent.self, from: Data(line.dropFirst(6).utf8))
        }
    }

    @Test(
        "a change on disk reaches an open stream promptly, with the entry as a listing shows it; other folders' changes do not"
    )
    func deliveryWithinASecond() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.eventHeartbeat = .milliseconds(200)
        let app = try FileServer.application(configuration)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await Task.sleep(for: .milliseconds(300))  // the index is up
            let (socket, _) = try await Self.open(port: port, path: "/docs")
            defer { socket.close() }
            let clock = ContinuousClock()
            let started = clock.now
            try fixture.folder.file("code/elsewhere.txt", "e")
            try fixture.folder.file("docs/new 100% #1.md", "hello")
            let text = await socket.receive(for: 60) { $0.contains("new 100% #1.md") }
            let elapsed = clock.now - started
            let created = Self.events(in: text).filter { $0.type == "created" }
            #expect(created.map(\.path) == ["/docs/new 100% #1.md"], "\(text)")
            #expect(created.first?.item?.size == 5 && created.first?.item?.type == .file)
            // 1 s is the promise, measured quiet by search_bench.py; the parallel suite starves timings.
            #expect(elapsed < .seconds(20), "took \(elapsed)")
            #expect(!text.contains("elsewhere"))
            let beat = await socket.receive(for: 60) { $0.contains(": heartbeat") }
            #expect(beat.contains(": heartbeat"), "a heartbeat while nothing happens")
            try FileManager.default.moveItem(
                atPath: fixture.folder.path("docs/new 100% #1.md"),
                toPath: fixture.folder.path("docs/renamed.md"))
            let renamed = Self.events(in: await socket.receive(for: 60) { $0.contains("renamed.md") })
            #expect(
                renamed.contains {
                    $0.type == "renamed" && $0.from == "/docs/new 100% #1.md" && $0.path == "/docs/renamed.md"
                })
            try FileManager.default.removeItem(atPath: fixture.folder.path("docs/renamed.md"))
            let deleted = Self.events(in: await socket.receive(for: 60) { $0.contains("\"deleted\"") })
            #expect(deleted.contains { $0.type == "deleted" && $0.path == "/docs/renamed.md" })
        }
    }

    @Test("a client that reconnects with Last-Event-ID gets what it missed; an unknown id gets a reset")
    func resumption() async throws {
        let fixture = try ServerFixture.make()
        let app = try FileServer.application(fixture.configuration())
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await Task.sleep(for: .milliseconds(300))
            let (first, _) = try await Self.open(port: port)
            // A witness that stays connected tells when the server has published the change the
            // first client misses (a fixed sleep was too short when the parallel suite starves the watcher).
            let (witness, _) = try await Self.open(port: port, path: "/docs")
            defer { witness.close() }
            try fixture.folder.file("docs/first.txt", "1")
            let seen = await first.receive(for: 60) { $0.contains("first.txt") }
            first.close()
            let id = try #require(
                seen.split(whereSeparator: \.isNewline).first { $0.hasPrefix("id: ") }?.dropFirst(4),
                "\(seen)")
            try fixture.folder.file("docs/missed.txt", "2")
            let published = await witness.receive(for: 60) { $0.contains("missed.txt") }
            #expect(
                published.contains("missed.txt"), "the change was published while the first client was away")
            let (again, start) = try await Self.open(port: port, lastEventID: String(id))
            defer { again.close() }
            // The replay may come in a later segment than the stream's start: read on until it did.
            let rest =
                start.contains("missed.txt") ? "" : await again.receive(for: 60) { $0.contains("missed.txt") }
            let replayed = Self.events(in: start + rest)
            #expect(replayed.contains { $0.path == "/docs/missed.txt" })
            #expect(!replayed.contains { $0.path == "/docs/first.txt" }, "nothing twice")
            let (stranger, told) = try await Self.open(port: port, lastEventID: "not-from-this-run.4")
            defer { stranger.close() }
            // As with the replay, the reset may come in a later segment than the stream's start.
            let toldRest =
                told.contains("event: reset")
                ? "" : await stranger.receive(for: 60) { $0.contains("event: reset") }
            #expect((told + toldRest).contains("event: reset"))
        }
    }
}
