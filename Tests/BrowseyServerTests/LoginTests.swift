import BrowseyAPI
import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

@Suite("Signing in, out, and sessions that end")
struct LoginTests {
    @Test(
        "a login sets an HttpOnly, SameSite session cookie and returns a bearer token that opens the same session"
    )
    func login() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let answer = try await client.post(
                "/api/login", LoginRequest(username: "bob", password: "bob-secret"))
            #expect(answer.status == .ok)
            let cookie = try #require(answer.headers[.setCookie])
            #expect(cookie.hasPrefix("browsey_session="))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
            #expect(!cookie.contains("Secure"), "no Secure over plain HTTP")
            let login = try answer.decode(LoginResponse.self)
            #expect(login.username == "bob" && !login.admin && login.token.count == 64)
            #expect(login.expires > Date().addingTimeInterval(29 * 24 * 3600))
            let value = String(cookie.dropFirst("browsey_session=".count).prefix { $0 != ";" })
            #expect(value == login.token)
            for headers: HTTPFields in [
                [.authorization: "Bearer \(login.token)"], [.cookie: "browsey_session=\(login.token)"],
            ] {
                let session = try await client.ask("/api/session", headers: headers)
                #expect(session.json["username"] as? String == "bob")
                #expect(try await client.ask("/api/file?path=/top.txt", headers: headers).text == "top")
            }
            let nobody = try await client.ask("/api/session?path=/Drop")
            #expect(nobody.json["username"] == nil || nobody.json["username"] is NSNull)
            #expect(nobody.json["rights"] as? [String] == ["upload"])
            #expect(nobody.json["accounts"] as? Bool == true)
        }
    }

    @Test("a wrong password and an unknown user get the same answer, and neither is told apart")
    func wrongCredentials() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let wrong = try await client.post("/api/login", LoginRequest(username: "bob", password: "nope"))
            // Past the quarter second the first failure costs this address.
            try await Task.sleep(for: .milliseconds(300))
            let unknown = try await client.post(
                "/api/login", LoginRequest(username: "mallory", password: "nope"))
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(wrong.json["code"] as? String == "wrongCredentials")
            #expect(wrong.json["error"] as? String == unknown.json["error"] as? String)
            #expect(wrong.headers[.setCookie] == nil)
        }
    }

    @Test("a failed login is answered 429 with Retry-After when tried again at once, before any hashing")
    func throttled() async throws {
        let fixture = try PeopleFixture.make()
        // The clock stands still: however long the hash takes, the retry comes before its time.
        try await fixture.withClient(fixture.configuration(clock: WallClock())) { client in
            _ = try await client.post("/api/login", LoginRequest(username: "bob", password: "nope"))
            let again = try await client.post(
                "/api/login", LoginRequest(username: "bob", password: "bob-secret"))
            #expect(again.status == .tooManyRequests)
            #expect(again.json["code"] as? String == "slowDown")
            #expect(Int(again.headers[.retryAfter] ?? "") ?? 0 >= 1)
        }
    }

    @Test(
        "a login sent by a form or a page of another site is refused, so nobody is signed in behind their back"
    )
    func loginCSRF() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let form = try await client.post(
                "/api/login", bytes: Array("username=bob&password=bob-secret".utf8),
                contentType: "application/x-www-form-urlencoded")
            #expect(form.status == .unsupportedMediaType && form.headers[.setCookie] == nil)
            let elsewhere = try await client.post(
                "/api/login", LoginRequest(username: "bob", password: "bob-secret"),
                headers: [.origin: "https://evil.example"])
            #expect(elsewhere.status == .forbidden && elsewhere.json["code"] as? String == "crossSite")
        }
    }

    @Test("logout ends the session: its token is refused afterwards and the cookie is cleared")
    func logout() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let headers = try await client.signIn("bob")
            let out = try await client.post("/api/logout", [String: String](), headers: headers)
            #expect(out.status == .ok)
            #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
            let after = try await client.ask("/api/list?path=/", headers: headers)
            #expect(after.status == .unauthorized)
        }
    }

    @Test("a logout sent by a page of another site is refused 403 and the session goes on")
    func logoutFromAnotherSite() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            var headers = try await client.signIn("bob")
            headers[.origin] = "http://evil.example"
            let out = try await client.post("/api/logout", [String: String](), headers: headers)
            #expect(out.status == .forbidden)
            #expect(out.json["code"] as? String == "crossSite")
            headers[.origin] = nil
            let after = try await client.ask("/api/session", headers: headers)
            #expect(after.json["username"] as? String == "bob", "the session was not ended")
        }
    }

    @Test("health tells someone not signed in the mode but nothing about the machine; bob sees it")
    func anonymousHealthHidesTheHost() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let anonymous = try await client.ask("/api/health")
            #expect(anonymous.status == .ok)
            #expect(anonymous.json["ok"] as? Bool == true)
            #expect(anonymous.json["host"] == nil)
            #expect(!anonymous.text.contains("uptime") && !anonymous.text.contains("osRelease"))
            let headers = try await client.signIn("bob")
            let signedIn = try await client.ask("/api/health", headers: headers)
            #expect((signedIn.json["host"] as? [String: Any])?["hostname"] != nil)
        }
    }

    @Test("sessions survive a restart, and end when the password changes")
    func restartAndPasswordChange() async throws {
        let fixture = try PeopleFixture.make()
        let holder = TokenHolder()
        try await fixture.withClient { client in
            holder.headers = try await client.signIn("bob")
        }
        let headers = holder.headers
        try await fixture.withClient { client in
            let again = try await client.ask("/api/session", headers: headers)
            #expect(again.json["username"] as? String == "bob", "the session outlived the restart")
        }
        let json = """
            {"users": {"bob": {"password": "\(try PasswordHash.make(password: "new", logN: 10))"}},
             "folders": {"/": {"bob": "read"}}}
            """
        let changed = try Accounts(json: Array(json.utf8))
        try await fixture.withClient(fixture.configuration(accounts: changed)) { client in
            let after = try await client.ask("/api/session", headers: headers)
            #expect(after.status == .unauthorized, "the old password's session ended")
        }
    }

    @Test("an expired session opens nothing")
    func expiry() async throws {
        let clock = Clock()
        let store = SessionStore(
            store: try SQLiteStateStore(path: nil), now: { clock.seconds.withLock { $0 } })
        let hash = try PasswordHash.make(password: "x", logN: 10)
        let (token, _) = try await store.start(user: "bob", password: hash, lifetime: .seconds(60))
        #expect(try await store.session(token, password: { _ in hash }) != nil)
        #expect(try await store.session(String(repeating: "0", count: 64), password: { _ in hash }) == nil)
        clock.seconds.withLock { $0 += 61 }
        #expect(try await store.session(token, password: { _ in hash }) == nil)
    }

    @Test("logins, failures and writes go to the audit log, one JSON line each")
    func audit() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let bob = try await client.signIn("bob")
            _ = try await client.post("/api/login", LoginRequest(username: "carol", password: "wrong"))
            _ = try await client.post("/api/mkdir", PathRequest(path: "/Team/made"), headers: bob)
        }
        let lines = try String(contentsOfFile: fixture.data.path("audit.log"), encoding: .utf8)
            .split(separator: "\n").map {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        #expect(lines.map { $0?["event"] as? String } == ["login", "loginFailed", "mkdir"])
        #expect(lines.last??["user"] as? String == "bob")
        #expect(lines.last??["path"] as? String == "/Team/made")
        #expect(
            !(try String(contentsOfFile: fixture.data.path("audit.log"), encoding: .utf8)).contains(
                "bob-secret"))
    }

    @Test("the audit log is rotated by size")
    func rotation() throws {
        let folder = try TemporaryFolder()
        let log = AuditLog(path: folder.path("audit.log"), maximumBytes: 300, keeps: 2)
        for index in 0..<20 { log.record("login", user: "u\(index)", address: "127.0.0.1") }
        let size =
            (try FileManager.default.attributesOfItem(atPath: folder.path("audit.log"))[.size] as? Int) ?? 0
        #expect(size <= 300)
        #expect(FileManager.default.fileExists(atPath: folder.path("audit.log.1")))
        #expect(FileManager.default.fileExists(atPath: folder.path("audit.log.2")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("audit.log.3")))
    }

    @Test("a server without accounts answers login 404 and keeps its token mode")
    func noAccounts() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let answer = try await client.post("/api/login", LoginRequest(username: "bob", password: "x"))
            #expect(answer.status == .notFound)
            #expect(try await client.ask("/api/session").json["accounts"] as? Bool == false)
        }
    }
}

final class TokenHolder: @unchecked Sendable {
    var headers: HTTPFields = [:]
}

final class Clock: Sendable {
    let seconds = Mutex<Int64>(1_800_000_000)
}
