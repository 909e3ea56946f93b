import FileTree
import Foundation
import TestSupport
import Testing

/// A child process (DocumentSaveProbe) saves one document over and over through DocumentStore
/// and is killed (SIGKILL) at a random moment; what is on disk must then be one whole version,
/// never a mix or a torn file, and never older than the last save it reported.
@Suite("Saves that survive a crash")
struct DocumentStoreCrashTests {
    static let probe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("DocumentSaveProbe").path

    @Test(
        "a process killed in the middle of saving leaves the last version or the new one, whole",
        arguments: ["file", "package"])
    func killedMidSave(kind: String) async throws {
        // In RAM: what is tested is that a killed process leaves one whole version (the rename),
        // and a loop of fsyncs on the disk would stall the other suites running alongside.
        let folder = try TemporaryFolder(prefix: "browsey-crash", inMemory: true)
        let name = kind == "file" ? "Crash #1 ü.doc" : "Crash #1 ü.pkg"
        let path = folder.path(name)
        var onDisk = 0
        for _ in 0..<6 {
            let probe = try ExternalCommand(Self.probe, [kind, path])
            _ = await probe.waitFor("saved \(onDisk + 2)\n")
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...20)))
            await probe.stop()
            let output = probe.output
            let reported = output.split(separator: "\n").compactMap { line in
                line.hasPrefix("saved ") ? Int(line.dropFirst(6)) : nil
            }.max()
            let lastReported = try #require(reported, "the probe saved nothing: \(output)")
            let version = try #require(
                try Self.wholeVersion(at: path, kind: kind), "torn document after a kill")
            #expect(version >= lastReported)
            #expect(version <= lastReported + 1)
            #expect(try folder.names().filter { !$0.hasPrefix(".") } == [name])
            onDisk = version
        }
        #expect(onDisk >= 12)
    }

    /// The version the document holds, or `nil` (with the reason recorded) when it is not one
    /// whole version.
    static func wholeVersion(at path: String, kind: String) throws -> Int? {
        let parts: [String]
        if kind == "file" {
            parts = [path]
        } else {
            let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            guard names == ["part-0", "part-1", "part-2", "part-3"] else {
                Issue.record("the package holds \(names)")
                return nil
            }
            parts = names.map { path + "/" + $0 }
        }
        var versions: Set<Int> = []
        for part in parts {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: part)))
            guard let newline = bytes.firstIndex(of: 10),
                let version = Int(String(decoding: bytes[..<newline].dropFirst(8), as: UTF8.self))
            else {
                Issue.record("\(part) has no header")
                return nil
            }
            let body = bytes[(newline + 1)...]
            guard body.count == 256 << 10, body.allSatisfy({ $0 == UInt8(version % 256) }) else {
                Issue.record("\(part) is torn: \(body.count) bytes")
                return nil
            }
            versions.insert(version)
        }
        guard versions.count == 1, let version = versions.first else {
            Issue.record("the package mixes versions \(versions.sorted())")
            return nil
        }
        return version
    }
}
