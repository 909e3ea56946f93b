import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A client that sends an upload's headers and part of its body, then stops sending and keeps
/// the connection open.
final class StalledUpload {
    let socket: RawSocket

    init(port: Int, path: String, total: Int, sent: Int, resumable: Bool) throws {
        guard let socket = RawSocket(port: port) else { throw TestSupportError("cannot connect to \(port)") }
        self.socket = socket
        var head = "PUT /api/file?path=\(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(total)\r\n"
        if resumable { head += "Content-Range: bytes 0-\(total - 1)/\(total)\r\n" }
        head += "\r\n"
        guard socket.send(Array(head.utf8) + [UInt8](repeating: 0x61, count: sent)) else {
            throw TestSupportError("the upload could not be sent")
        }
    }

    deinit { socket.close() }
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass; returns whether it held.
func eventually(within seconds: Double, _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try condition()
}

/// Waits (up to `seconds`) for the process to end; returns how long after `since` it did.
func exitTime(
    of browsey: RunningBrowsey, since: ContinuousClock.Instant, within seconds: Double
) async throws -> Duration? {
    let ended = try await eventually(within: seconds) { !browsey.process.isRunning }
    return ended ? ContinuousClock.now - since : nil
}

@Suite(
    "Stopping the server", .serialized,
    .enabled(if: TimingSensitive.runsHere, "timing tests run apart: Scripts/test, BROWSEY_TIMING_TESTS=1"))
struct ShutdownTests {
    static let sent = 256 * 1024

    @Test(
        "SIGTERM with stalled uploads exits within the shutdown timeout + 1 s; the plain upload leaves nothing, the resumable one its part"
    )
    func stalledUploads() async throws {
        let folder = try TemporaryFolder()
        let browsey = try RunningBrowsey([
            "serve", folder.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-bonjour", "--no-index",
            "--no-readonly", "--shutdown-timeout", "2",
        ])
        let port = try await browsey.port()
        let plain = try StalledUpload(
            port: port, path: "%2Fplain.bin", total: 50_000_000, sent: Self.sent, resumable: false)
        let resumable = try StalledUpload(
            port: port, path: "%2Fresumable.bin", total: 50_000_000, sent: Self.sent, resumable: true)
        func hidden(_ prefix: String) throws -> [String] {
            try folder.names().filter { $0.hasPrefix(prefix) }
        }
        func size(_ name: String) -> Int { (try? folder.contents(name).count) ?? 0 }
        // Both have written what they received.
        let written = try await eventually(within: 10) {
            let temporary = try hidden(".plain.bin.browsey-")
            let part = try hidden(".browsey-upload-")
            return temporary.count == 1 && part.count == 1 && size(temporary[0]) == Self.sent
                && size(part[0]) == Self.sent
        }
        #expect(written, "the uploads reached the disk: \((try? folder.names()) ?? [])")

        let signalled = ContinuousClock.now
        kill(browsey.process.processIdentifier, SIGTERM)
        let exited = try await exitTime(of: browsey, since: signalled, within: 10)
        print("exited \(exited.map { "\($0)" } ?? "never") after SIGTERM (--shutdown-timeout 2)")
        let time = try #require(exited, "the server still runs 10 s after SIGTERM")
        #expect(time < .seconds(3), "within the shutdown timeout + 1 s")
        #expect(time > .seconds(1.5), "requests in progress were given the shutdown timeout")
        #expect(browsey.process.terminationStatus == 0)
        #expect(try hidden(".plain.bin.browsey-").isEmpty, "the plain upload's temporary file is removed")
        #expect(!folder.exists("plain.bin") && !folder.exists("resumable.bin"), "nothing under a real name")
        let parts = try hidden(".browsey-upload-")
        #expect(
            parts.count == 1 && size(parts.first ?? "") == Self.sent,
            "the resumable upload keeps its part to continue")
        _ = (plain, resumable)
    }

    @Test("a second SIGTERM stops the server at once, and the cut upload still leaves nothing")
    func secondSignal() async throws {
        let folder = try TemporaryFolder()
        let browsey = try RunningBrowsey([
            "serve", folder.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-bonjour", "--no-index",
            "--no-readonly", "--shutdown-timeout", "60",
        ])
        let port = try await browsey.port()
        let upload = try StalledUpload(
            port: port, path: "%2Fplain.bin", total: 50_000_000, sent: Self.sent, resumable: false)
        let started = try await eventually(within: 10) {
            try folder.names().contains { $0.hasPrefix(".plain.bin.browsey-") }
        }
        #expect(started)
        kill(browsey.process.processIdentifier, SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        #expect(browsey.process.isRunning, "the first signal waits for the upload")
        let second = ContinuousClock.now
        kill(browsey.process.processIdentifier, SIGTERM)
        let exited = try await exitTime(of: browsey, since: second, within: 10)
        print("exited \(exited.map { "\($0)" } ?? "never") after the second SIGTERM")
        let time = try #require(exited, "the server still runs 10 s after a second SIGTERM")
        #expect(time < .seconds(1))
        #expect(try folder.names().filter { $0.hasPrefix(".plain.bin.browsey-") }.isEmpty)
        _ = upload
    }
}
