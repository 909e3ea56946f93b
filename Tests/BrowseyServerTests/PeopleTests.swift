import BrowseyAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import BrowseyServer

/// What each person may do with each file of the people fixture, written out by hand (not
/// computed by the policy under test): `r` read, `w` write (and read and upload), `u` upload only.
private let expected: [String: [String: String]] = [
    "nobody": [
        "/top.txt": "", "/Public/readme.txt": "r", "/Team/plan.txt": "", "/Team/Private/salary.txt": "",
        "/Drop/old.txt": "u", "/foo/ok.txt": "", "/foobar/secret.txt": "",
    ],
    "bob": [
        "/top.txt": "r", "/Public/readme.txt": "r", "/Team/plan.txt": "w", "/Team/Private/salary.txt": "r",
        "/Drop/old.txt": "ru", "/foo/ok.txt": "r", "/foobar/secret.txt": "r",
    ],
    "carol": [
        "/top.txt": "r", "/Public/readme.txt": "r", "/Team/plan.txt": "r", "/Team/Private/salary.txt": "",
        "/Drop/old.txt": "u", "/foo/ok.txt": "w", "/foobar/secret.txt": "r",
    ],
    "alice": [
        "/top.txt": "w", "/Public/readme.txt": "w", "/Team/plan.txt": "w", "/Team/Private/salary.txt": "w",
        "/Drop/old.txt": "w", "/foo/ok.txt": "w", "/foobar/secret.txt": "w",
    ],
]

/// What each person's listing of each folder shows; `nil`: the listing is refused.
private let listings: [String: [String: [String]?]] = [
    "nobody": [
        "/": ["Drop", "Public"], "/Public": ["pic.png", "readme.txt"], "/Team": nil, "/Team/Private": nil,
        "/Drop": [], "/foo": nil, "/foobar": nil,
    ],
    "bob": [
        "/": ["Drop", "Public", "Team", "foo", "foobar", "top.txt"],
        "/Public": ["pic.png", "private-link", "readme.txt"], "/Team": ["Private", "plan.txt"],
        "/Team/Private": ["salary.txt"], "/Drop": ["old.txt"], "/foo": ["ok.txt"], "/foobar": ["secret.txt"],
    ],
    "carol": [
        "/": ["Drop", "Public", "Team", "foo", "foobar", "top.txt"],
        "/Public": ["pic.png", "readme.txt"], "/Team": ["plan.txt"], "/Team/Private": nil, "/Drop": [],
        "/foo": ["ok.txt"], "/foobar": ["secret.txt"],
    ],
    "alice": [
        "/": ["Drop", "Public", "Team", "foo", "foobar", "top.txt"],
        "/Public": ["pic.png", "private-link", "readme.txt"], "/Team": ["Private", "plan.txt"],
        "/Team/Private": ["salary.txt"], "/Drop": ["old.txt"], "/foo": ["ok.txt"], "/foobar": ["secret.txt"],
    ],
]

/// Whether an answer is a refusal of access (and not some other answer of an allowed request).
private func refused(_ answer: Answer) -> Bool {
    [.unauthorized, .forbidden, .notFound].contains(answer.status)
        && ["signInRequired", "notAllowed", "notFound", "invalidPath"].contains(
            (answer.json["code"] as? String) ?? "")
}

private func user(_ name: String) -> String? { name == "nobody" ? nil : name }

@Suite("Every way in checks the same rights: users × rights × endpoints")
struct PeopleAccessTableTests {
    @Test(
        "reading a file (file, view, stat, thumb) works exactly where the user may read",
        arguments: ["nobody", "bob", "carol", "alice"])
    func reads(who: String) async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let headers = try await client.signIn(user(who))
            for (path, rights) in expected[who]! {
                for endpoint in ["file", "view", "stat", "thumb"] {
                    let answer = try await client.ask("/api/\(endpoint)?path=\(q(path))", headers: headers)
                    let mayRead = rights.contains("r") || rights.contains("w")
                    #expect(
                        refused(answer) == !mayRead,
                        "\(who) \(endpoint) \(path): \(answer.status) \(answer.text)")
                    if !mayRead {
                        #expect(
                            answer.status == (who == "nobody" ? .unauthorized : .notFound),
                            "\(who) \(endpoint) \(path)")
                    }
                }
            }
        }
    }

    @Test(
        "a listing shows exactly what the user may see, and a folder they may not see is refused",
        arguments: ["nobody", "bob", "carol", "alice"])
    func lists(who: String) async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let headers = try await client.signIn(user(who))
            for (folder, names) in listings[who]! {
                let answer = try await client.ask("/api/list?path=\(q(folder))", headers: headers)
                if let names {
                    #expect(answer.status == .ok, "\(who) list \(folder): \(answer.text)")
                    let items = (answer.json["items"] as? [[String: Any]]) ?? []
                    #expect(
                        items.compactMap { $0["name"] as? String }.sorted() == names, "\(who) list \(folder)")
                } else {
                    #expect(refused(answer), "\(who) list \(folder): \(answer.status)")
                }
            }
        }
    }

    @Test(
        "writes (save, rename, copy, move, delete, mkdir, upload) work exactly where the user may write or upload",
        arguments: ["nobody", "bob", "carol", "alice"])
    func writes(who: String) async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let headers = try await client.signIn(user(who))
            for (path, rights) in expected[who]!.sorted(by: { $0.key < $1.key }) {
                let mayWrite = rights.contains("w")
                let mayUpload = mayWrite || rights.contains("u")
                let folder = (path as NSString).deletingLastPathComponent
                let name = (path as NSString).lastPathComponent
                func check(_ label: String, _ answer: Answer, allowed: Bool) {
                    #expect(
                        refused(answer) == !allowed,
                        "\(who) \(label) \(path): \(answer.status) \(answer.text)")
                }
                check(
                    "save",
                    try await client.post(
                        "/api/save",
                        SaveRequest(
                            path: path, content: "changed", baseModified: Date(timeIntervalSince1970: 0),
                            baseSize: 1),
                        headers: headers), allowed: mayWrite)
                check(
                    "mkdir",
                    try await client.post(
                        "/api/mkdir", PathRequest(path: folder + "/new-\(who)"), headers: headers),
                    allowed: mayWrite)
                check(
                    "rename",
                    try await client.post(
                        "/api/rename", RenameRequest(path: path, newName: name), headers: headers),
                    allowed: mayWrite)
                check(
                    "copy",
                    try await client.post(
                        "/api/copy", TransferRequest(path: path, destination: folder), headers: headers),
                    allowed: mayWrite)
                check(
                    "move",
                    try await client.post(
                        "/api/move", TransferRequest(path: path, destination: folder), headers: headers),
                    allowed: mayWrite)
                var uploadHeaders = headers
                uploadHeaders[.contentType] = "application/octet-stream"
                let upload = try await client.execute(
                    uri: "/api/file?path=\(q(folder + "/up-\(who).txt"))", method: .put,
                    headers: uploadHeaders,
                    body: ByteBuffer(string: "new")
                ) { Answer(status: $0.status, headers: $0.headers, body: Data(buffer: $0.body)) }
                check("upload", upload, allowed: mayUpload)
                check(
                    "delete", try await client.post("/api/delete", PathRequest(path: path), headers: headers),
                    allowed: mayWrite)
            }
        }
        // Nothing anyone may not write changed.
        for (path, rights) in expected[who]! where !rights.contains("w") {
            let text = try? String(
                contentsOfFile: fixture.folder.path(String(path.dropFirst())), encoding: .utf8)
            #expect(text != nil && text != "changed", "\(who) \(path)")
        }
    }

    @Test("someone who may only upload never replaces a file, nor learns it is there")
    func dropBox() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            for who in ["nobody", "carol"] {
                var headers = try await client.signIn(user(who))
                headers[.contentType] = "application/octet-stream"
                let answer = try await client.execute(
                    uri: "/api/file?path=\(q("/Drop/old.txt"))&overwrite=1", method: .put, headers: headers,
                    body: ByteBuffer(string: "replaced by \(who)")
                ) { Answer(status: $0.status, headers: $0.headers, body: Data(buffer: $0.body)) }
                #expect(answer.status == .created, "\(who): \(answer.text)")
                #expect(
                    (answer.json["path"] as? String)?.hasPrefix("/Drop/old ") == true,
                    "\(who): \(answer.text)")
            }
        }
        #expect(try String(contentsOfFile: fixture.folder.path("Drop/old.txt"), encoding: .utf8) == "dropped")
    }

    @Test(
        "a folder holding items of other rights is never renamed, moved, copied or deleted whole, by the API or WebDAV"
    )
    func recursiveOperationsKeepInnerRights() async throws {
        let fixture = try PeopleFixture.make()
        var configuration = fixture.configuration()
        configuration.davAllowsInsecureBasic = true
        try await fixture.withClient(configuration) { client in
            // bob writes /Team but only reads /Team/Private; carol reads /Team and writes /foo.
            let bob = try await client.signIn("bob")
            let carol = try await client.signIn("carol")
            let attempts: [(String, HTTPFields, String, any Encodable & Sendable)] = [
                ("bob", bob, "/api/delete", PathRequest(path: "/Team")),
                ("bob", bob, "/api/rename", RenameRequest(path: "/Team", newName: "Shared")),
                ("bob", bob, "/api/move", TransferRequest(path: "/Team", destination: "/Drop")),
                ("carol", carol, "/api/copy", TransferRequest(path: "/Team", destination: "/foo")),
            ]
            for (who, headers, uri, body) in attempts {
                let answer = try await client.post(uri, body, headers: headers)
                #expect(answer.status == .forbidden, "\(who) \(uri): \(answer.text)")
                #expect(answer.json["code"] as? String == "notAllowed", "\(who) \(uri)")
            }
            let token = String((bob[.authorization] ?? "").dropFirst("Bearer ".count))
            let basic: HTTPFields = [
                .authorization: "Basic " + Data("bob:\(token)".utf8).base64EncodedString()
            ]
            let deleted = try await client.dav("/dav/Team", .delete, headers: basic)
            #expect(deleted.status == .forbidden, "WebDAV DELETE: \(deleted.text)")
            var moving = basic
            moving[.destination] = "/dav/Drop/Team"
            let moved = try await client.dav("/dav/Team", DAVMethod.move, headers: moving)
            #expect(moved.status == .forbidden, "WebDAV MOVE: \(moved.text)")
            // A file inside is bob's to change as before.
            let plan = try await client.post(
                "/api/rename", RenameRequest(path: "/Team/plan.txt", newName: "plan2.txt"), headers: bob)
            #expect(plan.status == .ok, "\(plan.text)")
        }
        #expect(FileManager.default.fileExists(atPath: fixture.folder.path("Team/Private/salary.txt")))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("foo/Team")))
    }

    @Test("search leaves out what the user may not see, before the limit is applied")
    func search() async throws {
        let fixture = try PeopleFixture.make()
        for index in 0..<30 { try fixture.folder.file("Team/Private/aaa-\(index).txt", "x") }
        try fixture.folder.file("Public/aaa-public.txt", "x")
        try await fixture.withClient { client in
            for (who, query, count) in [
                ("carol", "salary", 0), ("bob", "salary", 1), ("nobody", "salary", 0), ("carol", "old", 0),
                ("bob", "old", 1), ("nobody", "plan", 0), ("carol", "plan", 1), ("nobody", "readme", 1),
            ] {
                let headers = try await client.signIn(user(who))
                let answer = try await client.ask("/api/search?q=\(query)", headers: headers)
                let results = (answer.json["results"] as? [[String: Any]]) ?? []
                #expect(results.count == count, "\(who) search \(query): \(answer.text)")
            }
            let headers = try await client.signIn("carol")
            let answer = try await client.ask("/api/search?q=aaa&limit=1", headers: headers)
            let results = (answer.json["results"] as? [[String: Any]]) ?? []
            #expect(
                results.compactMap { $0["path"] as? String } == ["/Public/aaa-public.txt"], "\(answer.text)")
            #expect(refused(try await client.ask("/api/search?q=aaa&path=/Team/Private", headers: headers)))
        }
    }

    @Test("a zip never holds what the user may not read")
    func archive() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let carol = try await client.signIn("carol")
            let zip = try await client.ask("/api/archive?path=/", headers: carol)
            #expect(zip.status == .ok)
            #expect(zip.text.contains("Team/plan.txt"))
            #expect(!zip.text.contains("salary"))
            #expect(!zip.text.contains("old.txt"))
            let anonymous = try await client.ask("/api/archive?path=/")
            #expect(anonymous.status == .ok)
            #expect(anonymous.text.contains("Public/readme.txt"))
            #expect(!anonymous.text.contains("top.txt") && !anonymous.text.contains("plan.txt"))
            #expect(refused(try await client.ask("/api/archive?path=/Team")))
            #expect(refused(try await client.ask("/api/archive?path=/Team/Private", headers: carol)))
        }
    }

    @Test("events are refused where the user may see nothing")
    func events() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient(fixture.configuration(index: true)) { client in
            let carol = try await client.signIn("carol")
            #expect(
                refused(try await client.ask("/api/events?path=/Team/Private", method: .head, headers: carol))
            )
            #expect(refused(try await client.ask("/api/events?path=/Team", method: .head)))
            #expect(
                try await client.ask("/api/events?path=/Team", method: .head, headers: carol).status == .ok)
        }
    }

    @Test("a user sees and restores from the trash only what they may write where it was")
    func trash() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let bob = try await client.signIn("bob")
            let carol = try await client.signIn("carol")
            let deleted = try await client.post(
                "/api/delete", PathRequest(path: "/Team/plan.txt"), headers: bob)
            let id = try #require(deleted.json["trashId"] as? String)
            #expect(((try await client.ask("/api/trash", headers: bob)).json["items"] as? [Any])?.count == 1)
            #expect(
                ((try await client.ask("/api/trash", headers: carol)).json["items"] as? [Any])?.count == 0)
            #expect(
                try await client.post("/api/restore", RestoreRequest(id: id), headers: carol).status != .ok)
            #expect(try await client.post("/api/restore", RestoreRequest(id: id), headers: bob).status == .ok)
        }
        #expect(try String(contentsOfFile: fixture.folder.path("Team/plan.txt"), encoding: .utf8) == "plan")
    }

    @Test(
        "hostile spellings of a forbidden path reach nothing: /foo never opens /foobar, links, encodings, root prefixes"
    )
    func hostilePaths() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            let carol = try await client.signIn("carol")
            let root = fixture.folder.path
            for spelling in [
                "/Team/Private/salary.txt", "Team/Private/salary.txt", "/Team//Private/salary.txt",
                "/Team/./Private/salary.txt", "\\Team\\Private\\salary.txt",
                "/Public/private-link/salary.txt",
                root + "/Team/Private/salary.txt", "/Team/Private/../Private/salary.txt", "/Team/Private/",
                "/Public/private-link",
            ] {
                for endpoint in ["file", "view", "stat", "list", "archive", "thumb"] {
                    let answer = try await client.ask("/api/\(endpoint)?path=\(q(spelling))", headers: carol)
                    #expect(refused(answer), "\(endpoint) \(spelling): \(answer.status)")
                    #expect(!answer.text.contains("salary"), "\(endpoint) \(spelling)")
                }
            }
            // Encoded once more by hand: the query is decoded once, so %2F stays part of a name.
            for raw in [
                "%2FTeam%2FPrivate%2Fsalary.txt", "%252FTeam%252FPrivate%252Fsalary.txt",
                "/Team/Private/salary%2Etxt",
            ] {
                #expect(refused(try await client.ask("/api/file?path=\(raw)", headers: carol)), "\(raw)")
            }
            // carol writes /foo, never /foobar.
            let save = try await client.post(
                "/api/save",
                SaveRequest(path: "/foobar/secret.txt", content: "x", baseModified: Date(), baseSize: 0),
                headers: carol)
            #expect(save.status == .forbidden && save.json["code"] as? String == "notAllowed")
            let link = try await client.ask("/api/file?path=\(q("/Public/private-link/salary.txt"))")
            #expect(link.status == .unauthorized)
        }
    }

    @Test("a read-only server grants no writes, whatever the rules say")
    func readOnlyCaps() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient(fixture.configuration(writable: false)) { client in
            let alice = try await client.signIn("alice")
            let answer = try await client.post("/api/mkdir", PathRequest(path: "/new"), headers: alice)
            #expect(answer.status == .forbidden && answer.json["code"] as? String == "readOnly")
        }
    }
}

@Suite("A user's event stream carries only what they may see")
struct PeopleEventsTests {
    @Test("carol's stream of the root hears of a new file in Team, never of one in Team/Private")
    func filtered() async throws {
        let fixture = try PeopleFixture.make()
        var configuration = fixture.configuration(index: true)
        configuration.eventHeartbeat = .milliseconds(200)
        let app = try FileServer.application(configuration)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let carol = try await client.signIn("carol")
            try await Task.sleep(for: .milliseconds(300))  // the index is up
            let socket = try #require(RawSocket(port: port))
            defer { socket.close() }
            let request =
                "GET /api/events?path=%2F HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
                + "Authorization: \(carol[.authorization] ?? "")\r\n\r\n"
            socket.send(Array(request.utf8))
            let head = await socket.receive(for: 60) { $0.contains(": connected") }
            #expect(head.contains("200 OK"), "\(head)")
            try fixture.folder.file("Team/Private/hidden-new.txt", "h")
            try await Task.sleep(for: .milliseconds(200))
            try fixture.folder.file("Team/visible-new.txt", "v")
            let text = await socket.receive(for: 60) { $0.contains("visible-new.txt") }
            #expect(text.contains("visible-new.txt"), "\(text)")
            #expect(!text.contains("hidden-new"), "\(text)")
            // Moved out of her sight: to carol it is deleted, and where it went is not said.
            try FileManager.default.moveItem(
                atPath: fixture.folder.path("Team/visible-new.txt"),
                toPath: fixture.folder.path("Team/Private/moved.txt"))
            let moved = await socket.receive(for: 60) { $0.contains("\"deleted\"") }
            #expect(moved.contains("\"deleted\"") && moved.contains("visible-new.txt"), "\(moved)")
            #expect(!moved.contains("moved.txt") && !moved.contains("Private"), "\(moved)")
        }
    }
}
