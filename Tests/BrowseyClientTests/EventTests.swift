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
            for try await event in events where event.kind == kind && event.change?.item?.name == name {
                return event
            }
            return nil
        }
        let timer = Task {
            try await Task.sleep(for: .seconds(seconds))
            reader.cancel()
        }
        defer { timer.cancel() }
        return try? await reader.value
    }

    @Test(
        "a file created on disk arrives as an event; a reconnection with the last id gets what it missed",
        arguments: TransportKind.allCases)
    func deliveredAndResumed(transport: TransportKind) async throws {
        let tree = try LiveServer.makeTree()
        let index = try TemporaryFolder(prefix: "browsey-index")
        try await LiveServer.with(tree, transport: transport, index: index) { server, client in
            // Give the index its first build.
            for _ in 0..<100 {
                if (try? await client.search("main"))?.results.isEmpty == false { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let seen = Seen()
            let reader = Task {
                for try await event in client.events(in: "/docs") { await seen.add(event) }
            }
            defer { reader.cancel() }
            // The stream connects in its own time: a new file each second until one arrives.
            var arrived: ServerEvent?
            for attempt in 1...8 where arrived == nil {
                try server.folder.file("docs/new #\(attempt) ü.md", "hello")
                arrived = await seen.first(.created, within: .seconds(1))
            }
            let event = try #require(arrived, "no created event in 8 seconds")
            #expect(
                event.change?.path?.hasPrefix("/docs/new #") == true && event.change?.item?.size == 5,
                "\(event)")
            #expect(event.change?.item?.name.hasSuffix(" ü.md") == true)
            let created = event
            let lastID = try #require(created.id)

            // Missed while away: replayed after the id.
            try server.folder.file("docs/while away.txt", "x")
            try await Task.sleep(for: .milliseconds(400))
            let resumed = client.events(in: "/docs", after: lastID)
            let missed = try await next(.created, named: "while away.txt", in: resumed)
            #expect(missed != nil, "the event missed while disconnected is replayed")
        }
    }

    /// Events read so far by a reader task.
    private actor Seen {
        private var events: [ServerEvent] = []
        func add(_ event: ServerEvent) { events.append(event) }
        /// The first event of `kind`, waiting up to `limit` for one.
        func first(_ kind: ServerEvent.Kind, within limit: Duration) async -> ServerEvent? {
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline {
                if let event = events.first(where: { $0.kind == kind }) { return event }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return events.first { $0.kind == kind }
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
