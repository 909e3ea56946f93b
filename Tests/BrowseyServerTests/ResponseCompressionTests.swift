import BrowseyAPI
import Foundation
import Testing

@testable import BrowseyServer

@Suite("JSON and text answers over 1 KiB are gzip-compressed for clients that accept it")
struct ResponseCompressionTests {
    @Test(
        "a big listing comes compressed to a client that accepts gzip, whole, and plain to one that does not")
    func bigListing() async throws {
        let fixture = try ServerFixture.make()
        for index in 0..<200 {
            try fixture.folder.file("many/file \(index).txt", "x")
        }
        try await fixture.withClient { client in
            let plain = try await client.ask("/api/list?path=%2Fmany")
            #expect(plain.status == .ok && plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.contentLength] == String(plain.body.count))
            let packed = try await client.ask(
                "/api/list?path=%2Fmany", headers: [.acceptEncoding: "gzip, deflate, br"])
            #expect(packed.headers[.contentEncoding] == "gzip")
            #expect(packed.headers[.vary] == "Accept-Encoding")
            #expect(
                packed.body.count * 4 < plain.body.count, "\(packed.body.count) of \(plain.body.count) bytes")
            #expect(try WebFolder.gunzip(packed.body) == Array(plain.body))
            let refused = try await client.ask(
                "/api/list?path=%2Fmany", headers: [.acceptEncoding: "gzip;q=0, identity"])
            #expect(refused.headers[.contentEncoding] == nil)
        }
    }

    @Test("small answers, HEAD requests and files are sent as they are")
    func untouched() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("big.json", String(repeating: "{}", count: 2000))
        try await fixture.withClient { client in
            let small = try await client.ask("/api/health", headers: [.acceptEncoding: "gzip"])
            #expect(small.headers[.contentEncoding] == nil)
            let head = try await client.ask(
                "/api/list?path=%2F", method: .head, headers: [.acceptEncoding: "gzip"])
            #expect(head.headers[.contentEncoding] == nil)
            let file = try await client.ask("/api/file?path=%2Fbig.json", headers: [.acceptEncoding: "gzip"])
            #expect(
                file.headers[.contentEncoding] == nil && file.body.count == 4000,
                "downloads keep their bytes and ranges")
        }
    }

    @Test("Accept-Encoding is read as HTTP says: any case, q=0 refuses, * allows")
    func acceptEncoding() {
        typealias Compression = ResponseCompression<FileServerContext>
        #expect(Compression.acceptsGzip(["gzip"]) && Compression.acceptsGzip(["br, GZip;q=0.5"]))
        #expect(Compression.acceptsGzip(["*"]) && Compression.acceptsGzip(["x-gzip"]))
        #expect(!Compression.acceptsGzip([]) && !Compression.acceptsGzip(["identity"]))
        #expect(!Compression.acceptsGzip(["gzip;q=0"]) && !Compression.acceptsGzip(["br, gzip; q=0.0"]))
        #expect(Compression.isCompressible("application/json; charset=utf-8"))
        #expect(Compression.isCompressible("text/plain") && !Compression.isCompressible("image/png"))
    }
}
