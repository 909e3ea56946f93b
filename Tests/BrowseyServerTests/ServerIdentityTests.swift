import Foundation
import TestSupport
import Testing

@testable import BrowseyServer

@Suite("A server's identity")
struct ServerIdentityTests {
    @Test("survives restarts, and twenty servers starting at once agree on one, in one file")
    func concurrentStartsAgree() async throws {
        let fixture = try TemporaryFolder(prefix: "browsey-identity")
        let root = fixture.path("served")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let folder = fixture.path("identities")
        // Threads, not tasks: each publishes as a separate process would, truly at once.
        let ids = Locked<[String]>([])
        let threads = (0..<20).map { _ in
            Thread {
                let id = try? ServerIdentity.id(root: root, port: 4200, folder: folder)
                ids.withLock { $0.append(id ?? "failed") }
            }
        }
        threads.forEach { $0.start() }
        while ids.withLock({ $0.count }) < 20 { try await Task.sleep(for: .milliseconds(5)) }
        let all = ids.withLock { $0 }
        #expect(Set(all).count == 1)
        #expect(ServerIdentity.isUUID(all[0]))
        #expect(try ServerIdentity.id(root: root, port: 4200, folder: folder) == all[0])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 1)
    }

    @Test("is the same through a link to the folder, and another for another port, folder or data folder")
    func canonicalRootPortsRootsAndInstallations() throws {
        let fixture = try TemporaryFolder(prefix: "browsey-identity")
        let root = fixture.path("served")
        try FileManager.default.createDirectory(atPath: root + "/inner", withIntermediateDirectories: true)
        let folder = fixture.path("identities")
        let id = try ServerIdentity.id(root: root, port: 4200, folder: folder)
        let alias = fixture.path("alias")
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: root)
        #expect(try ServerIdentity.id(root: alias, port: 4200, folder: folder) == id)
        #expect(try ServerIdentity.id(root: root, port: 4201, folder: folder) != id)
        #expect(try ServerIdentity.id(root: root + "/inner", port: 4200, folder: folder) != id)
        #expect(try ServerIdentity.id(root: root, port: 4200, folder: fixture.path("other-install")) != id)
    }

    @Test("held in a damaged file is an error naming the file, which stays as it was")
    func damagedIdentityIsNotReplaced() throws {
        let fixture = try TemporaryFolder(prefix: "browsey-identity")
        let root = fixture.path("served")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let folder = fixture.path("identities")
        _ = try ServerIdentity.id(root: root, port: 4200, folder: folder)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
        let path = folder + "/" + name
        try Data("broken".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ServerSetupError.self) {
            try ServerIdentity.id(root: root, port: 4200, folder: folder)
        }
        #expect(error?.code == .identity)
        #expect(error?.message.contains(path) == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "broken")
    }

    @Test("on port 0 (any free port) is new at each start: no two servers share it")
    func anyPortIsNewEachTime() throws {
        let fixture = try TemporaryFolder(prefix: "browsey-identity")
        let a = try ServerIdentity.id(root: fixture.path(""), port: 0, folder: fixture.path("ids"))
        let b = try ServerIdentity.id(root: fixture.path(""), port: 0, folder: fixture.path("ids"))
        #expect(a != b)
    }
}

/// A value shared between threads.
private final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
