import Foundation
import TestSupport
import Testing

/// The port in a banner's `Local:` line.
private func localPort(in banner: String) -> Int? {
    guard let range = banner.range(of: "http://localhost:") else { return nil }
    return Int(banner[range.upperBound...].prefix { $0.isNumber })
}

/// How avahi-browse prints a TXT value: bytes past ASCII as `\DDD`.
private func escapedTXT(_ text: String) -> String {
    text.utf8.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\" + String($0) }.joined()
}

/// avahi-browse's parsable lines for `_browsey._tcp`, resolved, once the cache is dumped.
private func avahiBrowse() async throws -> [String] {
    try await ExternalCommand.run("avahi-browse", ["-rpt", "_browsey._tcp"]).output
        .split(separator: "\n").map(String.init).filter { $0.hasPrefix("=") }
}

@Suite(
    "Bonjour from the command line: serve announces, discover finds",
    .serialized, .enabled(if: LocalResponder.testsRun, Comment(rawValue: LocalResponder.skipReason)))
struct DiscoveryCommandTests {
    @Test("a served folder is seen by avahi-browse with its TXT record, and by browsey discover")
    func servedFolderIsAnnounced() async throws {
        let root = try TemporaryFolder()
        let folderName = LocalResponder.uniqueName("Fotos #1 ü")
        let served = try root.folder(folderName)
        let server = try ExternalCommand(
            RunningBrowsey.executable.path, ["serve", served, "-p", "0", "--no-qr", "--no-index", "--auth"])
        defer { server.terminate() }
        let banner = await server.waitFor("Bonjour:")
        let port = try #require(localPort(in: banner), "banner: \(banner)")
        #expect(banner.contains("Bonjour:  announced as \"Browsey (\(folderName))\""), "\(banner)")
        var line: String?
        for _ in 0..<20 where line == nil {
            line = try await avahiBrowse().first { $0.contains(";\(port);") }
            if line == nil { try await Task.sleep(for: .milliseconds(250)) }
        }
        let announced = try #require(line, "avahi-browse never listed port \(port)")
        #expect(announced.contains("\"path=\(escapedTXT(served))\""), "\(announced)")
        #expect(announced.contains("\"readonly=1\""))
        #expect(announced.contains("\"protocol=http\""))
        #expect(announced.contains("\"auth=1\""))
        #expect(announced.contains("\"version="))
        #expect(announced.contains("\"host="))

        let discover = try await ExternalCommand.run(
            RunningBrowsey.executable.path, ["discover", "--timeout", "2", "--json"])
        #expect(discover.status == 0, "\(discover.output)")
        let found =
            try JSONSerialization.jsonObject(with: Data(discover.output.utf8)) as? [[String: Any]] ?? []
        let ours = try #require(
            found.first { $0["port"] as? Int == port }, "discover printed: \(discover.output)")
        #expect(ours["name"] as? String == "Browsey (\(folderName))")
        #expect(ours["url"] as? String == "http://127.0.0.1:\(port)/")
        #expect(ours["folder"] as? String == served)
        #expect(ours["readOnly"] as? Bool == true)
        #expect(ours["requiresToken"] as? Bool == true)

        let table = try await ExternalCommand.run(
            RunningBrowsey.executable.path, ["discover", "--timeout", "1.5"])
        let row = table.output.split(separator: "\n").first { $0.contains(":\(port)/") }
        #expect(row?.contains("read-only") == true && row?.contains("token") == true, "\(table.output)")

        await server.stop()
        var after = try await avahiBrowse()
        for _ in 0..<20 where after.contains(where: { $0.contains(";\(port);") }) {
            try await Task.sleep(for: .milliseconds(250))
            after = try await avahiBrowse()
        }
        #expect(!after.contains { $0.contains(";\(port);") }, "a stopped server is withdrawn")
    }

    @Test(
        "--no-bonjour, or a server only this machine can reach, announces nothing and says so",
        arguments: [
            (["--no-bonjour"], "Bonjour:  off (--no-bonjour)"),
            (["--host", "127.0.0.1"], "Bonjour:  off (listening on this machine only)"),
        ])
    func noBonjour(flags: [String], line: String) async throws {
        let folder = try TemporaryFolder()
        let server = try ExternalCommand(
            RunningBrowsey.executable.path,
            ["serve", folder.path, "-p", "0", "--no-qr", "--no-index"] + flags)
        defer { server.terminate() }
        let banner = await server.waitFor("Bonjour:")
        let port = try #require(localPort(in: banner))
        #expect(banner.contains(line), "\(banner)")
        try await Task.sleep(for: .seconds(1.5))
        #expect(try await !avahiBrowse().contains { $0.contains(";\(port);") })
    }

    @Test(
        "with the responder stopped, one clear banner line, and the server still serves; discover fails saying why"
    )
    func stoppedResponder() async throws {
        // A system bus of its own on which no Avahi runs: to the DNS-SD library, a machine whose
        // responder is stopped.
        let folder = try TemporaryFolder()
        let bus = "unix:path=\(folder.path)/bus"
        let daemon = try ExternalCommand(
            "dbus-daemon", ["--system", "--address=\(bus)", "--nofork", "--nopidfile", "--print-address"])
        defer { daemon.terminate() }
        _ = await daemon.waitFor("unix:", timeout: .seconds(5))
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": bus]
        let server = try ExternalCommand(
            RunningBrowsey.executable.path, ["serve", folder.path, "-p", "0", "--no-qr", "--no-index"],
            environment: environment)
        defer { server.terminate() }
        let banner = await server.waitFor("Bonjour:")
        #expect(
            banner.contains(
                "Bonjour:  not available — no mDNS responder is running (on Linux, start avahi-daemon"),
            "\(banner)")
        let port = try #require(localPort(in: banner))
        let health = try await ExternalCommand.run("curl", ["-sf", "http://127.0.0.1:\(port)/api/health"])
        #expect(
            health.status == 0 && health.output.contains("\"ok\":true"),
            "the server goes on: \(health.output)")

        let discover = try await ExternalCommand.run(
            RunningBrowsey.executable.path, ["discover", "--timeout", "1"], environment: environment)
        #expect(discover.status == 1)
        #expect(discover.output.contains("Error: Bonjour is not available: no mDNS responder is running"))
    }

    @Test("discover refuses a timeout that makes no sense")
    func badTimeout() async throws {
        let result = try await ExternalCommand.run(
            RunningBrowsey.executable.path, ["discover", "--timeout", "0"])
        #expect(result.status != 0 && result.output.contains("--timeout"))
    }
}
