import BrowseyAPI
import BrowseyClient
import BrowseyClientNIO
import Foundation
import Synchronization
import TestSupport
import Testing

/// A transport that counts requests and the bytes of their answers' bodies.
private final class MeteredTransport: HTTPTransport {
    let inner = NIOHTTPTransport()
    let targets = Mutex<[String]>([])
    let bytes = ByteCounter()

    func send(
        _ request: TransportRequest, to server: Server, timeout: Duration
    ) async throws(BrowseyClientError) -> TransportResponse {
        var response = try await inner.send(request, to: server, timeout: timeout)
        targets.withLock { $0.append(request.target) }
        response.body = ResponseBody(Metered(base: response.body, bytes: bytes))
        return response
    }

    /// Forgets what was counted.
    func reset() {
        targets.withLock { $0 = [] }
        bytes.count.withLock { $0 = 0 }
    }

    var downloads: [String] { targets.withLock { $0.filter { $0.hasPrefix("/api/file") } } }
}

/// Bytes counted across tasks.
private final class ByteCounter: Sendable {
    let count = Mutex(0)
}

/// A body that adds each chunk's size to a counter as it passes.
private struct Metered: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let base: ResponseBody
    let bytes: ByteCounter

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: ResponseBody.AsyncIterator
        let bytes: ByteCounter
        mutating func next() async throws -> [UInt8]? {
            let chunk = try await base.next()
            if let chunk { bytes.count.withLock { $0 += chunk.count } }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), bytes: bytes) }
}

/// A transport that answers every request with one canned manifest.
private struct CannedManifest: HTTPTransport {
    let json: String

    func send(
        _ request: TransportRequest, to server: Server, timeout: Duration
    ) async throws(BrowseyClientError) -> TransportResponse {
        let body = Array(json.utf8)
        return TransportResponse(
            status: 200, headers: [("Content-Type", "application/json")],
            body: ResponseBody(
                AsyncStream { continuation in
                    continuation.yield(body)
                    continuation.finish()
                }))
    }
}

/// The local copy's files and their bytes (the marker left out).
private func files(in folder: String) throws -> [String: [UInt8]] {
    var found: [String: [UInt8]] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while let name = enumerator?.nextObject() as? String {
        var isFolder: ObjCBool = false
        let path = folder + "/" + name
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
            continue
        }
        if name == FolderMirror.markerName { continue }
        found[name] = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    return found
}

@Suite(
    "Pinned folders: a local mirror kept from the sync manifest", .serialized,
    // Thousands of local file operations beside an in-process server: in the parallel run one of
    // these took 211 s and held up every other suite, so they run apart.
    .enabled(if: TimingSensitive.runsHere, "heavy tests run apart: Scripts/test, BROWSEY_TIMING_TESTS=1"))
struct FolderMirrorTests {
    @Test(
        "a second sync of a 10,000-file tree transfers only the manifest's unchanged answer; one changed file is one download",
        // 10,000 downloads in a debug build: its neighbours in the parallel run would wait on it.
        .enabled(
            if: TimingSensitive.runsHere,
            "heavy and timed tests run apart: Scripts/test, BROWSEY_TIMING_TESTS=1")
    )
    func secondRunIsOneSmallAnswer() async throws {
        let tree = try TemporaryFolder()
        for folder in 0..<20 {
            for file in 0..<500 { try tree.file("f\(folder)/file \(file).txt", "\(folder)-\(file)") }
        }
        let copy = try TemporaryFolder()
        try await LiveServer.with(tree) { _, plain in
            let transport = MeteredTransport()
            let client = APIClient(server: plain.server, transport: transport, timeout: .seconds(60))
            var mirror = try client.pin("/", into: copy.path("mirror"))
            mirror.parallel = 8
            let first = try await mirror.sync()
            #expect(first.downloaded == 10_000 && first.files == 10_000 && !first.unchanged)
            #expect(try copy.contents("mirror/f7/file 42.txt") == Array("7-42".utf8))

            transport.reset()
            let second = try await mirror.sync()
            #expect(second.unchanged && second.downloaded == 0 && second.revision == first.revision)
            #expect(transport.targets.withLock { $0.count } == 1)
            let unchanged = #"{"path":"/","revision":"\#(first.revision)","unchanged":true}"#
            #expect(
                transport.bytes.count.withLock { $0 } == unchanged.utf8.count, "only the unchanged answer")

            try tree.file("f3/file 9.txt", "changed, and longer")
            transport.reset()
            let third = try await eventuallyChanged(mirror)
            #expect(third.downloaded == 1 && transport.downloads.count == 1)
            #expect(try copy.contents("mirror/f3/file 9.txt") == Array("changed, and longer".utf8))
        }
    }

    @Test("what went from the server goes from the copy, and local strays inside the copy are removed")
    func removals() async throws {
        let tree = try LiveServer.makeTree()
        try tree.file("docs/old/gone.txt", "bye")
        let copy = try TemporaryFolder()
        try await LiveServer.with(tree) { _, client in
            let mirror = try client.pin("/docs", into: copy.path("docs"))
            try await mirror.sync()
            #expect(
                try files(in: copy.path("docs")).keys.sorted() == [
                    "100% done.txt", "café ☕.txt", "notes #1.md", "old/gone.txt",
                ])
            try FileManager.default.removeItem(atPath: tree.path("docs/old"))
            try FileManager.default.removeItem(atPath: tree.path("docs/100% done.txt"))
            try copy.file("docs/stray.txt", "mine")
            let report = try await eventuallyChanged(mirror)
            #expect(report.removed == 3, "\(report)")
            let left = try files(in: copy.path("docs")).keys.sorted()
            #expect(left == ["café ☕.txt", "notes #1.md"], "\(left)")
            #expect(FileManager.default.fileExists(atPath: copy.path("docs/" + FolderMirror.markerName)))
        }
    }

    @Test("a local folder that is neither empty nor an earlier mirror of the same folder is refused")
    func refusesSomeoneElsesFolder() async throws {
        let tree = try LiveServer.makeTree()
        let copy = try TemporaryFolder()
        try copy.file("mine/precious.txt", "keep me")
        try await LiveServer.with(tree) { _, client in
            #expect {
                try client.pin("/docs", into: copy.path("mine"))
            } throws: { ($0 as? BrowseyClientError)?.message.contains("not a mirror") == true }
            let mirror = try client.pin("/docs", into: copy.path("docs-copy"))
            try await mirror.sync()
            #expect {
                try client.pin("/code", into: copy.path("docs-copy"))
            } throws: { ($0 as? BrowseyClientError)?.message.contains("mirrors") == true }
            #expect(try copy.contents("mine/precious.txt") == Array("keep me".utf8))
        }
    }

    @Test("a manifest naming a place outside the copy changes nothing")
    func hostileNames() async throws {
        let copy = try TemporaryFolder()
        try copy.file("outside.txt", "untouched")
        for name in ["..", "../outside.txt", "a/b", "."] {
            let json = """
                {"path":"/","revision":"\(String(repeating: "a", count: 64))","unchanged":false,"showHidden":false,
                 "directories":[{"path":"/","absolutePath":"/srv","items":[{"name":"\(name)","type":"file",
                 "size":1,"modified":"2024-01-01T00:00:00.000Z","extension":null,"absolutePath":"/srv/x"}]}]}
                """
            let client = APIClient(
                server: try Server(name: "canned", host: "127.0.0.1", port: 9),
                transport: CannedManifest(json: json))
            let mirror = try client.pin("/", into: copy.path("mirror \(name.count)"))
            await #expect(throws: BrowseyClientError.self, "\(name)") { try await mirror.sync() }
        }
        #expect(try copy.contents("outside.txt") == Array("untouched".utf8))
    }

    @Test(
        "the pinned model goes syncing, then pinned, and offline (keeping the copy) when the server is gone")
    @MainActor
    func modelStates() async throws {
        let tree = try LiveServer.makeTree()
        let copy = try TemporaryFolder()
        let stamp = Date(timeIntervalSince1970: 1_700_000_000)
        let kept = Kept()
        try await LiveServer.with(tree) { _, client in
            let mirror = try client.pin("/docs", into: copy.path("docs"))
            let model = await PinnedFolderModel(mirror: mirror, now: { stamp })
            #expect(await model.state == .idle)
            await model.sync()
            #expect(await model.state == .pinned(synced: stamp))
            #expect(await model.lastReport?.files == 3)
            kept.mirror.withLock { $0 = mirror }
        }
        let model = PinnedFolderModel(mirror: try #require(kept.mirror.withLock { $0 }), now: { stamp })
        await model.sync()
        guard case .offline(_, let lastSynced) = model.state else {
            Issue.record("expected offline, got \(model.state)")
            return
        }
        #expect(lastSynced == nil)
        #expect(try copy.contents("docs/notes #1.md").count > 0, "the copy stays readable")
    }
}

/// A mirror kept from inside a server's lifetime.
private final class Kept: Sendable {
    let mirror = Mutex<FolderMirror?>(nil)
}

/// Syncs until the server's watcher has seen the change (its latency), at most 2 s.
private func eventuallyChanged(_ mirror: FolderMirror) async throws -> FolderMirror.Report {
    var report = try await mirror.sync()
    for _ in 0..<40 where report.unchanged {
        try await Task.sleep(for: .milliseconds(50))
        report = try await mirror.sync()
    }
    return report
}
