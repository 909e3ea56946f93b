import BrowseyAPI
import BrowseyServer
import Foundation
import GRDBSQLite
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

extension TestClientProtocol {
    /// Makes a share as `user` and returns its id.
    func makeShare(_ user: String, _ request: ShareRequest) async throws -> String {
        let headers = try await signIn(user)
        let answer = try await post("/api/share", request, headers: headers)
        #expect(answer.status == .created, "\(answer.text)")
        return try answer.decode(ShareInfo.self).id
    }
}

@Suite("Share links open exactly one thing")
struct ShareTests {
    @Test("a one-file share serves that file and reaches nothing else by any path, encoding or endpoint")
    func oneFile() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let id = try await client.makeShare("bob", ShareRequest(path: "/Team/plan.txt"))
            #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
            let page = try await client.ask("/s/\(id)")
            #expect(page.status == .ok && page.text.contains("/assets/app.js"), "the web UI opens it")
            #expect(page.headers[.setCookie] == nil, "a link signs nobody in")
            #expect(page.headers[values: .init("Referrer-Policy")!] == ["no-referrer"])
            let item = try await client.ask("/api/shared/\(id)").decode(SharedItemResponse.self)
            #expect(item == SharedItemResponse(name: "plan.txt", folder: false, path: "/plan.txt"))
            #expect(try await client.ask("/s/\(id)/file").text == "plan")
            #expect(try await client.ask("/api/shared/\(id)/file?path=/plan.txt").text == "plan")
            let viewed = try await client.ask("/api/shared/\(id)/view?path=/plan.txt")
            #expect(viewed.json["content"] as? String == "plan")
            let stat = try await client.ask("/api/shared/\(id)/stat?path=/plan.txt")
            #expect(stat.json["absolutePath"] as? String == "/plan.txt", "\(stat.text)")
            // The file alone: not its folder, nor its siblings.
            #expect(try await client.ask("/api/shared/\(id)/list?path=/").status == .notFound)
            #expect(try await client.ask("/api/shared/\(id)/archive?path=/").status == .notFound)
            for sub in [
                "../Private/salary.txt", "..%2FPrivate%2Fsalary.txt", "%2e%2e/Private/salary.txt",
                "/Team/Private/salary.txt", "Private/salary.txt", "/Private", "/", "",
                "..\\Private\\salary.txt", "../../top.txt", "../", "..", fixture.folder.path + "/top.txt",
                fixture.folder.path + "/Team/Private/salary.txt", "/../top.txt", "x/../../top.txt",
            ] {
                let endpoints = [
                    "/s/\(id)/file", "/s/\(id)/zip", "/api/shared/\(id)/list",
                    "/api/shared/\(id)/view", "/api/shared/\(id)/stat", "/api/shared/\(id)/file",
                    "/api/shared/\(id)/archive", "/api/shared/\(id)/thumb",
                ]
                for endpoint in endpoints {
                    let answer = try await client.ask("\(endpoint)?path=\(sub)")
                    #expect(
                        !answer.text.contains("salary") && !answer.text.contains("top")
                            && !answer.text.contains("/Team"), "\(endpoint) \(sub)")
                    if endpoint.hasPrefix("/api/") {
                        #expect(answer.status != .ok, "\(endpoint) \(sub)")
                    }
                }
            }
            // A link is no session: the API stays closed to whoever holds it.
            #expect(try await client.ask("/api/file?path=/Team/plan.txt").status == .unauthorized)
            for spelling in [id.uppercased(), id + "0", String(id.dropLast()), id + "%2F..", "../s/\(id)"] {
                #expect(try await client.ask("/s/\(spelling)/file").status == .notFound, "\(spelling)")
            }
        }
    }

    @Test("a folder share lists, zips and serves what is in it, and never more than its owner may read")
    func folder() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let bobs = try await client.makeShare("bob", ShareRequest(path: "/Team"))
            #expect(try await client.ask("/s/\(bobs)").text.contains("/assets/app.js"))
            let bobList = try await client.ask("/api/shared/\(bobs)/list?path=/")
            #expect(bobList.text.contains("plan.txt") && bobList.text.contains("Private"), "\(bobList.text)")
            #expect(!bobList.text.contains(fixture.folder.path) && !bobList.text.contains("/Team"))
            #expect(bobList.json["absolutePath"] as? String == "/", "the server's disk is not named")
            #expect(
                try await client.ask("/api/shared/\(bobs)/list?path=/Private").text.contains("salary.txt"))
            #expect(try await client.ask("/s/\(bobs)/file?path=Private/salary.txt").text == "salary")
            #expect(
                try await client.ask("/api/shared/\(bobs)/file?path=/Private/salary.txt").text == "salary")
            let carols = try await client.makeShare("carol", ShareRequest(path: "/Team"))
            let carolList = try await client.ask("/api/shared/\(carols)/list?path=/")
            #expect(carolList.text.contains("plan.txt") && !carolList.text.contains("Private"))
            #expect(try await client.ask("/s/\(carols)/file?path=Private/salary.txt").status == .notFound)
            for endpoint in ["list?path=/Private", "file?path=/Private/salary.txt", "stat?path=/Private"] {
                #expect(try await client.ask("/api/shared/\(carols)/\(endpoint)").status == .notFound)
            }
            let zip = try await client.ask("/s/\(carols)/zip")
            #expect(zip.status == .ok && zip.text.contains("plan.txt") && !zip.text.contains("salary"))
            let apiZip = try await client.ask("/api/shared/\(carols)/archive?path=/")
            #expect(
                apiZip.status == .ok && apiZip.text.contains("plan.txt") && !apiZip.text.contains("salary"))
            // Nothing through a link writes.
            #expect(try await client.post("/api/shared/\(bobs)/list", ShareRequest(path: "/")).status != .ok)
        }
    }

    @Test("a link shows no hidden name, even on a server that shows them to its signed-in users")
    func hiddenNames() async throws {
        let fixture = try PeopleFixture.make()
        try fixture.folder.file("Team/.env", "TOKEN=hunter2")
        try fixture.folder.file("Team/.git/config", "[remote] url = secret-remote")
        var configuration = fixture.configuration()
        configuration.showsHidden = true
        try await fixture.withClient(configuration) { client in
            // The server shows them to bob, who may read there.
            let headers = try await client.signIn("bob")
            #expect(try await client.ask("/api/file?path=/Team/.env", headers: headers).status == .ok)
            let id = try await client.makeShare("bob", ShareRequest(path: "/Team"))
            for endpoint in [
                "/s/\(id)/file?path=.env", "/s/\(id)/file?path=/.env", "/s/\(id)/file?path=.git/config",
                "/s/\(id)/file?path=x/../.env", "/s/\(id)/zip?path=.git", "/s/\(id)/zip?path=.git&hidden=1",
                "/api/shared/\(id)/file?path=/.env", "/api/shared/\(id)/view?path=/.env",
                "/api/shared/\(id)/stat?path=/.git", "/api/shared/\(id)/list?path=/.git&hidden=1",
                "/api/shared/\(id)/archive?path=/.git&hidden=1",
            ] {
                let answer = try await client.ask(endpoint)
                #expect(answer.status == .notFound, "\(endpoint)")
                #expect(
                    !answer.text.contains("hunter2") && !answer.text.contains("secret-remote"), "\(endpoint)")
            }
            for endpoint in [
                "/s/\(id)/zip?hidden=1", "/api/shared/\(id)/archive?path=/&hidden=1",
                "/api/shared/\(id)/list?path=/&hidden=1",
            ] {
                let answer = try await client.ask(endpoint)
                #expect(answer.status == .ok, "\(endpoint)")
                #expect(answer.text.contains("plan.txt"), "\(endpoint)")
                #expect(
                    !answer.text.contains(".env") && !answer.text.contains(".git")
                        && !answer.text.contains("hunter2"), "\(endpoint)")
            }
        }
    }

    @Test("a share made through a link shares the folder it leads to, and meets the rules deeper inside it")
    func throughALink() async throws {
        let fixture = try PeopleFixture.make()
        try FileManager.default.createSymbolicLink(
            atPath: fixture.folder.path("Way to Team"), withDestinationPath: "Team")
        try await fixture.withClient { client in
            let carols = try await client.makeShare("carol", ShareRequest(path: "/Way to Team"))
            let item = try await client.ask("/api/shared/\(carols)").decode(SharedItemResponse.self)
            #expect(
                item == SharedItemResponse(name: "Team", folder: true, path: "/"),
                "shared as what it leads to")
            let listed = try await client.ask("/api/shared/\(carols)/list?path=/")
            #expect(listed.status == .ok, "\(listed.status) \(listed.text)")
            #expect(listed.text.contains("plan.txt") && !listed.text.contains("Private"), "\(listed.text)")
            for endpoint in ["list?path=/Private", "file?path=/Private/salary.txt", "archive?path=/"] {
                let answer = try await client.ask("/api/shared/\(carols)/\(endpoint)")
                #expect(!answer.text.contains("salary"), "\(endpoint)")
            }
        }
    }

    @Test("a shared folder swapped over and over for a link that leads out never serves what is outside")
    func swappedForALinkOut() async throws {
        let fixture = try PeopleFixture.make()
        let outside = try TemporaryFolder()
        try outside.file("plan.txt", "outside secret")
        _ = try fixture.folder.symlink("Team-out", to: outside.path)
        try await fixture.withClient { client in
            let id = try await client.makeShare("bob", ShareRequest(path: "/Team"))
            // Another program swaps the folder for the link and back, as fast as it can.
            let swapper = Swapper(in: fixture.folder.path, swapping: "Team", with: "Team-out")
            let leaks = try await swapper.tally(["outside"], rounds: 600) { round in
                let endpoint = ["file?path=/plan.txt", "view?path=/plan.txt", "list?path=/"][round % 3]
                return try await client.ask("/api/shared/\(id)/\(endpoint)").text
            }
            #expect(leaks.isEmpty, "answers holding the outside text: \(leaks)")
            #expect(swapper.swaps > 100, "the folder was swapped while the requests ran")
            #expect(try await client.ask("/api/shared/\(id)/file?path=/plan.txt").text == "plan", "put back")
        }
    }

    @Test("an expired link answers 410, a revoked one 404")
    func expiryAndRevocation() async throws {
        let fixture = try PeopleFixture.make()
        let clock = WallClock()
        try await fixture.withClient(fixture.configuration(clock: clock)) { client in
            let soon = try await client.makeShare(
                "bob", ShareRequest(path: "/Team/plan.txt", expires: Date().addingTimeInterval(3600)))
            #expect(try await client.ask("/s/\(soon)/file").status == .ok)
            clock.advance(.seconds(7200))
            let gone = try await client.ask("/s/\(soon)/file")
            #expect(
                gone.status == .gone && gone.json["code"] as? String == "expired",
                "\(gone.status) \(gone.text)")
            let id = try await client.makeShare("bob", ShareRequest(path: "/Team/plan.txt"))
            let bob = try await client.signIn("bob")
            let carol = try await client.signIn("carol")
            #expect(
                try await client.post("/api/unshare", UnshareRequest(id: id), headers: carol).status
                    == .notFound)
            #expect(try await client.post("/api/unshare", UnshareRequest(id: id), headers: bob).status == .ok)
            #expect(try await client.ask("/s/\(id)/file").status == .notFound)
            let past = try await client.post(
                "/api/share", ShareRequest(path: "/Team/plan.txt", expires: Date().addingTimeInterval(-60)),
                headers: bob)
            #expect(past.status == .badRequest)
        }
    }

    @Test("a password-protected link asks for it (401), and no API ever returns it")
    func password() async throws {
        let fixture = try PeopleFixture.make()
        let clock = WallClock()
        try await fixture.withClient(fixture.configuration(clock: clock)) { client in
            let bob = try await client.signIn("bob")
            let made = try await client.post(
                "/api/share", ShareRequest(path: "/Team/plan.txt", password: "open sesame"), headers: bob)
            #expect(made.status == .created && !made.text.contains("sesame"))
            let id = try made.decode(ShareInfo.self).id
            let without = try await client.ask("/s/\(id)/file")
            #expect(
                without.status == .unauthorized
                    && without.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            let wrong = Data(":nope".utf8).base64EncodedString()
            #expect(
                try await client.ask("/s/\(id)/file", headers: [.authorization: "Basic \(wrong)"]).status
                    == .unauthorized)
            let right = Data("anyone:open sesame".utf8).base64EncodedString()
            // Right after a wrong one, even the right password waits (a quarter of a second), as a
            // login does: it is not hashed before.
            let early = try await client.ask("/s/\(id)/file", headers: [.authorization: "Basic \(right)"])
            #expect(early.status == .tooManyRequests && early.headers[.retryAfter] == "1", "\(early.status)")
            clock.advance(.seconds(1))
            #expect(
                try await client.ask("/s/\(id)/file", headers: [.authorization: "Basic \(right)"]).text
                    == "plan")
            // Wrong tries wait longer each time: a flood is answered 429 without hashing each.
            var answers: [HTTPResponse.Status] = []
            for _ in 0..<6 {
                clock.advance(.milliseconds(300))
                answers.append(
                    try await client.ask("/s/\(id)/file", headers: [.authorization: "Basic \(wrong)"]).status)
            }
            #expect(
                answers == [
                    .unauthorized, .tooManyRequests, .unauthorized, .tooManyRequests, .tooManyRequests,
                    .tooManyRequests,
                ], "\(answers)")
            // A password that opened the link is never held up, from this address or any.
            #expect(
                try await client.ask("/s/\(id)/file", headers: [.authorization: "Basic \(right)"]).text
                    == "plan")
            let audit = try String(contentsOfFile: fixture.data.path("audit.log"), encoding: .utf8)
            let unlocking = audit.split(separator: "\n").filter {
                $0.contains("\"event\":\"sharePasswordFailed\"")
                    || $0.contains("\"event\":\"shareThrottled\"")
            }
            #expect(unlocking.contains { $0.contains("sharePasswordFailed") && $0.contains(id) })
            #expect(unlocking.contains { $0.contains("\"shareThrottled\"") && $0.contains(id) })
            // Nobody signed in made them: no user is named.
            #expect(unlocking.allSatisfy { !$0.contains("\"user\"") }, "\(unlocking)")
            #expect(!audit.contains("sesame") && !audit.contains("nope"))
            let listed = try await client.ask("/api/shares", headers: bob)
            #expect(!listed.text.contains("sesame") && !listed.text.contains("scrypt"))
            #expect(try listed.decode(SharesResponse.self).shares.first?.hasPassword == true)
            #expect(try listed.decode(SharesResponse.self).shares.first?.downloads == 2)
        }
    }

    @Test("an upload share takes files into its folder and shows nothing of it")
    func upload() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let id = try await client.makeShare("bob", ShareRequest(path: "/Drop", upload: true))
            let page = try await client.ask("/s/\(id)")
            #expect(page.text.contains("<form") && !page.text.contains("old.txt"))
            #expect(try await client.ask("/s/\(id)/file?path=old.txt").status == .notFound)
            #expect(try await client.ask("/s/\(id)/zip").status == .notFound)
            let boundary = "----browsey-test"
            let body =
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"files\"; filename=\"old.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nfrom a friend\r\n--\(boundary)--\r\n"
            let sent = try await client.post(
                "/s/\(id)/upload", bytes: Array(body.utf8),
                contentType: "multipart/form-data; boundary=\(boundary)")
            #expect(sent.status == .created, "\(sent.text)")
            #expect(!sent.text.contains("/Drop"))
        }
        #expect(try String(contentsOfFile: fixture.folder.path("Drop/old.txt"), encoding: .utf8) == "dropped")
        #expect(
            try String(contentsOfFile: fixture.folder.path("Drop/old 1.txt"), encoding: .utf8)
                == "from a friend")
    }

    @Test("shares survive a restart; each user lists their own, an administrator all")
    func restartAndListing() async throws {
        let fixture = try PeopleFixture.make()
        let ids = IDs()
        try await fixture.withClient { client in
            ids.bob = try await client.makeShare("bob", ShareRequest(path: "/Team/plan.txt"))
            ids.carol = try await client.makeShare("carol", ShareRequest(path: "/foo"))
        }
        let (bobs, carols) = (ids.bob, ids.carol)
        try await fixture.withClient { client in
            #expect(try await client.ask("/s/\(bobs)/file").text == "plan")
            func listed(_ user: String) async throws -> Set<String> {
                let answer = try await client.ask("/api/shares", headers: try await client.signIn(user))
                return Set(try answer.decode(SharesResponse.self).shares.map(\.id))
            }
            #expect(try await listed("bob") == [bobs])
            #expect(try await listed("carol") == [carols])
            #expect(try await listed("alice") == [bobs, carols])
            #expect(
                try await client.post("/api/share", ShareRequest(path: "/Public/readme.txt")).status
                    == .unauthorized)
            let carol = try await client.signIn("carol")
            let refused = try await client.post(
                "/api/share", ShareRequest(path: "/Team/Private"), headers: carol)
            #expect(refused.status == .notFound)
        }
    }
}

@Suite("What the sessions database refuses is said, never dropped")
struct RefusedByTheDatabaseTests {
    /// Makes the database at `path` refuse changes to `table` from now on, as a full disk or a
    /// damaged file would: a trigger that aborts every insert and delete.
    static func refuseChanges(to table: String, in path: String) throws {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        guard sqlite3_open(path, &handle) == SQLITE_OK else { throw CocoaError(.fileReadUnknown) }
        let sql = """
            CREATE TRIGGER no_insert BEFORE INSERT ON \(table) BEGIN SELECT RAISE(ABORT, 'disk says no'); END;
            CREATE TRIGGER no_delete BEFORE DELETE ON \(table) BEGIN SELECT RAISE(ABORT, 'disk says no'); END;
            """
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    @Test("a link the database refuses is not made, and a revoke it refuses leaves the link as it was")
    func shares() async throws {
        let fixture = try PeopleFixture.make()
        let ids = IDs()
        try await fixture.withClient { client in
            let bob = try await client.signIn("bob")
            ids.bob = try await client.makeShare("bob", ShareRequest(path: "/Team/plan.txt"))
            try Self.refuseChanges(to: "share", in: fixture.data.path("sessions.sqlite"))
            let made = try await client.post(
                "/api/share", ShareRequest(path: "/Public/readme.txt"), headers: bob)
            #expect(made.status == .internalServerError)
            #expect(made.json["code"] as? String == "internal")
            #expect(made.json["error"] as? String == "The share link was not saved")
            let revoked = try await client.post("/api/unshare", UnshareRequest(id: ids.bob), headers: bob)
            #expect(revoked.status == .internalServerError)
            #expect(revoked.json["error"] as? String == "The share link was not revoked")
            let listed = try await client.ask("/api/shares", headers: bob).decode(SharesResponse.self)
            #expect(listed.shares.map(\.id) == [ids.bob], "only the link that was kept")
            #expect(try await client.ask("/s/\(ids.bob)/file").text == "plan", "and it still opens")
        }
        let kept = ids.bob
        try await fixture.withClient { client in
            let bob = try await client.signIn("bob")
            let listed = try await client.ask("/api/shares", headers: bob).decode(SharesResponse.self)
            #expect(listed.shares.map(\.id) == [kept], "after a restart, the same")
        }
    }

    @Test("a sign-out the database refuses is an error, and the token stops working here at once")
    func sessions() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let headers = try await client.signIn("bob")
            try Self.refuseChanges(to: "session", in: fixture.data.path("sessions.sqlite"))
            let out = try await client.post("/api/logout", [String: String](), headers: headers)
            #expect(out.status == .internalServerError)
            #expect(out.json["error"] as? String == "The session was not ended for good")
            #expect(try await client.ask("/api/list?path=/", headers: headers).status == .unauthorized)
        }
    }
}

final class IDs: @unchecked Sendable {
    var bob = ""
    var carol = ""
}
