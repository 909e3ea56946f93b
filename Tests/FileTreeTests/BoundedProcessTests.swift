import FileTree
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("A program run bounded in time and in what it writes")
struct BoundedProcessTests {
    static let shell = BoundedProcess.find("sh") ?? "/bin/sh"

    static func run(
        _ script: String, input: BoundedProcess.Input = .nothing, environment: [String]? = nil,
        timeout: Duration = .seconds(10), limit: Int = 1 << 20
    ) -> BoundedProcess.Output {
        BoundedProcess.run(
            shell, arguments: ["sh", "-c", script], environment: environment, input: input, timeout: timeout,
            outputLimit: limit)
    }

    @Test("its standard output and exit status come back; a signal reads as 128 and the signal")
    func output() {
        let said = Self.run("echo hello; exit 3")
        #expect(String(decoding: said.bytes, as: UTF8.self) == "hello\n")
        #expect(said.ending == .exited(3))
        #expect(Self.run("kill -9 $$").ending == .exited(128 + 9))
        #expect(Self.run("echo quiet >&2").bytes.isEmpty, "standard error is discarded")
    }

    @Test(
        "a confined program reads and writes beneath its folders and nothing elsewhere, through no link",
        .enabled(if: Confinement.kernelVersion > 0, "the kernel confines programs (Landlock)"))
    func confinement() throws {
        let base =
            FileManager.default.temporaryDirectory.path
            + "/browsey-confined-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/inside", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
        try "inside\n".write(toFile: base + "/inside/a.txt", atomically: true, encoding: .utf8)
        try "outside\n".write(toFile: base + "/outside/b.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: base + "/inside/link.txt", withDestinationPath: base + "/outside/b.txt")
        let confined = Confinement.system(writable: [base + "/inside"])
        func run(_ script: String) -> BoundedProcess.Output {
            BoundedProcess.run(
                Self.shell, arguments: ["sh", "-c", script], timeout: .seconds(10), outputLimit: 1 << 20,
                confinement: confined)
        }
        let inside = run("cat '\(base)/inside/a.txt' && echo made > '\(base)/inside/new.txt'")
        #expect(String(decoding: inside.bytes, as: UTF8.self) == "inside\n" && inside.ending == .exited(0))
        #expect(FileManager.default.contents(atPath: base + "/inside/new.txt") == Data("made\n".utf8))
        for script in [
            "cat '\(base)/outside/b.txt'", "cat '\(base)/inside/link.txt'", "ls '\(base)/outside'",
            "echo x > '\(base)/outside/c.txt'", "cat /proc/self/status",
        ] {
            let refused = run(script)
            #expect(refused.bytes.isEmpty && refused.ending != .exited(0), "\(script)")
        }
        #expect(!FileManager.default.fileExists(atPath: base + "/outside/c.txt"))
        let missing = BoundedProcess.run(
            base + "/inside/no-such-program", arguments: ["x"], timeout: .seconds(5), outputLimit: 1,
            confinement: confined)
        #expect(missing.ending == .notStarted, "a program that cannot start is not started, confined or not")
        let unconfined = Self.run("cat '\(base)/inside/link.txt'")
        #expect(
            String(decoding: unconfined.bytes, as: UTF8.self) == "outside\n", "without, the link is followed")
    }

    @Test(
        "a confined program makes no socket (TCP, UDP, MPTCP, Unix) and signals no process outside, the server's own among them",
        .enabled(
            if: Confinement.kernelVersion >= 6, "the kernel confines the network and signals (Landlock ABI 6)"
        ))
    func networkAndSignals() throws {
        // The system's Python: one in a home (pyenv's shim, a virtual environment) is out of reach.
        let python = "/usr/bin/python3"
        try #require(FileManager.default.isExecutableFile(atPath: python))
        // A port that takes connections, in this process.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 8) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        try #require(listening)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let script = """
            import os, socket, sys
            try:
                socket.create_connection(("127.0.0.1", int(sys.argv[1])), 5).close()
                print("connected")
            except OSError as error:
                print("no connection", error.errno)
            try:
                os.kill(int(sys.argv[2]), 0)
                print("signalled")
            except OSError as error:
                print("no signal", error.errno)
            # UDP and MPTCP (protocol 262), which Landlock's rule for TCP does not cover, and a
            # Unix socket, which could reach a daemon's socket by its path.
            kinds = [("udp", socket.AF_INET, socket.SOCK_DGRAM, 0),
                     ("mptcp", socket.AF_INET, socket.SOCK_STREAM, 262),
                     ("unix", socket.AF_UNIX, socket.SOCK_STREAM, 0)]
            for name, family, kind, protocol in kinds:
                try:
                    socket.socket(family, kind, protocol).close()
                    print(name)
                except OSError as error:
                    print("no", name, error.errno)
            try:
                client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                client.connect(sys.argv[3])
                print("reached")
            except OSError as error:
                print("not reached", error.errno)
            # A connected pair reaches nothing outside, and stays allowed.
            for end in socket.socketpair():
                end.close()
            print("pair")
            """
        // A Unix socket listening at a path, as a system daemon's does.
        let folder = try TemporaryFolder(prefix: "confined-socket")
        let daemon = folder.path("daemon.sock")
        let unixListener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(unixListener >= 0)
        defer { close(unixListener) }
        var unixAddress = sockaddr_un()
        unixAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &unixAddress.sun_path) { path in
            for (index, byte) in daemon.utf8.prefix(path.count - 1).enumerated() { path[index] = byte }
        }
        let unixListening = withUnsafePointer(to: &unixAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(unixListener, address, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
                    && listen(unixListener, 8) == 0
            }
        }
        try #require(unixListening)
        func run(_ confinement: Confinement?) -> String {
            let output = BoundedProcess.run(
                python, arguments: ["python3", "-c", script, String(port), String(getpid()), daemon],
                timeout: .seconds(20), outputLimit: 1 << 16, confinement: confinement)
            return String(decoding: output.bytes, as: UTF8.self)
        }
        let confined = run(Confinement.system())
        #expect(
            confined
                == "no connection \(EACCES)\nno signal \(EPERM)\nno udp \(EACCES)\nno mptcp \(EACCES)\n"
                + "no unix \(EACCES)\nnot reached \(EACCES)\npair\n",
            "\(confined)")
        let free = run(nil)
        #expect(
            free.hasPrefix("connected\nsignalled\nudp\n") && free.hasSuffix("unix\nreached\npair\n"),
            "without confinement each works (MPTCP where the kernel has it): \(free)")
    }

    @Test("one that outlives its time is killed, and the caller waits no longer than that")
    func timeLimit() {
        let started = ContinuousClock.now
        let output = Self.run("sleep 30", timeout: .milliseconds(300))
        #expect(output.ending == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("one that writes past the cap is killed, and the first part is kept up to the cap")
    func outputLimit() {
        let output = Self.run("yes", limit: 100_000)
        #expect(output.ending == .tooLarge)
        #expect(output.bytes.count == 100_000)
        #expect(output.bytes.prefix(4) == [0x79, 0x0A, 0x79, 0x0A])
    }

    @Test("it reads the given descriptor or nothing, and gets only the environment it is given")
    func inputAndEnvironment() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bounded-\(UUID().uuidString)")
        try Data("from the file\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let descriptor = open(file.path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(
            String(decoding: Self.run("cat", input: .descriptor(descriptor)).bytes, as: UTF8.self)
                == "from the file\n")
        #expect(Self.run("cat").bytes.isEmpty)
        let environment = Self.run("echo \"[$ONLY][$HOME]\"", environment: ["ONLY=this"])
        #expect(String(decoding: environment.bytes, as: UTF8.self) == "[this][]\n")
    }

    @Test("a program that is not there does not start, and one not in PATH is not found")
    func missing() {
        #expect(
            BoundedProcess.run(
                "/nonexistent/tool", arguments: ["tool"], timeout: .seconds(1), outputLimit: 10
            ).ending
                == .notStarted)
        #expect(BoundedProcess.find("no-such-tool-anywhere") == nil)
        #expect(BoundedProcess.find("sh", path: "/nonexistent:/bin") == "/bin/sh")
    }
}
