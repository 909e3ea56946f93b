import BrowseyClient
import BrowseyClientNIO
import BrowseyServer
import BrowseyURLSession
import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

/// The real Browsey server, in process, on a real port of 127.0.0.1, serving a temporary tree
/// with awkward names; stopped when the body ends.
struct LiveServer {
    let folder: TemporaryFolder
    let port: Int

    /// The tree every client test starts from.
    static func makeTree() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.file("docs/notes #1.md", "# Notes\n\nSome *text*.\n")
        try folder.file("docs/100% done.txt", "done")
        try folder.file("docs/café ☕.txt", "crème")
        try folder.file("code/main.swift", "print(\"hi\")\n")
        try folder.file("big.bin", (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try folder.file(".hidden", "secret")
        return folder
    }

    /// Runs `body` with a client of a live server over `folder`.
    static func with(
        _ folder: TemporaryFolder, readOnly: Bool = true, token: String? = nil,
        transport: TransportKind = .urlSession,
        index: TemporaryFolder? = nil, accounts: Accounts? = nil,
        _ body: @Sendable (LiveServer, APIClient) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration(
            root: folder.path, host: "127.0.0.1", port: 0, readOnly: readOnly, showsHidden: false,
            ignoredNames: [],
            allowsSymlinks: false, cachesListings: true, trashFolder: nil)
        configuration.token = token
        configuration.indexesSearch = index != nil
        configuration.indexPath = index?.path("index.sqlite")
        configuration.accounts = accounts
        // What these tests check is never the header timeout either: in the full parallel run a
        // client's task can wait more than the default 10 s between connecting and sending its
        // request, which most likely closed the two CI saw fail with "I/O on closed channel".
        configuration.headerTimeout = .seconds(120)
        let ready = Ready()
        // Stopped by cancellation, which the server logs as errors: only critical ones are shown.
        var logger = Logger(label: "live-server")
        logger.logLevel = .critical
        let app = try FileServer.application(configuration, logger: logger) { port in ready.set(port) }
        let running = Task { try await app.runService(gracefulShutdownSignals: []) }
        defer { running.cancel() }
        let port = try await ready.port()
        let server = try Server(name: "Test server", host: "127.0.0.1", port: port, token: token)
        // A generous timeout: in the full parallel run on two cores, this process's tasks can
        // wait many seconds for a turn, and what these tests check is never the timeout.
        let client = APIClient(server: server, transport: transport.make(), timeout: .seconds(60))
        try await body(LiveServer(folder: folder, port: port), client)
    }
}

/// The port the server reports once it listens.
private final class Ready: Sendable {
    private let value = Mutex<Int?>(nil)
    func set(_ port: Int) { value.withLock { $0 = port } }
    func port() async throws -> Int {
        for _ in 0..<3000 {
            if let port = value.withLock({ $0 }) { return port }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestSupportError("the server did not start")
    }
}

/// The two transports every client test runs over.
enum TransportKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case urlSession = "URLSession"
    case nio = "NIO"

    func make() -> any HTTPTransport {
        switch self {
        case .urlSession: URLSessionTransport()
        case .nio: NIOHTTPTransport()
        }
    }

    var testDescription: String { rawValue }
}
