import CFileTreeSystem
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import BrowseyServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite("WebDAV properties and locks")
struct WebDAVLockingTests {
    @Test("PROPPATCH stores dead properties that PROPFIND gives back, and refuses live ones all or nothing")
    func deadProperties() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let set = """
                <?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example"><D:set><D:prop>\
                <Z:colour>blue &amp; <Z:b>bold</Z:b> 𐀀</Z:colour></D:prop></D:set></D:propertyupdate>
                """
            let answer = try await client.dav("/dav/big.txt", DAVMethod.proppatch, body: set)
            #expect(answer.status.code == 207 && answer.text.contains("200 OK"))
            let read = try await client.dav("/dav/big.txt", DAVMethod.propfind, headers: [.depthHeader: "0"])
            #expect(
                read.text.contains(
                    "<X:colour xmlns:X=\"urn:example\">blue &amp; <p0:b xmlns:p0=\"urn:example\">bold</p0:b> 𐀀</X:colour>"
                ))
            let live = """
                <?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:example"><D:set><D:prop>\
                <D:getetag>x</D:getetag><Z:size>2</Z:size></D:prop></D:set></D:propertyupdate>
                """
            let refused = try await client.dav("/dav/big.txt", DAVMethod.proppatch, body: live)
            #expect(refused.text.contains("403 Forbidden") && refused.text.contains("424 Failed Dependency"))
            let after = try await client.dav("/dav/big.txt", DAVMethod.propfind, headers: [.depthHeader: "0"])
            #expect(!after.text.contains("size"))
            // The property goes with the file.
            _ = try await client.dav(
                "/dav/big.txt", DAVMethod.move, headers: [.destinationHeader: "/dav/moved.txt"])
            let moved = try await client.dav(
                "/dav/moved.txt", DAVMethod.propfind, headers: [.depthHeader: "0"])
            #expect(moved.text.contains("colour"))
            // And a folder's listing reads it too (the one-call read through the folder).
            let listed = try await client.dav("/dav/", DAVMethod.propfind, headers: [.depthHeader: "1"])
            #expect(listed.text.contains("blue &amp; <p0:b"))
        }
    }

    @Test(
        "dead properties set by hand in the file's attribute: the well-formed ones read back, the rest are left out, and every answer stays well-formed XML"
    )
    func handSetPropertiesAreChecked() async throws {
        let fixture = try WritableFixture.make()
        // What anyone with a shell can write: one good record, one written with the answer's own
        // `D` prefix, and five that would break the answer if copied into it.
        let records: [(String, String, String)] = [
            ("urn:x", "good", "fine &amp; dandy"),
            ("urn:x", "prefixed", "<D:href>/a</D:href>"),
            ("urn:x", "escape", "</X:escape><D:href>/etc/passwd</D:href><X:escape xmlns:X=\"urn:x\">"),
            ("urn:x", "unclosed", "<a>"),
            ("urn:x", "bad name\"/><x", "v"),
            ("urn:x", "control", "\u{1}"),
            ("urn:x", "doctype", "<!DOCTYPE a [<!ENTITY e \"x\">]>&e;"),
        ]
        var bytes: [UInt8] = []
        for (namespace, local, value) in records {
            bytes += Array(namespace.utf8) + [0] + Array(local.utf8) + [0] + Array(value.utf8) + [0]
        }
        let path = fixture.folder.path("big.txt")
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let stored = bytes.withUnsafeBytes {
            cft_set_attribute(descriptor, "user.browsey.dav", $0.baseAddress, UInt($0.count))
        }
        try #require(stored == 0, "this file system keeps no user attributes")
        try await fixture.withClient { client in
            for (uri, depth, body) in [
                ("/dav/big.txt", "0", nil), ("/dav/", "1", nil),
                ("/dav/big.txt", "0", "<D:propfind xmlns:D=\"DAV:\"><D:propname/></D:propfind>"),
                (
                    "/dav/big.txt", "0",
                    "<D:propfind xmlns:D=\"DAV:\" xmlns:Z=\"urn:x\"><D:prop><Z:good/><Z:escape/></D:prop></D:propfind>"
                ),
            ] {
                let answer = try await client.dav(
                    uri, DAVMethod.propfind, headers: [.depthHeader: depth], body: body)
                #expect(answer.status.code == 207)
                #expect(throws: Never.self) { try DAVXMLParser.parse(Array(answer.body)) }
                #expect(answer.text.contains("good"))
                #expect(!answer.text.contains("passwd") && !answer.text.contains("unclosed"))
                #expect(!answer.text.contains("bad name") && !answer.text.contains("control"))
                #expect(!answer.text.contains("doctype"))
                if body == nil {
                    #expect(answer.text.contains("fine &amp; dandy"))
                    #expect(answer.text.contains("<p0:href xmlns:p0=\"DAV:\">/a</p0:href>"))
                }
            }
        }
    }

    @Test("a locked file takes writes only with its token in an If header, and UNLOCK frees it")
    func exclusiveLock() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let locked = try await client.dav(
                "/dav/big.txt", DAVMethod.lock, headers: [.init("Timeout")!: "Second-600"], body: lockBody)
            #expect(locked.status == .ok)
            let token = try #require(locked.headers[.lockTokenHeader])
            #expect(locked.text.contains("<D:timeout>Second-"))
            #expect(try await client.dav("/dav/big.txt", .put, body: "no token").status.code == 423)
            #expect(try await client.dav("/dav/big.txt", .delete).status.code == 423)
            #expect(try await client.dav("/dav/big.txt", DAVMethod.lock, body: lockBody).status.code == 423)
            #expect(
                try await client.dav(
                    "/dav/big.txt", .put, headers: [.ifHeader: "(<opaquelocktoken:wrong>)"], body: "x"
                )
                .status == .preconditionFailed)
            #expect(
                try await client.dav("/dav/big.txt", .put, headers: [.ifHeader: "(\(token))"], body: "mine")
                    .status == .noContent)
            let discovered = try await client.dav(
                "/dav/big.txt", DAVMethod.propfind, headers: [.depthHeader: "0"])
            #expect(discovered.text.contains(String(token.dropFirst().dropLast())))
            #expect(
                try await client.dav("/dav/big.txt", DAVMethod.unlock, headers: [.lockTokenHeader: token])
                    .status == .noContent)
            #expect(try await client.dav("/dav/big.txt", .put, body: "free").status == .noContent)
        }
        #expect(fixture.text("big.txt") == "free")
    }

    @Test(
        "a deep lock on a folder protects new names in it; shared locks coexist; a LOCK on nothing makes an empty file"
    )
    func collectionAndSharedLocks() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let folder = try await client.dav(
                "/dav/docs", DAVMethod.lock, headers: [.depthHeader: "infinity"], body: lockBody)
            let token = try #require(folder.headers[.lockTokenHeader])
            #expect(try await client.dav("/dav/docs/new.txt", .put, body: "x").status.code == 423)
            #expect(
                try await client.dav("/dav/docs/new.txt", .put, headers: [.ifHeader: "(\(token))"], body: "x")
                    .status == .created)
            let shared = lockBody.replacingOccurrences(of: "<D:exclusive/>", with: "<D:shared/>")
            #expect(try await client.dav("/dav/code", DAVMethod.lock, body: shared).status == .ok)
            #expect(try await client.dav("/dav/code", DAVMethod.lock, body: shared).status == .ok)
            #expect(try await client.dav("/dav/code", DAVMethod.lock, body: lockBody).status.code == 423)
            #expect(
                try await client.dav("/dav/unmapped.txt", DAVMethod.lock, body: lockBody).status == .created)
        }
        #expect(fixture.text("unmapped.txt") == "")
    }

    @Test(
        "Basic with the token as the password opens WebDAV where Basic is allowed, and a refusal challenges with Basic"
    )
    func basicAuthentication() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.token = "sesame"
        configuration.davAllowsInsecureBasic = true
        let good = "Basic " + Data("anyone:sesame".utf8).base64EncodedString()
        let bad = "Basic " + Data("anyone:wrong".utf8).base64EncodedString()
        try await fixture.withClient(configuration) { client in
            let refused = try await client.dav(
                "/dav/", DAVMethod.propfind, headers: [.depthHeader: "0", .authorization: bad])
            #expect(refused.status == .unauthorized)
            #expect(refused.headers[.wwwAuthenticate]?.hasPrefix("Basic ") == true)
            let allowed = try await client.dav(
                "/dav/", DAVMethod.propfind, headers: [.depthHeader: "0", .authorization: good])
            #expect(allowed.status.code == 207)
            // Basic is WebDAV's only: the API still wants the bearer token.
            #expect(
                try await client.ask("/api/list", headers: [.authorization: good]).status == .unauthorized)
        }
        configuration.davAllowsInsecureBasic = false
        try await fixture.withClient(configuration) { client in
            // In process there is no loopback connection: plain HTTP from elsewhere, Basic ignored.
            let answer = try await client.dav(
                "/dav/", DAVMethod.propfind, headers: [.depthHeader: "0", .authorization: good])
            #expect(answer.status == .unauthorized)
            #expect(answer.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
        }
    }

    @Test("with accounts, Basic takes a user's session token as the password, only with that user's name")
    func basicWithAccounts() async throws {
        let fixture = try PeopleFixture.make()
        var configuration = fixture.configuration()
        configuration.davAllowsInsecureBasic = true
        try await fixture.withClient(configuration) { client in
            let bearer = try await client.signIn("bob")[.authorization] ?? ""
            let token = String(bearer.dropFirst("Bearer ".count))
            func basic(_ user: String, _ password: String) -> HTTPFields {
                [.authorization: "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()]
            }
            let asBob = try await client.dav("/dav/Team/plan.txt", .get, headers: basic("bob", token))
            #expect(asBob.status == .ok && asBob.text == "plan", "bob reads his team's file")
            let written = try await client.dav(
                "/dav/Team/notes.txt", .put, headers: basic("bob", token), body: "new")
            #expect(written.status == .created, "and writes where he may")
            for (user, password) in [
                ("carol", token), ("bob", "bob-secret"), ("bob", String(repeating: "0", count: 64)),
            ] {
                let refused = try await client.dav("/dav/Team/plan.txt", .get, headers: basic(user, password))
                #expect(refused.status == .unauthorized, "\(user) with \(password.prefix(8))…")
                #expect(refused.headers[.wwwAuthenticate]?.hasPrefix("Basic ") == true)
            }
            let anonymous = try await client.dav("/dav/Public/readme.txt", .get)
            #expect(anonymous.status == .ok, "what everyone may read needs no sign-in")
        }
    }

    @Test("--no-dav leaves /dav/ to the web UI's routes: nothing WebDAV answers")
    func turnedOff() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.servesWebDAV = false
        try await fixture.withClient(configuration) { client in
            let answer = try await client.dav("/dav/", DAVMethod.propfind, headers: [.depthHeader: "0"])
            #expect(answer.status.code != 207)
            #expect(try await client.dav("/dav/", .options).headers[.davHeader] == nil)
        }
    }
}
