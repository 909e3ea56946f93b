import BrowseyAPI
import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension TestClientProtocol {
    func put(_ uri: String, _ bytes: [UInt8], headers: HTTPFields = [:]) async throws -> Answer {
        var fields = headers
        if fields[.contentType] == nil { fields[.contentType] = "application/octet-stream" }
        return try await execute(uri: uri, method: .put, headers: fields, body: ByteBuffer(bytes: bytes)) {
            response in
            Answer(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        }
    }
}

@Suite("Uploads")
struct UploadTests {
    static func pattern(_ count: Int, seed: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &+ seed) &* 131 &+ $0 >> 9) }
    }

    @Test("a PUT makes a new file with an awkward name, whole, and answers 201 with its ETag")
    func newFile() async throws {
        let fixture = try WritableFixture.make()
        let bytes = Self.pattern(300_000)
        try await fixture.withClient { client in
            let answer = try await client.put("/api/file?path=\(q("/docs/scan #2 (100%) é.pdf"))", bytes)
            #expect(answer.status == .created && answer.headers[.eTag] != nil)
            let body = try answer.decode(UploadResponse.self)
            #expect(body.path == "/docs/scan #2 (100%) é.pdf" && body.size == 300_000 && body.complete)
            let listing = try await client.ask("/api/list?path=%2Fdocs").decode(ListResponse.self)
            #expect(listing.items.contains { $0.name == "scan #2 (100%) é.pdf" && $0.size == 300_000 })
        }
        #expect(
            Array(
                try Data(contentsOf: URL(fileURLWithPath: fixture.folder.path("docs/scan #2 (100%) é.pdf"))))
                == bytes)
        let hiddenLeftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path("docs"))
            .filter { $0.hasPrefix(".") }
        #expect(hiddenLeftovers.isEmpty)
    }

    @Test("an existing file is replaced only when asked; otherwise 409, or a free name when asked")
    func neverClobbers() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let clash = try await client.put("/api/file?path=%2Fdocs%2Fcaf%C3%A9.txt", Array("new".utf8))
            #expect(clash.status == .conflict && clash.error == "File already exists")
            let renamed = try await client.put(
                "/api/file?path=%2Fdocs%2Fcaf%C3%A9.txt&onConflict=rename", Array("new".utf8))
            #expect(renamed.status == .created)
            #expect(try renamed.decode(UploadResponse.self).path == "/docs/café 1.txt")
            let stale = try await client.put(
                "/api/file?path=%2Fdocs%2Fcaf%C3%A9.txt", Array("new".utf8), headers: [.ifMatch: "\"nope\""])
            #expect(stale.status == .preconditionFailed)
            let etag = try #require(
                try await client.ask("/api/file?path=%2Fdocs%2Fcaf%C3%A9.txt").headers[.eTag])
            let matched = try await client.put(
                "/api/file?path=%2Fdocs%2Fcaf%C3%A9.txt", Array("matched".utf8), headers: [.ifMatch: etag])
            #expect(matched.status == .created)
            let forced = try await client.put(
                "/api/file?path=%2Fdocs%2F100%25%20done.txt&overwrite=1", Array("forced".utf8))
            #expect(forced.status == .created)
        }
        #expect(fixture.text("docs/café.txt") == "matched" && fixture.text("docs/café 1.txt") == "new")
        #expect(fixture.text("docs/100% done.txt") == "forced")
    }

    @Test("uploads are refused read-only, outside the root, and into folders that do not exist")
    func refusals() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.base.withClient { client in
            let answer = try await client.put("/api/file?path=%2Fnew.txt", [1])
            #expect(answer.status == .forbidden)
        }
        try await fixture.withClient(fixture.configuration(allowsSymlinks: true)) { client in
            for path in ["/../x.txt", "/escape/x.txt", "/escape-file.txt", "/.env", "/"] {
                let answer = try await client.put("/api/file?path=\(q(path))&overwrite=1", [1])
                #expect(
                    [.badRequest, .forbidden, .notFound].contains(answer.status), "\(path): \(answer.status)")
            }
            #expect(try await client.put("/api/file?path=%2Fnowhere%2Fx.txt", [1]).status == .notFound)
            #expect(try await client.put("/api/file", [1]).status == .badRequest)
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.base.outside.path) == ["secret.txt"])
        #expect(
            try String(contentsOfFile: fixture.base.outside.path("secret.txt"), encoding: .utf8)
                == "TOP SECRET OUTSIDE")
        #expect(fixture.text(".env") == "SECRET=1")
    }

    @Test("a resumable upload continues from the bytes the server holds and lands only when complete")
    func resumable() async throws {
        let fixture = try WritableFixture.make()
        let bytes = Self.pattern(3_000, seed: 7)
        let uri = "/api/file?path=\(q("/docs/video 1.mov"))"
        try await fixture.withClient { client in
            let first = try await client.put(
                uri, Array(bytes[0..<1000]), headers: [.contentRange: "bytes 0-999/3000"])
            #expect(first.status == .accepted)
            #expect(try first.decode(UploadResponse.self).received == 1000)
            #expect(!fixture.exists("docs/video 1.mov"))
            let status = try await client.ask("/api/upload?path=\(q("/docs/video 1.mov"))&size=3000")
            #expect(try status.decode(UploadResponse.self).received == 1000)
            let wrong = try await client.put(
                uri, Array(bytes[500..<1000]), headers: [.contentRange: "bytes 500-999/3000"])
            #expect(wrong.status == .rangeNotSatisfiable)
            #expect(try wrong.decode(ErrorResponse.self).size == 1000)
            let garbled = try await client.put(uri, [1], headers: [.contentRange: "bytes 9-1/3000"])
            #expect(garbled.status == .badRequest)
            let last = try await client.put(
                uri, Array(bytes[1000...]), headers: [.contentRange: "bytes 1000-2999/3000"])
            #expect(last.status == .created)
        }
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: fixture.folder.path("docs/video 1.mov"))))
                == bytes)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path("docs"))
            .filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test("an upload given up by its sender is gone at once: its part file, and the bytes it held")
    func cancelled() async throws {
        let fixture = try WritableFixture.make()
        let uri = "/api/file?path=\(q("/docs/big.iso"))"
        let status = "/api/upload?path=\(q("/docs/big.iso"))&size=3000"
        try await fixture.withClient { client in
            let first = try await client.put(
                uri, Self.pattern(1_000, seed: 3), headers: [.contentRange: "bytes 0-999/3000"])
            #expect(first.status == .accepted)
            let parts = { () throws -> [String] in
                try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path("docs"))
                    .filter { $0.hasSuffix(".part") }
            }
            #expect(try parts().count == 1)
            let cancel = try await client.ask(status, method: .delete)
            #expect(cancel.status == .ok)
            #expect(try cancel.decode(UploadResponse.self).received == 0)
            #expect(try parts().isEmpty)
            #expect(try await client.ask(status).decode(UploadResponse.self).received == 0)
            #expect(try await client.ask(status, method: .delete).status == .notFound)
        }
        #expect(!fixture.exists("docs/big.iso"))
    }

    @Test("a client that goes away mid-upload leaves no file under the real name, and no temporary file")
    func interrupted() async throws {
        let fixture = try WritableFixture.make()
        let app = try FileServer.application(fixture.configuration())
        try await app.test(.live) { client in
            // The test client's connection asks first: a connection that stays silent past the
            // header timeout is closed, and a loaded machine can spend that long on the upload.
            #expect(try await client.ask("/api/health").status == .ok)
            let port = try #require(client.port)
            let socket = try #require(RawSocket(port: port))
            socket.send(
                Array(
                    "PUT /api/file?path=%2Fdocs%2Fhalf.bin HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4000000\r\n\r\n"
                        .utf8))
            socket.send(Self.pattern(1_000_000))
            try await Task.sleep(for: .milliseconds(200))
            socket.close()
            try await Task.sleep(for: .milliseconds(300))
            // The server is still fine afterwards.
            #expect(try await client.ask("/api/health").status == .ok)
        }
        #expect(!fixture.exists("docs/half.bin"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path("docs"))
            .filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }
}

@Suite("Uploads and writes where something is in the way")
struct UploadObstacleTests {
    @Test("a PUT onto a folder is 409 isADirectory, plain or resumable, and leaves no part file")
    func putOntoFolder() async throws {
        let fixture = try WritableFixture.make()
        _ = try fixture.folder.folder("docs/box")
        try await fixture.withClient { client in
            for headers: HTTPFields in [[:], [.contentRange: "bytes 0-2/3"]] {
                for query in ["", "&overwrite=1"] {
                    let answer = try await client.put(
                        "/api/file?path=%2Fdocs%2Fbox\(query)", Array("abc".utf8), headers: headers)
                    #expect(
                        answer.status == .conflict && answer.json["code"] as? String == "isADirectory",
                        "\(headers) \(query)")
                }
                var star = headers
                star[.ifMatch] = "*"
                let answer = try await client.put(
                    "/api/file?path=%2Fdocs%2Fbox", Array("abc".utf8), headers: star)
                #expect(answer.status == .conflict && answer.json["code"] as? String == "isADirectory")
            }
        }
        #expect(try fixture.folder.names(in: "docs").filter { $0.hasPrefix(".") } == [])
    }

    @Test("a link that leads out can be renamed and deleted: the link goes, its target stays")
    func outwardLinks() async throws {
        let fixture = try WritableFixture.make()
        let outside = try TemporaryFolder(prefix: "browsey-outside")
        try outside.file("kept.txt", "kept")
        _ = try fixture.folder.symlink("docs/away", to: outside.path("kept.txt"))
        try await fixture.withClient { client in
            let renamed = try await client.post(
                "/api/rename", RenameRequest(path: "/docs/away", newName: "elsewhere"))
            #expect(renamed.status == .ok)
            #expect(try await client.ask("/api/file?path=%2Fdocs%2Felsewhere").status == .forbidden)
            let deleted = try await client.post("/api/delete", PathRequest(path: "/docs/elsewhere"))
            #expect(deleted.status == .ok)
            let saved = try await client.post(
                "/api/save",
                SaveRequest(path: "/docs/elsewhere", content: "x", baseModified: Date(), baseSize: 4))
            #expect(saved.status == .notFound)
        }
        #expect(!fixture.exists("docs/away") && !fixture.exists("docs/elsewhere"))
        #expect(try outside.text("kept.txt") == "kept")
    }
}
