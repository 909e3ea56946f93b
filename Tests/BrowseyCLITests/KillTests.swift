import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The versions a killed server may leave: a save writes `size` copies of one digit, an upload
/// a known pattern, so any mix or cut is seen.
enum Versions {
    static let noteSize = 256 * 1024
    static let uploadSize = 1 << 20

    static func note(_ version: Int) -> [UInt8] {
        [UInt8](repeating: UInt8(ascii: "0") + UInt8(version % 10), count: noteSize)
    }

    /// Ten uploads, made once (building a megabyte byte by byte is slow in a debug build).
    static let uploads: [[UInt8]] = (0..<10).map { number in
        (0..<uploadSize).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ number &+ $0 >> 12) }
    }

    /// The JSON of a save of each version, whatever the file's bases (`If-Match: *`).
    static let saveBodies: [[UInt8]] = (0..<10).map { version in
        Array(#"{"path":"/note.txt","content":""#.utf8) + note(version) + Array(#""}"#.utf8)
    }
}

/// A count shared with the writing thread.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

@Suite("A killed server loses nothing", .serialized)
struct KillTests {
    @Test(
        "SIGKILL in the middle of saves and uploads, 100 times: every file is a whole version, none is lost")
    func killMidWrite() async throws {
        let folder = try TemporaryFolder()
        try folder.file("note.txt", Versions.note(0))
        _ = (Versions.uploads.count, Versions.saveBodies.count)  // built before the clock starts
        var failures: [String] = []
        var interrupted = 0
        var uploadsChecked = 0
        for trial in 0..<100 {
            let browsey = try RunningBrowsey([
                "serve", folder.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-readonly",
                "--no-trash",
            ])
            let banner = try await browsey.waitFor("Mode:")
            guard
                let portText = banner.split(separator: "\n").first(where: { $0.contains("Local:") })?
                    .split(separator: ":").last?.filter(\.isNumber), let port = Int(portText)
            else {
                Issue.record("no port in the banner: \(banner)")
                return
            }
            let done = Counter()
            let writer = Thread {
                var step = 0
                while true {
                    step += 1
                    let save = RawSocket.request(
                        port: port, method: "POST", target: "/api/save",
                        headers: ["Content-Type": "application/json", "If-Match": "*"],
                        body: Versions.saveBodies[step % 10])
                    let upload = RawSocket.request(
                        port: port, method: "PUT",
                        target: "/api/file?path=%2Fup-\(trial)-\(step % 10)-\(step).bin",
                        body: Versions.uploads[step % 10])
                    if save == nil || upload == nil { break }
                    done.value.add(1, ordering: .relaxed)
                }
            }
            writer.start()
            try await Task.sleep(for: .milliseconds(Int.random(in: 30...300)))
            kill(browsey.process.processIdentifier, SIGKILL)
            while !writer.isFinished { try await Task.sleep(for: .milliseconds(5)) }
            browsey.process.waitUntilExit()
            if done.value.load(ordering: .relaxed) > 0 { interrupted += 1 }

            let note = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("note.txt"))))
            if note.count != Versions.noteSize || Set(note).count != 1 {
                failures.append("trial \(trial): note.txt is \(note.count) bytes of \(Set(note).count) kinds")
            }
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
            where name.hasPrefix("up-") {
                let parts = name.dropFirst(3).dropLast(4).split(separator: "-").compactMap { Int($0) }
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path(name))))
                if parts.count != 3 || bytes != Versions.uploads[parts[1]] {
                    failures.append("trial \(trial): \(name) is partial (\(bytes.count) bytes)")
                }
                uploadsChecked += 1
                try FileManager.default.removeItem(atPath: folder.path(name))  // checked once
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(interrupted > 50, "the kills should land while writes are going on")
        #expect(uploadsChecked > 100)
    }
}
