import BrowseyAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import TestSupport
import Testing

@testable import BrowseyServer

/// A real server (the application, with its connection handlers) on a port of 127.0.0.1.
private func withLiveServer(
    _ configuration: ServerConfiguration, _ body: @Sendable (Int) async throws -> Void
) async throws {
    var logger = Logger(label: "strictness")
    logger.logLevel = .critical
    let port = Mutex<Int?>(nil)
    let app = try FileServer.application(configuration, logger: logger) { listening in
        port.withLock { $0 = listening }
    }
    let running = Task { try await app.runService(gracefulShutdownSignals: []) }
    defer { running.cancel() }
    for _ in 0..<1000 where port.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
    try await body(try #require(port.withLock { $0 }))
}

/// Sends raw bytes and reads until the server closes, or `seconds` pass. Every exchange here
/// expects the server to close, so the wait costs nothing when it does; it is long because in
/// the full parallel run on a loaded two-core machine a first answer once took longer than 10 s.
private func exchange(
    _ request: String, port: Int, seconds: Double = 60
) async throws -> (answer: String, closed: Bool) {
    let socket = try #require(RawSocket(port: port))
    defer { socket.close() }
    #expect(socket.send(Array(request.utf8)))
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        let count = recv(socket.descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count == 0 { return (String(decoding: bytes, as: UTF8.self), true) }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK {
                try await Task.sleep(for: .milliseconds(5))
                continue
            }
            return (String(decoding: bytes, as: UTF8.self), true)  // reset: closed as well
        }
        bytes += buffer[..<count]
    }
    return (String(decoding: bytes, as: UTF8.self), false)
}

/// The status of every response in what a connection received (a body need not end in a line break).
private func statusLines(_ answer: String) -> [String] {
    answer.components(separatedBy: "HTTP/1.1 ").dropFirst().map {
        "HTTP/1.1 " + $0.components(separatedBy: "\r\n")[0]
    }
}

@Suite("HTTP as the RFCs frame it, and nothing more")
struct HTTPStrictnessTests {
    @Test(
        "a request with a Transfer-Encoding other than chunked, two Hosts, or no Host on HTTP/1.1 gets 400 and a closed connection",
        arguments: [
            "POST /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: identity\r\n\r\n",
            "POST /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: xchunked\r\n\r\n",
            "POST /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
            "POST /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked, identity\r\n\r\n",
            "POST /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
            "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n",
            "GET /api/health HTTP/1.1\r\n\r\n",
        ])
    func badFraming(request: String) async throws {
        let fixture = try ServerFixture.make()
        try await withLiveServer(fixture.configuration()) { port in
            // What follows the bad head would be a second request if its body were ignored.
            let smuggled = "GET /api/list HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let (answer, closed) = try await exchange(request + smuggled, port: port)
            #expect(statusLines(answer).count == 1, "\(answer)")
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
            #expect(closed, "the connection stays open")
        }
    }

    @Test(
        "a chunked body that breaks its framing gets 400 and a closed connection, whatever the route does with bodies",
        arguments: [
            "POST /api/mkdir HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
            "POST /api/save HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}XX\r\n0\r\n\r\n",
            "PUT /api/file?path=%2Fbroken.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
        ])
    func badChunks(request: String) async throws {
        let fixture = try ServerFixture.make()
        try await withLiveServer(fixture.configuration(readOnly: false)) { port in
            let (answer, closed) = try await exchange(request, port: port)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
            #expect(closed, "the connection stays open")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("broken.txt")))
    }

    @Test(
        "well-framed requests pass: chunked bodies, HTTP/1.0 without a Host (closed after its answer), pipelined requests"
    )
    func goodFraming() async throws {
        let fixture = try ServerFixture.make()
        try await withLiveServer(fixture.configuration()) { port in
            let chunked = try await exchange(
                "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: Chunked\r\nConnection: close\r\n\r\n0\r\n\r\n",
                port: port)
            #expect(chunked.answer.hasPrefix("HTTP/1.1 200"), "\(chunked.answer)")
            let old = try await exchange("GET /api/health HTTP/1.0\r\n\r\n", port: port)
            #expect(old.answer.hasPrefix("HTTP/1.") && old.answer.contains(" 200 "), "\(old.answer)")
            #expect(old.closed, "HTTP/1.0 closes after the answer unless it asks to keep the connection")
            let two = try await exchange(
                "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /api/list HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                port: port)
            #expect(statusLines(two.answer) == ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"], "\(two.answer)")
        }
    }

    @Test("the token's redirect never leaves this server, however the address starts")
    func redirectStaysHere() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.token = "T0123456789abcdefghij"
        try await withLiveServer(configuration) { port in
            for (target, location) in [
                ("//evil.example/?token=T0123456789abcdefghij", "/evil.example/"),
                ("///evil.example/x?token=T0123456789abcdefghij&view=1", "/evil.example/x?view=1"),
                ("/%2F/evil.example?token=T0123456789abcdefghij", "/%2F/evil.example"),
                ("/docs?token=T0123456789abcdefghij", "/docs"),
            ] {
                let (answer, _) = try await exchange(
                    "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
                #expect(answer.hasPrefix("HTTP/1.1 303"), "\(target): \(answer)")
                let header = answer.components(separatedBy: "\r\n").first {
                    $0.lowercased().hasPrefix("location:")
                }
                #expect(
                    header.map {
                        String($0.dropFirst("location:".count)).trimmingCharacters(in: .whitespaces)
                    } == location, "\(target)")
            }
        }
        #expect(TokenAuthentication<FileServerContext>.sameOriginPath("/\\evil.example") == "/evil.example")
        #expect(TokenAuthentication<FileServerContext>.sameOriginPath("/\\/\\x") == "/x")
    }

    @Test("with a token required, health without it says only that the server is up and needs a token")
    func healthWithoutToken() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.token = "T0123456789abcdefghij"
        try await fixture.withClient(configuration) { client in
            let bare = try await client.ask("/api/health")
            #expect(bare.status == .ok)
            #expect(Set(bare.json.keys) == ["ok", "auth"], "\(bare.text)")
            #expect(bare.json["ok"] as? Bool == true && bare.json["auth"] as? Bool == true)
            let wrong = try await client.ask("/api/health", headers: [.authorization: "Bearer nope"])
            #expect(Set(wrong.json.keys) == ["ok", "auth"])
            let full = try await client.ask(
                "/api/health", headers: [.authorization: "Bearer T0123456789abcdefghij"])
            #expect(full.json["host"] != nil && full.json["readonly"] as? Bool == true)
            // Our own client still reads the short answer: it knows nothing more than that.
            let decoded = try bare.decode(HealthResponse.self)
            #expect(decoded.ok && decoded.auth == true && decoded.readonly && decoded.host.hostname.isEmpty)
        }
        try await fixture.withClient { client in
            let open = try await client.ask("/api/health")
            #expect(open.json["host"] != nil, "without --auth, health tells all")
        }
    }

    @Test("HEAD answers wherever GET does, with GET's headers and no body")
    func headEverywhere() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.indexesSearch = false
        try await fixture.withClient(configuration) { client in
            for path in [
                "/", "/docs", "/assets/app.js", "/assets/app.css", "/api/health", "/api/list?path=%2Fdocs",
                "/api/stat?path=%2Fbig.txt", "/api/view?path=%2Fbig.txt", "/api/openapi.json",
                "/api/file?path=%2Fbig.txt", "/api/search?q=notes", "/api/archive?path=%2Fdocs",
            ] {
                let get = try await client.ask(path)
                let head = try await client.ask(path, method: .head)
                #expect(head.status == get.status, "\(path)")
                #expect(head.body.isEmpty, "\(path)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(path)")
                if let length = get.headers[.contentLength] {
                    #expect(head.headers[.contentLength] == length, "\(path)")
                }
            }
            #expect(try await client.ask("/api/nothing", method: .head).status == .notFound)
        }
    }

    @Test("HEAD of the event stream answers at once without subscribing")
    func headOfEvents() async throws {
        let fixture = try ServerFixture.make()
        let index = try TemporaryFolder(prefix: "browsey-index")
        var configuration = fixture.configuration()
        configuration.indexesSearch = true
        configuration.indexPath = index.path("index.sqlite")
        try await withLiveServer(configuration) { port in
            // A subscribed stream would never close: the exchange's wait runs out.
            let (answer, closed) = try await exchange(
                "HEAD /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", port: port)
            #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains("text/event-stream"), "\(answer)")
            #expect(closed && answer.hasSuffix("\r\n\r\n"))
        }
    }
}
