import Foundation
import QRCode
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the real `browsey` executable, built next to the test bundle.
final class RunningBrowsey: Sendable {
    let process: SpawnedProcess

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "browsey")
    }

    /// Starts `browsey` with `arguments`; with a `launcher` (`["/usr/bin/prlimit", "--nofile=1024"]`),
    /// through it.
    init(_ arguments: [String], launcher: [String] = []) throws {
        if let first = launcher.first {
            process = try SpawnedProcess(first, launcher.dropFirst() + [Self.executable.path] + arguments)
        } else {
            process = try SpawnedProcess(Self.executable.path, arguments)
        }
    }

    var printed: String { process.output }

    /// Waits until the output contains `marker` (or the process ends, or 20 s pass).
    func waitFor(_ marker: String) async throws -> String {
        for _ in 0..<400 {
            if printed.contains(marker) || !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return printed
    }

    /// Sends a signal and waits (up to 10 s) for the exit status.
    func stop(_ signal: Int32 = SIGTERM) async throws -> Int32? {
        process.signal(signal)
        return await process.wait(timeout: .seconds(10))
    }

    deinit { process.terminate() }
}

/// Reads a code drawn with half blocks back into modules.
func modules(fromTerminal lines: [String]) -> [[Bool]] {
    var rows: [[Bool]] = []
    for line in lines {
        let plain = line.replacingOccurrences(of: "\u{1B}[30;47m", with: "").replacingOccurrences(
            of: "\u{1B}[0m", with: "")
        var top: [Bool] = []
        var bottom: [Bool] = []
        for character in plain {
            top.append(character == "█" || character == "▀")
            bottom.append(character == "█" || character == "▄")
        }
        rows.append(top)
        rows.append(bottom)
    }
    return rows
}

@Suite("browsey serve, the real executable", .serialized)
struct ServeCommandTests {
    @Test("the banner's QR code decodes to the Network URL it prints")
    func bannerQRCode() async throws {
        let folder = try TemporaryFolder()
        try folder.file("hello.txt", "hi")
        let browsey = try RunningBrowsey(["serve", folder.path, "--port", "0"])
        let output = try await browsey.waitFor("Scan to open")
        #expect(try await browsey.stop() == 0, "SIGTERM shuts the server down cleanly")
        let lines = output.components(separatedBy: "\n")
        let network = try #require(
            lines.first { $0.contains("Network:") }?.split(separator: " ").last.map(String.init))
        #expect(network.hasPrefix("http://") && network.hasSuffix("/"))
        let drawing = lines.filter { $0.hasPrefix("\u{1B}[30;47m") }
        #expect(drawing.count > 10)
        let png = QRSymbol.pngData(modules: modules(fromTerminal: drawing), scale: 4)
        let image = try folder.file("banner.png", png)
        let decoded = try SpawnedProcess.run(
            "/usr/bin/zbarimg", ["--raw", "-q", image], output: .standardOutput
        ).output
        #expect(decoded.trimmingCharacters(in: .newlines) == network)
    }

    @Test("served on 127.0.0.1 only, the banner offers no network address: no QR code, WebDAV at localhost")
    func loopbackBanner() async throws {
        let folder = try TemporaryFolder()
        let browsey = try RunningBrowsey(["serve", folder.path, "--port", "0", "--host", "127.0.0.1"])
        _ = try await browsey.waitFor("Bonjour:")
        #expect(try await browsey.stop() == 0)
        // All it printed, to its exit: a QR code would come after the Bonjour line.
        let output = try await browsey.waitFor("\u{0}")
        #expect(
            output.contains("Local:") && !output.contains("Network:") && !output.contains("Scan to open"),
            "\(output)")
        let dav = try #require(output.components(separatedBy: "\n").first { $0.contains("WebDAV:") })
        #expect(dav.contains("http://localhost:"), "\(dav)")
    }

    @Test("a busy port is reported and a free one taken; --no-qr leaves the code out")
    func busyPort() async throws {
        let folder = try TemporaryFolder()
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, length) }
        }
        listen(holder, 1)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) }
        }
        let busy = Int(UInt16(bigEndian: address.sin_port))
        let browsey = try RunningBrowsey([
            "serve", folder.path, "-p", String(busy), "--host", "127.0.0.1", "--no-qr",
        ])
        let output = try await browsey.waitFor("Mode:")
        #expect(try await browsey.stop(SIGINT) == 0)
        #expect(output.contains("Port \(busy) is busy"))
        let local = try #require(output.components(separatedBy: "\n").first { $0.contains("Local:") })
        #expect(!local.contains(":\(busy)/"))
        #expect(!output.contains("\u{1B}[30;47m"))
    }

    @Test("the running server maps no full Foundation and no ICU (they cost 8 MiB of idle memory)")
    func noFullFoundation() async throws {
        let folder = try TemporaryFolder()
        let browsey = try RunningBrowsey(["serve", folder.path, "-p", "0", "--host", "127.0.0.1", "--no-qr"])
        _ = try await browsey.waitFor("Mode:")
        // /proc files say they are empty; read until the end, or a long map comes back cut short.
        let handle = try #require(
            FileHandle(forReadingAtPath: "/proc/\(browsey.process.processIdentifier)/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        try handle.close()
        #expect(maps.contains("/browsey"))
        #expect(try await browsey.stop() == 0)
        #expect(maps.contains("libFoundationEssentials"))
        #expect(!maps.contains("libFoundation.so"))
        #expect(!maps.contains("ICU"))
    }

    @Test("a folder that does not exist is a one-line error and exit status 1")
    func missingFolder() async throws {
        let folder = try TemporaryFolder()
        let browsey = try RunningBrowsey([folder.path("missing")])
        let status = try await browsey.stop(0)
        let output = browsey.printed
        #expect(status == 1)
        #expect(output.contains("Error: Cannot serve"))
        #expect(output.contains("No such file or directory"))
    }
}

@Suite("browsey serve --auth")
struct AuthCommandTests {
    @Test("--auth prints URLs with a new token; --token uses the one given; a short token is refused")
    func token() async throws {
        let folder = try TemporaryFolder()
        let browsey = try RunningBrowsey([
            "serve", folder.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--auth",
        ])
        let output = try await browsey.waitFor("Token:")
        #expect(try await browsey.stop() == 0)
        let local = try #require(output.split(separator: "\n").first { $0.contains("Local:") })
        #expect(local.contains("/?token="))
        let token = String(local.split(separator: "=").last ?? "")
        #expect(token.count == 26 && output.contains("Token:    \(token)"))

        let given = try RunningBrowsey([
            "serve", folder.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--token",
            "my-own-token-12345",
        ])
        let second = try await given.waitFor("Token:")
        #expect(try await given.stop() == 0)
        #expect(second.contains("?token=my-own-token-12345"))

        let short = try RunningBrowsey(["serve", folder.path, "--token", "short"])
        #expect(try await short.stop(0) != 0)
        #expect(short.printed.contains("--token takes at least 16"))
    }
}

@Suite("browsey serve --https-cert")
struct HTTPSCommandTests {
    /// Runs a command and returns its exit status and standard output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try SpawnedProcess.run(arguments[0], Array(arguments.dropFirst()), output: .standardOutput)
    }

    @Test("HTTPS with a PEM certificate and key: the banner says https, curl gets answers over TLS")
    func https() async throws {
        let folder = try TemporaryFolder()
        try folder.file("served/hello.txt", "hello over TLS")
        let made = try Self.run([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
            "/CN=localhost",
            "-keyout", folder.path("key.pem"), "-out", folder.path("cert.pem"),
        ])
        #expect(made.status == 0)
        let browsey = try RunningBrowsey([
            "serve", folder.path("served"), "-p", "0", "--host", "127.0.0.1", "--no-qr",
            "--https-cert", folder.path("cert.pem"), "--https-key", folder.path("key.pem"),
        ])
        let banner = try await browsey.waitFor("Mode:")
        let local = try #require(banner.split(separator: "\n").first { $0.contains("Local:") })
        #expect(local.contains("https://localhost:"))
        let port = String(local.split(separator: ":").last?.filter(\.isNumber) ?? "")
        let secure = try Self.run(["curl", "-sk", "https://127.0.0.1:\(port)/api/file?path=%2Fhello.txt"])
        let plain = try Self.run([
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/api/health",
        ])
        #expect(try await browsey.stop() == 0)
        #expect(secure.output == "hello over TLS")
        #expect(plain.output != "200")
    }

    @Test("eight downloads at once, over HTTP or HTTPS, hold the server to a few megabytes of chunks")
    func downloadsHoldLittleMemory() async throws {
        let folder = try TemporaryFolder()
        // 128 MiB with no blocks on the disk: read from the page cache as fast as a cached file.
        let big = folder.path("served/big.bin")
        try FileManager.default.createDirectory(
            atPath: folder.path("served"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 128 << 20) == 0)
        let made = try Self.run([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
            "/CN=localhost",
            "-keyout", folder.path("key.pem"), "-out", folder.path("cert.pem"),
        ])
        #expect(made.status == 0)
        for secure in [false, true] {
            let browsey = try RunningBrowsey(
                ["serve", folder.path("served"), "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-index"]
                    + (secure
                        ? ["--https-cert", folder.path("cert.pem"), "--https-key", folder.path("key.pem")]
                        : []))
            let banner = try await browsey.waitFor("Mode:")
            let local = try #require(banner.split(separator: "\n").first { $0.contains("Local:") })
            let port = String(local.split(separator: ":").last?.filter(\.isNumber) ?? "")
            let url = "\(secure ? "https" : "http")://127.0.0.1:\(port)/api/file?path=%2Fbig.bin"
            let status = "/proc/\(browsey.process.processIdentifier)/status"
            let before = try #require(Self.kibibytes("VmRSS", in: status))
            // Each curl prints how many bytes it got; all eight at once.
            let got = try Self.run([
                "sh", "-c",
                "for i in 1 2 3 4 5 6 7 8; do curl -sk -o /dev/null -w '%{size_download}\\n' '\(url)' & done; wait",
            ])
            let peak = try #require(Self.kibibytes("VmHWM", in: status))
            #expect(try await browsey.stop() == 0)
            #expect(
                got.output.split(separator: "\n") == Array(repeating: "\(128 << 20)", count: 8),
                "secure: \(secure)")
            // Two 1 MiB chunks a download at most (under TLS, their encrypted copies too), and what
            // the allocator keeps of freed ones: 24 and 54 MiB measured. Before, a chunk was read
            // as soon as Hummingbird's writer took the last, and eight downloads over HTTPS held
            // 438 MiB at once.
            #expect(peak - before < 96 << 10, "secure: \(secure): \(before) KiB, then at most \(peak) KiB")
        }
    }

    /// A figure of `/proc/PID/status` (`VmRSS`, `VmHWM`), in KiB.
    static func kibibytes(_ name: String, in status: String) -> Int? {
        guard let handle = FileHandle(forReadingAtPath: status) else { return nil }
        defer { try? handle.close() }
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") }
        return line.flatMap { Int($0.filter(\.isNumber)) }
    }

    @Test("an unreadable certificate is one clear line and exit status 1; a lone --https-cert is refused")
    func badCertificate() async throws {
        let folder = try TemporaryFolder()
        try folder.file("not-a-cert.pem", "nonsense")
        let browsey = try RunningBrowsey([
            "serve", folder.path, "-p", "0", "--https-cert", folder.path("not-a-cert.pem"), "--https-key",
            folder.path("missing.pem"),
        ])
        #expect(try await browsey.stop(0) == 1)
        #expect(browsey.printed.contains("Error: Cannot read the certificate"))
        let lone = try RunningBrowsey(["serve", folder.path, "--https-cert", folder.path("not-a-cert.pem")])
        #expect(try await lone.stop(0) != 0)
        #expect(lone.printed.contains("--https-cert and --https-key go together"))
    }
}
