import BrowseyClient
import Foundation
import TestSupport
import Testing

@Suite("Live events through the client")
struct EventTests {
    /// The first event of `kind` naming `name`, within `seconds`.
    private func next(
        _ kind: ServerEvent.Kind, named name: String, in events: AsyncThrowingStream<ServerEvent, any Error>,
        seconds: Double = 5
    ) async throws -> ServerEvent? {
        let reader = Task { () throws -> ServerEvent? in
            for try await event in events where event.kind == kind && event.change?.item?.name == name { return event }
            return nil
        }
        let timer = Task {
            try await Task.sleep(for: .seconds(seconds))
            reader.cancel()
        }
        defer { timer.cancel() }
        return try? await reader.value
    }

    @Test("a file created on disk arrives as an event; a reconnection with the last id gets what it missed", arguments: TransportKind.allCases)
    func deliveredAndResumed(transport: TransportKind) async throws {
        let tree = try LiveServer.makeTree()
        let index = try TemporaryFolder(prefix: "browsey-index")
        try await LiveServer.with(tree, transport: transport, index: index) { server, client in
            // Give the index its first build.
            for _ in 0..<100 {
                if (try? await client.search("main"))?.results.isEmpty == false { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let events = client.events(in: "/docs")
            try await Task.sleep(for: .milliseconds(300))
            try server.folder.file("docs/new #1 ü.md", "hello")
            let created = try #require(try await next(.created, named: "new #1 ü.md", in: events))
            #expect(created.change?.path == "/docs/new #1 ü.md" && created.change?.item?.size == 5)
            let lastID = try #require(created.id)

            // Missed while away: replayed after the id.
            try server.folder.file("docs/while away.txt", "x")
            try await Task.sleep(for: .milliseconds(400))
            let resumed = client.events(in: "/docs", after: lastID)
            let missed = try await next(.created, named: "while away.txt", in: resumed)
            #expect(missed != nil, "the event missed while disconnected is replayed")
        }
    }

    @Test("without an index the server says events are off, and the client says so")
    func noIndex() async throws {
        let tree = try LiveServer.makeTree()
        try await LiveServer.with(tree) { _, client in
            await #expect {
                for try await _ in client.events() {}
            } throws: { ($0 as? BrowseyClientError)?.status == 503 }
        }
    }
}
