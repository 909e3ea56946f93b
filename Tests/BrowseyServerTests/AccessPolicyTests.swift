import BrowseyServer
import Synchronization
import Testing

@Suite("The folder rules decide who may do what where")
struct AccessPolicyTests {
    /// The rules of the people fixture, as the accounts file gives them.
    // swift-format-ignore: NeverUseForceTry
    // A fixed, valid file: a failure here is a broken test, not a case to handle.
    static let accounts: Accounts = {
        let json = """
            {
              "users": {
                "alice": { "password": "\(PeopleFixture.hashes.alice)", "admin": true },
                "bob": { "password": "\(PeopleFixture.hashes.bob)" },
                "carol": { "password": "\(PeopleFixture.hashes.carol)" }
              },
              "folders": {
                "/": { "@users": "read" },
                "/Public": { "*": "read" },
                "/Team": { "bob": "write", "carol": "read" },
                "/Team/Private": { "bob": "read" },
                "/Drop": { "*": "upload", "bob": "read,upload" },
                "/foo": { "@users": "read", "carol": "write" }
              }
            }
            """
        return try! Accounts(json: Array(json.utf8))
    }()

    var policy: AccessPolicy { Self.accounts.policy }

    @Test("a rule covers its folder and everything below it, and the deepest rule decides")
    func inheritance() {
        #expect(policy.rights(of: "bob", at: "/Team/a/b/c.txt") == [.read, .write, .upload])
        #expect(policy.rights(of: "bob", at: "/Team/Private/salary.txt") == .read)
        #expect(policy.rights(of: "carol", at: "/Team/plan.txt") == .read)
        #expect(policy.rights(of: "carol", at: "/Team/Private") == [])
        #expect(policy.rights(of: "carol", at: "/elsewhere/deep/file") == .read)
    }

    @Test("paths compare by whole components: /foo never covers /foobar")
    func components() {
        #expect(policy.rights(of: "carol", at: "/foo/ok.txt").contains(.write))
        #expect(!policy.rights(of: "carol", at: "/foobar/secret.txt").contains(.write))
        #expect(!policy.rights(of: "carol", at: "/foo.txt").contains(.write))
        #expect(policy.rights(of: nil, at: "/Publicity") == [])
    }

    @Test(
        "a name spelled in another Unicode form is the same name to the rules (é as one code point or e + ◌́)")
    func unicodeForms() throws {
        let json = """
            {
              "users": { "bob": { "password": "\(PeopleFixture.hashes.bob)" } },
              "folders": { "/": { "bob": "read" }, "/Caf\u{E9}": { "bob": "write" }, "/Cafe\u{301}/Private": {} }
            }
            """
        let policy = try Accounts(json: Array(json.utf8)).policy
        for spelling in ["/Caf\u{E9}/menu.txt", "/Cafe\u{301}/menu.txt"] {
            #expect(
                policy.rights(of: "bob", at: spelling).contains(.write), "\(Array(spelling.unicodeScalars))")
        }
        for spelling in ["/Caf\u{E9}/Private/x", "/Cafe\u{301}/Private/x"] {
            #expect(policy.rights(of: "bob", at: spelling) == [], "\(Array(spelling.unicodeScalars))")
        }
    }

    @Test("nobody signed in gets only what * grants, and sees only the way there")
    func anonymous() {
        #expect(policy.rights(of: nil, at: "/Public/readme.txt") == .read)
        #expect(policy.rights(of: nil, at: "/Drop") == .upload)
        #expect(policy.rights(of: nil, at: "/top.txt") == [])
        #expect(policy.maySee(nil, "/"))
        #expect(policy.maySee(nil, "/Drop"))
        #expect(!policy.maySee(nil, "/Drop/old.txt"))
        #expect(!policy.maySee(nil, "/Team"))
    }

    @Test("an upload-only drop box shows the folder but nothing in it")
    func dropBox() {
        #expect(policy.maySee("carol", "/Drop"))
        #expect(!policy.maySee("carol", "/Drop/old.txt"))
        #expect(policy.maySee("bob", "/Drop/old.txt"))
    }

    @Test("an administrator may do everything everywhere")
    func administrator() {
        #expect(policy.rights(of: "alice", at: "/Team/Private/salary.txt") == .all)
        #expect(policy.rights(of: "alice", at: "/Drop/old.txt") == .all)
    }

    @Test("a user with no rule of their own gets what @users and * grant, united")
    func union() {
        #expect(policy.rights(of: "bob", at: "/Drop") == [.read, .upload])
        #expect(policy.rights(of: "carol", at: "/Public/x") == .read)
    }

    @Test("rights names read as sets, and unknown names are refused")
    func names() {
        #expect(Rights(named: "write") == [.read, .write, .upload])
        #expect(Rights(named: "upload") == .upload)
        #expect(Rights(named: "none") == [])
        #expect(Rights(named: "read, upload") == [.read, .upload])
        #expect(Rights(named: "rw") == nil)
    }

    @Test("an accounts file that names an unknown user, a bad right, .. or a plain password is refused")
    func refusals() {
        let hash = PeopleFixture.hashes.bob
        for json in [
            #"{"users": {"bob": {"password": "\#(hash)"}}, "folders": {"/": {"eve": "read"}}}"#,
            #"{"users": {"bob": {"password": "\#(hash)"}}, "folders": {"/": {"bob": "everything"}}}"#,
            #"{"users": {"bob": {"password": "\#(hash)"}}, "folders": {"/a/../b": {"bob": "read"}}}"#,
            #"{"users": {"bob": {"password": "hunter2"}}}"#,
            #"{"users": {"@bob": {"password": "\#(hash)"}}}"#,
            #"{"users": []}"#,
        ] {
            #expect(throws: ServerSetupError.self, "\(json)") { try Accounts(json: Array(json.utf8)) }
        }
    }
}

@Suite("Passwords are kept only as slow, salted hashes")
struct PasswordHashTests {
    @Test("a hash checks its own password and no other")
    func verifies() throws {
        let hash = try PasswordHash.make(password: "correct horse", logN: 10)
        #expect(hash.verify("correct horse"))
        #expect(!hash.verify("correct horsE"))
        #expect(!hash.verify(""))
    }

    @Test("a hash reads back from its stored form, which never holds the password")
    func storedForm() throws {
        let hash = try PasswordHash.make(password: "correct horse", logN: 10)
        let text = hash.description
        #expect(text.hasPrefix("scrypt$10$8$1$"))
        #expect(!text.contains("correct"))
        #expect(PasswordHash(text) == hash)
        #expect(PasswordHash(text)?.verify("correct horse") == true)
    }

    @Test("the same password hashes differently each time (a fresh 128-bit salt)")
    func salted() throws {
        let first = try PasswordHash.make(password: "same", logN: 10)
        let second = try PasswordHash.make(password: "same", logN: 10)
        #expect(first != second)
    }

    @Test("the default work factor is scrypt's interactive one, N = 2^15")
    func workFactor() throws {
        let hash = try PasswordHash.make(password: "x")
        #expect(hash.description.hasPrefix("scrypt$15$8$1$"))
    }

    @Test("stored forms that are not scrypt hashes of sane parameters are refused")
    func refusals() {
        for text in [
            "hunter2", "scrypt$15$8$1$zz$00",
            "scrypt$40$8$1$00112233445566778899aabbccddeeff$00112233445566778899aabbccddeeff",
            "bcrypt$15$8$1$00112233445566778899aabbccddeeff$00112233445566778899aabbccddeeff",
        ] {
            #expect(PasswordHash(text) == nil, "\(text)")
        }
    }
}

@Suite("Failed logins are slowed down, never locked out for good")
struct LoginThrottleTests {
    final class FakeClock: Sendable {
        let now = Mutex<Duration>(.zero)
        func advance(_ by: Duration) { now.withLock { $0 += by } }
    }

    @Test(
        "1,000 wrong passwords from one address slow it to a minute a try, while the user signs in from another within seconds"
    )
    func perAddressAndUser() async throws {
        let clock = FakeClock()
        let throttle = LoginThrottle(
            store: try SQLiteStateStore(path: nil), scope: "login", now: { clock.now.withLock { $0 } })
        var refused = 0
        var tried = 0
        for _ in 0..<1000 {
            if let wait = try await throttle.wait(address: "198.51.100.9", user: "bob") {
                refused += 1
                clock.advance(min(wait, .seconds(1)))
                continue
            }
            tried += 1
            try await throttle.failed(address: "198.51.100.9", user: "bob")
        }
        // A thousand attempts over about 16 minutes: after the first minute, one a minute reached the password.
        #expect(tried < 40)
        #expect(refused > 950)
        #expect((try await throttle.wait(address: "198.51.100.9", user: "bob") ?? .zero) > .seconds(30))
        // The real user, elsewhere, waits at most the per-user cap.
        let wait = try await throttle.wait(address: "203.0.113.5", user: "bob") ?? .zero
        #expect(wait <= throttle.userCap)
        clock.advance(wait)
        #expect(try await throttle.wait(address: "203.0.113.5", user: "bob") == nil)
        try await throttle.succeeded(address: "203.0.113.5", user: "bob")
        #expect(try await throttle.wait(address: "203.0.113.5", user: "bob") == nil)
    }

    @Test("the wait doubles from a quarter second and stops at its cap")
    func doubling() async throws {
        let clock = FakeClock()
        let throttle = LoginThrottle(
            store: try SQLiteStateStore(path: nil), scope: "login", now: { clock.now.withLock { $0 } })
        try await throttle.failed(address: "a", user: "u")
        #expect(try await throttle.wait(address: "a", user: "x") == .milliseconds(250))
        try await throttle.failed(address: "a", user: "u")
        #expect(try await throttle.wait(address: "a", user: "x") == .milliseconds(500))
        for _ in 0..<30 { try await throttle.failed(address: "a", user: "u") }
        #expect(try await throttle.wait(address: "a", user: "x") == throttle.addressCap)
        #expect(try await throttle.wait(address: "b", user: "u") == throttle.userCap)
    }
}
