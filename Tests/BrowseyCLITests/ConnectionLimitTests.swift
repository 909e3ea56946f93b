import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension RunningBrowsey {
    /// Waits for the banner and returns the port it prints.
    func port() async throws -> Int {
        let banner = try await waitFor("Mode:")
        guard
            let text = banner.split(separator: "\n").first(where: { $0.contains("Local:") })?
                .split(separator: ":").last?.filter(\.isNumber), let port = Int(text)
        else { throw TestSupportError("no port in the banner: \(banner)") }
        return port
    }

    /// The CPU time (user + system) the process has used so far, from `/proc/PID/stat`.
    func cpuTime() throws -> Duration {
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        // Fields after the command name (which may hold spaces): state is the first, utime the 12th.
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        let ticks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        return .milliseconds(ticks * 1000 / sysconf(Int32(_SC_CLK_TCK)))
    }

    /// How many descriptors the process holds.
    func openDescriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd").count
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

/// One `GET /api/health` on a new connection: the status and how long the answer took.
func timedHealth(port: Int) -> (status: Int?, time: Duration) {
    let clock = ContinuousClock()
    var status: Int?
    let time = clock.measure { status = RawSocket.request(port: port, method: "GET", target: "/api/health") }
    return (status, time)
}

@Suite(
    "Connections cannot be held", .serialized,
    .enabled(if: TimingSensitive.runsHere, "timing tests run apart: Scripts/test, BROWSEY_TIMING_TESTS=1"))
struct ConnectionLimitTests {
    static let halfRequestLine = Array("GET /api/hea".utf8)

    @Test(
        "1,000 half-open connections at a descriptor limit of 1,024: health answers within 100 ms, the header timeout closes them"
    )
    func thousandHalfOpen() async throws {
        let folder = try TemporaryFolder()
        // Soft and hard limit 1,024, so the server's raise to the hard limit cannot help it.
        let browsey = try RunningBrowsey(
            [
                "serve", folder.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
                "--header-timeout", "6",
            ], launcher: ["/usr/bin/prlimit", "--nofile=1024:1024", "--"])
        let port = try await browsey.port()
        // Eight addresses, 125 each: under the per-address cap, so only the descriptor budget and
        // the header timeout stand between these clients and the server's 1,024 descriptors.
        let opened = ContinuousClock.now
        let held = try HeldConnections(
            count: 1000, port: port, sources: (2...9).map { "127.0.0.\($0)" }, sending: Self.halfRequestLine)
        let openedIn = ContinuousClock.now - opened
        try await Task.sleep(for: .milliseconds(200))
        var times: [Duration] = []
        for _ in 0..<7 {
            let (status, time) = timedHealth(port: port)
            #expect(status == 200)
            times.append(time)
        }
        let stillOpen = 1000 - held.closedByServer()
        let descriptors = try browsey.openDescriptors()
        times.sort()
        print(
            "1,000 connections opened in \(openedIn); health: \(times); \(stillOpen) held; server descriptors \(descriptors)"
        )
        #expect(times[3] < .milliseconds(100), "the median health answer: \(times)")
        #expect(times.last! < .seconds(1), "every health answer, not hung: \(times)")
        #expect(stillOpen >= 800, "the connections are held (only the idlest make room), not refused")

        // The header timeout (6 s; long enough that opening 1,000 on a loaded machine stays
        // inside it) closes every one of them; 10 s after the last opened means it did not.
        let deadline = opened + openedIn + .seconds(10)
        while held.closedByServer() < 1000 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let closedAfter = ContinuousClock.now - opened
        #expect(held.closedByServer() == 1000, "closed by the header timeout")
        #expect(closedAfter >= .seconds(5.5), "closed by the timeout, not at once: \(closedAfter)")
        print("all 1,000 closed \(closedAfter) after the first opened")
        #expect(timedHealth(port: port).status == 200)
        #expect(try await browsey.stop() == 0)
    }

    @Test(
        "a connection past the per-address cap is closed at once, while other addresses still get in; the soft descriptor limit is raised to the hard one"
    )
    func perAddressCap() async throws {
        let folder = try TemporaryFolder()
        // Started at a soft limit of 512 under a hard one of 4,096.
        let browsey = try RunningBrowsey(
            [
                "serve", folder.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
                "--max-connections-per-address", "20",
            ], launcher: ["/usr/bin/prlimit", "--nofile=512:4096", "--"])
        let port = try await browsey.port()
        let limits = try String(
            contentsOfFile: "/proc/\(browsey.process.processIdentifier)/limits", encoding: .utf8)
        let openFiles = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }?.split(
            separator: " ")
        #expect(openFiles?.dropFirst(3).prefix(2).map(String.init) == ["4096", "4096"], "\(openFiles ?? [])")
        let held = try HeldConnections(
            count: 25, port: port, sources: ["127.0.0.5"], sending: Self.halfRequestLine)
        let deadline = ContinuousClock.now + .seconds(5)
        while held.closedByServer() < 5 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(held.closedByServer() == 5, "the five past the cap of 20")
        #expect(timedHealth(port: port).status == 200, "another address still gets in")
        held.close()
        #expect(try await browsey.stop() == 0)
    }

    @Test(
        "at the descriptor limit the accept loop backs off instead of spinning, and accepts again once descriptors are free"
    )
    func acceptBacksOff() async throws {
        let folder = try TemporaryFolder()
        let browsey = try RunningBrowsey([
            "serve", folder.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
            "--header-timeout", "60",
        ])
        let port = try await browsey.port()
        #expect(timedHealth(port: port).status == 200)
        // Lower the running server's limit to just above what it holds: its connection budget
        // was set at start, so accepting runs into EMFILE, which no budget prevents when files
        // being served take the descriptors.
        let holding = try browsey.openDescriptors()
        let pid = browsey.process.processIdentifier
        let previous = try #require(
            try HTTPSCommandTests.run([
                "prlimit", "--pid", "\(pid)", "--nofile", "--raw", "--noheadings", "--output", "SOFT",
            ]).output
                .trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty)
        // Only the soft limit: raising a hard limit back needs privileges.
        #expect(
            try HTTPSCommandTests.run(["prlimit", "--pid", "\(pid)", "--nofile=\(holding + 2):"]).status == 0)
        let held = try HeldConnections(
            count: 30, port: port, sources: ["127.0.0.6"], sending: Self.halfRequestLine)
        try await Task.sleep(for: .milliseconds(300))
        let before = try browsey.cpuTime()
        try await Task.sleep(for: .seconds(2))
        let used = try browsey.cpuTime() - before
        print(
            "CPU used in 2 s at EMFILE: \(used); descriptors \(try browsey.openDescriptors()) of \(holding + 2)"
        )
        #expect(used < .milliseconds(400), "a spinning accept loop would use most of the 2 s")

        held.close()
        #expect(
            try HTTPSCommandTests.run(["prlimit", "--pid", "\(pid)", "--nofile=\(previous):"]).status == 0)
        var status: Int?
        let deadline = ContinuousClock.now + .seconds(10)
        while status != 200 && ContinuousClock.now < deadline {
            status = timedHealth(port: port).status
            if status != 200 { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(status == 200, "accepting again")
        #expect(try await browsey.stop() == 0)
    }
}
