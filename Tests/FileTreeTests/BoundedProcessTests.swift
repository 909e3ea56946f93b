import FileTree
import Foundation
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
