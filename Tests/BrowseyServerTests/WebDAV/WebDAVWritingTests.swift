import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("WebDAV writes never lose data")
struct WebDAVWritingTests {
    @Test("a read-only server refuses every WebDAV write with 403 and changes nothing")
    func readOnly() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client throws in
            #expect(try await client.dav("/dav/new.txt", .put, body: "x").status == .forbidden)
            #expect(try await client.dav("/dav/big.txt", .delete).status == .forbidden)
            #expect(try await client.dav("/dav/newfolder", DAVMethod.mkcol).status == .forbidden)
            #expect(
                try await client.dav(
                    "/dav/big.txt", DAVMethod.move, headers: [.destinationHeader: "/dav/moved.txt"]
                )
                .status == .forbidden)
            #expect(try await client.dav("/dav/big.txt", DAVMethod.lock, body: lockBody).status == .forbidden)
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("new.txt")))
        #expect(FileManager.default.fileExists(atPath: fixture.folder.path("big.txt")))
    }

    @Test("PUT creates (201), replaces (204), leaves no temporary file, and needs an existing folder (409)")
    func put() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client throws in
            let created = try await client.dav("/dav/docs/new%20file.txt", .put, body: "first")
            #expect(created.status == .created)
            #expect(created.headers[.eTag] != nil)
            #expect(fixture.text("docs/new file.txt") == "first")
            #expect(
                try await client.dav("/dav/docs/new%20file.txt", .put, body: "second").status == .noContent)
            #expect(fixture.text("docs/new file.txt") == "second")
            #expect(try await client.dav("/dav/missing/x.txt", .put, body: "x").status == .conflict)
            #expect(try await client.dav("/dav/docs", .put, body: "x").status == .methodNotAllowed)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path("docs"))
        #expect(names.allSatisfy { !$0.hasPrefix(".") })
    }

    @Test("MKCOL makes a folder, 405 when the name is taken, 409 without a parent")
    func mkcol() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client throws in
            #expect(try await client.dav("/dav/fresh", DAVMethod.mkcol).status == .created)
            #expect(try await client.dav("/dav/fresh", DAVMethod.mkcol).status == .methodNotAllowed)
            #expect(try await client.dav("/dav/no/such", DAVMethod.mkcol).status == .conflict)
        }
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: fixture.folder.path("fresh"), isDirectory: &isFolder)
                && isFolder.boolValue)
    }

    @Test("DELETE moves the item into the trash, and never deletes the root")
    func deleteIntoTrash() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client throws in
            #expect(try await client.dav("/dav/docs", .delete).status == .noContent)
            #expect(try await client.dav("/dav/", .delete).status == .forbidden)
            #expect(try await client.dav("/dav/docs", .delete).status == .notFound)
        }
        #expect(!fixture.exists("docs"))
        let trashed = try FileManager.default.contentsOfDirectory(atPath: fixture.trash.path)
        #expect(trashed.contains { $0.hasSuffix(".json") })
    }

    @Test("MOVE onto an existing name with Overwrite: F is 412 and both files stay as they were")
    func moveWithoutOverwrite() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client throws in
            let answer = try await client.dav(
                "/dav/binary.bin", DAVMethod.move,
                headers: [.destinationHeader: "http://localhost/dav/big.txt", .overwriteHeader: "F"])
            #expect(answer.status == .preconditionFailed)
        }
        #expect(fixture.exists("binary.bin"))
        #expect(fixture.text("big.txt")?.count == 1000)
    }

    @Test("MOVE and COPY to a new name answer 201; over an existing one 204, the old one kept in the trash")
    func moveAndCopy() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client throws in
            let copied = try await client.dav(
                "/dav/docs", DAVMethod.copy, headers: [.destinationHeader: "/dav/docs%20copy"])
            #expect(copied.status == .created)
            #expect(fixture.text("docs copy/café.txt") == "crème")
            let moved = try await client.dav(
                "/dav/Makefile", DAVMethod.move, headers: [.destinationHeader: "/dav/code/main.swift"])
            #expect(moved.status == .noContent)
        }
        #expect(!fixture.exists("Makefile"))
        #expect(fixture.text("code/main.swift") == "all:\n\ttrue\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.trash.path).count == 2)
    }

    @Test("hostile Destination headers are refused and nothing is written outside the root")
    func hostileDestinations() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client throws in
            for destination in [
                "/dav/%2e%2e/escaped.txt", "/dav/docs/..%2F..%2Fescaped.txt", "/dav/../escaped.txt",
                "/dav/escape/escaped.txt", "/api/escaped.txt", "/dav/a%00b", "/dav/.hidden",
                "http://evil.example/dav/x.txt", "not a url",
            ] {
                let answer = try await client.dav(
                    "/dav/big.txt", DAVMethod.copy, headers: [.destinationHeader: destination])
                #expect(
                    [400, 403, 404, 409, 502].contains(answer.status.code), "\(destination): \(answer.status)"
                )
            }
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.base.outside.path("escaped.txt")))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("../escaped.txt")))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.base.outside.path) == ["secret.txt"])
    }

    @Test(
        "a body with a document type (an XML bomb, an external entity) is refused with 400 and reads nothing")
    func hostileXML() async throws {
        let fixture = try WritableFixture.make()
        let bomb = """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;">\
            <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><D:propfind xmlns:D="DAV:"><D:prop>&lol3;</D:prop></D:propfind>
            """
        let external = """
            <?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file://\(fixture.base.outside.path("secret.txt"))">]>\
            <D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><Z:p xmlns:Z="urn:z">&xxe;</Z:p></D:prop></D:set></D:propertyupdate>
            """
        let deep = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        try await fixture.withClient { client throws in
            let first = try await client.dav(
                "/dav/", DAVMethod.propfind, headers: [.depthHeader: "0"], body: bomb)
            #expect(first.status == .badRequest)
            let second = try await client.dav("/dav/big.txt", DAVMethod.proppatch, body: external)
            #expect(second.status == .badRequest)
            let third = try await client.dav(
                "/dav/", DAVMethod.propfind, headers: [.depthHeader: "0"], body: deep)
            #expect(third.status == .badRequest)
            let props = try await client.dav("/dav/big.txt", DAVMethod.propfind, headers: [.depthHeader: "0"])
            #expect(!props.text.contains("TOP SECRET"))
        }
    }

    @Test("Finder's ._ files and .DS_Store are taken and dropped, so a copy from a Mac goes through")
    func finderMetadata() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client throws in
            #expect(
                try await client.dav("/dav/docs/._notes.md", DAVMethod.lock, body: lockBody).status == .ok)
            #expect(
                try await client.dav("/dav/docs/._notes.md", .put, body: "apple double").status == .created)
            #expect(try await client.dav("/dav/.DS_Store", .put, body: "store").status == .created)
            #expect(try await client.dav("/dav/docs/._notes.md", .delete).status == .noContent)
            #expect(
                try await client.dav("/dav/docs/._notes.md", DAVMethod.propfind, headers: [.depthHeader: "0"])
                    .status == .notFound)
        }
        #expect(!fixture.exists("docs/._notes.md"))
        #expect(!fixture.exists(".DS_Store"))
    }
}
