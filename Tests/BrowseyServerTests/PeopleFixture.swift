import BrowseyAPI
import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

/// A served tree with accounts: alice (administrator), bob and carol, and the folder rules of
/// ``AccessPolicyTests/accounts``; passwords are the user names reversed, hashed cheaply.
struct PeopleFixture {
    let folder: TemporaryFolder
    let data: TemporaryFolder

    // swift-format-ignore: NeverUseForceTry
    // Fixed, valid inputs: a failure here is a broken test, not a case to handle.
    static let hashes = (
        alice: try! PasswordHash.make(password: "ecila", logN: 10).description,
        bob: try! PasswordHash.make(password: "bob-secret", logN: 10).description,
        carol: try! PasswordHash.make(password: "lorac", logN: 10).description
    )

    static let passwords = ["alice": "ecila", "bob": "bob-secret", "carol": "lorac"]

    static func make() throws -> PeopleFixture {
        let folder = try TemporaryFolder()
        try folder.file("top.txt", "top")
        try folder.file("Public/readme.txt", "public")
        try folder.file("Public/pic.png", ServerFixture.pngHeader(width: 4, height: 4))
        try folder.file("Team/plan.txt", "plan")
        try folder.file("Team/Private/salary.txt", "salary")
        try folder.file("Drop/old.txt", "dropped")
        try folder.file("foo/ok.txt", "ok")
        try folder.file("foobar/secret.txt", "foobar secret")
        // A link inside the root from the public folder into the private one.
        try folder.symlink("Public/private-link", to: folder.path("Team/Private"))
        return PeopleFixture(folder: folder, data: try TemporaryFolder(prefix: "browsey-data"))
    }

    func configuration(
        writable: Bool = true, accounts: Accounts = AccessPolicyTests.accounts, index: Bool = false,
        clock: WallClock? = nil
    ) -> ServerConfiguration {
        var configuration = ServerConfiguration(
            root: folder.path, host: "127.0.0.1", port: 0, readOnly: !writable,
            trashFolder: writable ? data.path("trash") : nil)
        configuration.accounts = accounts
        configuration.sessionDatabasePath = data.path("sessions.sqlite")
        configuration.auditLogPath = data.path("audit.log")
        configuration.indexesSearch = index
        configuration.makesThumbnails = true
        configuration.sendsFilesBySendfile = false
        if let clock { configuration.clock = { clock.now.withLock { $0 } } }
        // What these tests check is never the header timeout: in the full parallel run on two
        // cores a client's task can wait more than the default 10 s between connecting and
        // sending its request, which most likely closed the two CI saw fail with "I/O on closed
        // channel".
        configuration.headerTimeout = .seconds(120)
        return configuration
    }

    func withClient(
        _ configuration: ServerConfiguration? = nil,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let app = try FileServer.application(configuration ?? self.configuration())
        try await app.test(.router, body)
    }
}

extension TestClientProtocol {
    /// Signs `user` in and returns the headers that carry the session (none for nobody).
    func signIn(_ user: String?) async throws -> HTTPFields {
        guard let user else { return [:] }
        let answer = try await post(
            "/api/login", LoginRequest(username: user, password: PeopleFixture.passwords[user] ?? ""))
        #expect(answer.status == .ok, "login of \(user)")
        let token = try answer.decode(LoginResponse.self).token
        return [.authorization: "Bearer \(token)"]
    }
}

/// A wall clock that stands still until a test moves it.
final class WallClock: Sendable {
    let now = Mutex<Duration>(ServerConfiguration.systemClock())

    func advance(_ by: Duration) { now.withLock { $0 += by } }
}
