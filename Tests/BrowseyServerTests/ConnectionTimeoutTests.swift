import BrowseyAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOHTTP1
import TestSupport
import Testing

@testable import BrowseyServer

#if canImport(Glibc)
    import Glibc
#endif

/// Whether the server has closed this connection (an end of stream or a reset is waiting).
/// Never blocks.
func closedByServer(_ socket: RawSocket) -> Bool {
    var byte: UInt8 = 0
    let peeked = recv(socket.descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
    return peeked == 0 || (peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
}

/// Waits until the server closes `socket` (reading and dropping whatever it sends first), or
/// `seconds` pass; returns how long after `since` it closed.
func closeTime(
    of socket: RawSocket, since: ContinuousClock.Instant, within seconds: Double
) async -> Duration? {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    var buffer = [UInt8](repeating: 0, count: 4096)
    while ContinuousClock.now < deadline {
        let count = recv(socket.descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            return ContinuousClock.now - since
        }
        if count < 0 { try? await Task.sleep(for: .milliseconds(10)) }
    }
    return nil
}

@Suite(
    "Connection timeouts",
    .enabled(if: TimingSensitive.runsHere, "timing tests run apart: Scripts/test, BROWSEY_TIMING_TESTS=1"))
struct ConnectionTimeoutTests {
    static let health = Array("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)

    @Test(
        "a half-sent request head is closed after the header timeout; a quiet keep-alive connection lasts until the idle timeout"
    )
    func headerAndIdle() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.headerTimeout = .seconds(1)
        configuration.idleTimeout = .seconds(4)
        let app = try FileServer.application(configuration)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let started = ContinuousClock.now
            // Half a request line, right after connecting.
            let half = try #require(RawSocket(port: port))
            defer { half.close() }
            half.send(Array("GET /api/hea".utf8))
            // A whole request, answered, then nothing.
            let quiet = try #require(RawSocket(port: port))
            defer { quiet.close() }
            quiet.send(Self.health)
            #expect(
                await quiet.receive(for: 10) { $0.contains("\"ok\"") || $0.contains("}") }.contains("200 OK"))
            // A whole request, answered, then half of the next one.
            let second = try #require(RawSocket(port: port))
            defer { second.close() }
            second.send(Self.health)
            #expect(await second.receive(for: 10) { $0.contains("}") }.contains("200 OK"))
            let secondStarted = ContinuousClock.now
            second.send(Array("GET /api/he".utf8))

            let halfClosed = await closeTime(of: half, since: started, within: 10)
            let secondClosed = await closeTime(of: second, since: secondStarted, within: 10)
            #expect(
                halfClosed.map { $0 >= .seconds(0.9) && $0 < .seconds(3) } == true,
                "\(String(describing: halfClosed))")
            #expect(
                secondClosed.map { $0 >= .seconds(0.9) && $0 < .seconds(3) } == true,
                "\(String(describing: secondClosed))")
            #expect(!closedByServer(quiet), "between requests only the idle timeout counts")
            let quietClosed = await closeTime(of: quiet, since: started, within: 15)
            #expect(quietClosed.map { $0 >= .seconds(3.5) } == true, "\(String(describing: quietClosed))")
        }
    }

    @Test(
        "an upload whose body stops coming is closed after the idle timeout; a connection answered from memory lasts until the idle timeout, not the header timeout"
    )
    func stalledUploadAndAnswersFromMemory() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("photos/wide.jpg", try ThumbnailRouteTests.jpeg(width: 64, height: 40))
        var configuration = fixture.configuration(readOnly: false)
        configuration.idleTimeout = .seconds(2)
        configuration.headerTimeout = .milliseconds(500)
        let app = try FileServer.application(configuration)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let stalled = try #require(RawSocket(port: port))
            defer { stalled.close() }
            let started = ContinuousClock.now
            stalled.send(
                Array(
                    "PUT /api/file?path=/stalled.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nhalf"
                        .utf8
                ))
            // The same thumbnail three times, further apart than the header timeout: the second
            // and third are answered from memory, and each answered request ends the head's clock.
            let thumbs = try #require(RawSocket(port: port))
            defer { thumbs.close() }
            let request = "GET /api/thumb?path=/photos/wide.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            for _ in 0..<3 {
                #expect(!closedByServer(thumbs))
                thumbs.send(Array(request.utf8))
                #expect(await thumbs.receive(for: 5) { $0.contains("\r\n\r\n") }.contains("200 OK"))
                try await Task.sleep(for: .milliseconds(1200))
            }
            #expect(!closedByServer(thumbs), "never quiet for the idle timeout yet")
            let stalledClosed = await closeTime(of: stalled, since: started, within: 10)
            #expect(
                stalledClosed.map { $0 >= .seconds(1.8) && $0 < .seconds(4) } == true,
                "\(String(describing: stalledClosed))")
            let thumbsClosed = await closeTime(of: thumbs, since: started, within: 10)
            // The last answer at about 2.4 s, so closed about 2 s later.
            #expect(
                thumbsClosed.map { $0 >= .seconds(4) && $0 < .seconds(6.5) } == true,
                "\(String(describing: thumbsClosed))")
        }
    }

    @Test("a download slower than the idle timeout runs to its end, by sendfile or copied")
    func slowDownloadIsNotCut() async throws {
        let fixture = try ServerFixture.make()
        let size = 16 << 20
        try fixture.folder.file("long.bin", [UInt8](repeating: 0x62, count: size))
        for sendfile in [false, true] {
            var configuration = fixture.configuration()
            configuration.idleTimeout = .seconds(1)
            configuration.sendsFilesBySendfile = sendfile
            configuration.sendsFilesBySendfileOnLoopback = sendfile
            let app = try FileServer.application(configuration)
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let socket = try #require(RawSocket(port: port))
                defer { socket.close() }
                socket.send(Array("GET /api/file?path=%2Flong.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                // About 4 MiB a second: four seconds, four idle timeouts, for the whole file.
                var received = 0
                var buffer = [UInt8](repeating: 0, count: 200 << 10)
                let deadline = ContinuousClock.now + .seconds(30)
                while ContinuousClock.now < deadline {
                    let count = recv(socket.descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { break }
                    if count > 0 { received += count }
                    if received >= size { break }
                    try await Task.sleep(for: .milliseconds(50))
                }
                // The head's bytes count too: the whole body arrived. (The server may close the
                // connection an idle timeout after the last bytes left it, while the client still
                // reads them from its buffers.)
                #expect(received > size, "sendfile: \(sendfile)")
            }
        }
    }

    @Test("an answer counts as written when its end has left for the socket, not when it was handed on")
    func answerIsWrittenWhenItLeaves() throws {
        // Synchronous, on one thread: an embedded channel may only be used from the thread that
        // made it (an `await` could resume elsewhere, which NIO reports as misuse).
        let registry = ConnectionRegistry(maximumPerAddress: 0, total: 16)
        let channel = EmbeddedChannel(
            handler: ConnectionGuard(
                registry: registry, headerTimeout: .seconds(30), idleTimeout: .milliseconds(200)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try channel.writeInbound(
            HTTPServerRequestPart.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/api/archive")))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        // A streamed answer (a folder's zip) whose last bytes, and its end, are still queued
        // behind a slow client: handed on, not yet sent.
        channel.write(
            HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "PK…"))), promise: nil)
        channel.write(HTTPServerResponsePart.end(nil), promise: nil)
        usleep(600_000)
        channel.embeddedEventLoop.advanceTime(to: .now())  // runs the idle check due by now
        #expect(channel.isActive, "closed with its answer's end still queued, three idle timeouts on")
        channel.flush()
        usleep(600_000)
        channel.embeddedEventLoop.advanceTime(to: .now())
        #expect(!channel.isActive, "still open three idle timeouts after its answer left")
    }

    @Test("an event stream outlives the idle timeout: its heartbeats keep coming")
    func eventStreamIsNotCut() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.idleTimeout = .seconds(1)
        configuration.headerTimeout = .seconds(1)
        configuration.eventHeartbeat = .milliseconds(300)
        let app = try FileServer.application(configuration)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let (stream, _) = try await EventsTests.open(port: port)
            defer { stream.close() }
            try await Task.sleep(for: .seconds(2.5))
            let later = await stream.receive(for: 5) { $0.contains(": heartbeat") }
            #expect(later.contains(": heartbeat"))
            #expect(!closedByServer(stream))
        }
    }

    @Test("the caps count IPv4 clients of a dual-stack socket as IPv4, and IPv6 clients by their /64")
    func addressKeys() throws {
        let mapped = try SocketAddress(ipAddress: "::ffff:192.0.2.7", port: 1)
        let plain = try SocketAddress(ipAddress: "192.0.2.7", port: 2)
        #expect(ConnectionRegistry.key(of: mapped) == ConnectionRegistry.key(of: plain))
        let one = try SocketAddress(ipAddress: "2001:db8:1:2::1", port: 1)
        let other = try SocketAddress(ipAddress: "2001:db8:1:2:aaaa::9", port: 1)
        let elsewhere = try SocketAddress(ipAddress: "2001:db8:1:3::1", port: 1)
        #expect(ConnectionRegistry.key(of: one) == ConnectionRegistry.key(of: other))
        #expect(ConnectionRegistry.key(of: one) != ConnectionRegistry.key(of: elsewhere))
    }
}
