import BrowseyAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import BrowseyServer

/// A `multipart/form-data` body as a browser builds it.
struct FormBody {
    static let boundary = "----BrowseyBoundary7MA4YWxkTrZu0gW"
    var bytes: [UInt8] = []

    mutating func file(_ filename: String, _ contents: [UInt8], field: String = "files") {
        bytes += Array(
            "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(filename)\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                .utf8)
        bytes += contents + [13, 10]
    }

    mutating func field(_ name: String, _ value: String) {
        bytes += Array(
            "--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }

    func closed() -> [UInt8] { bytes + Array("--\(Self.boundary)--\r\n".utf8) }

    static let contentType = "multipart/form-data; boundary=\(boundary)"
}

/// What a parser run saw: each part's headers and bytes.
func parse(
    _ body: [UInt8], contentType: String = FormBody.contentType, chunks: [Int]
) throws -> [([String: String], [UInt8])] {
    var parser = try #require(MultipartParser(contentType: contentType))
    var parts: [([String: String], [UInt8])] = []
    var offset = 0
    var index = 0
    while offset < body.count {
        let size = max(1, chunks[index % chunks.count])
        let end = min(body.count, offset + size)
        try parser.feed(ByteBuffer(bytes: body[offset..<end])) { event in
            switch event {
            case .partStart(let headers): parts.append((headers, []))
            case .body(let piece): parts[parts.count - 1].1 += Array(piece.readableBytesView)
            case .partEnd: break
            }
        }
        offset = end
        index += 1
    }
    try parser.finish()
    return parts
}

@Suite("The multipart parser")
struct MultipartParserTests {
    /// Bytes that look like the start of a boundary, again and again.
    static let tricky: [UInt8] =
        Array("a\r\n--\r\n----BrowseyBoundary7MA4YWxkTrZu0g\r\n-".utf8) + [0, 13, 10, 45, 45]
        + Array(repeating: 13, count: 70)

    @Test(
        "finds the same parts however the body is cut into chunks",
        arguments: [[1], [2, 3], [7], [64], [1000], [13, 1, 90]])
    func chunking(chunks: [Int]) throws {
        var form = FormBody()
        form.file("a.bin", Self.tricky)
        form.field("note", "plain field")
        form.file("empty.txt", [])
        form.file("b.bin", Array(0...255))
        let parts = try parse(form.closed(), chunks: chunks)
        #expect(parts.count == 4)
        #expect(parts.map(\.1) == [Self.tricky, Array("plain field".utf8), [], Array(0...255)])
        #expect(MultipartParser.disposition(parts[0].0["content-disposition"] ?? "").filename == "a.bin")
        #expect(MultipartParser.disposition(parts[1].0["content-disposition"] ?? "").filename == nil)
    }

    @Test("reads quoted boundaries, RFC 5987 names and quotes inside names; refuses broken bodies")
    func details() throws {
        #expect(MultipartParser.boundary(in: "multipart/form-data; boundary=\"a b;c\"") == "a b;c")
        #expect(MultipartParser.boundary(in: "application/json") == nil)
        #expect(MultipartParser.boundary(in: "multipart/form-data") == nil)
        let extended = MultipartParser.disposition(
            "form-data; name=\"f\"; filename=\"x.txt\"; filename*=UTF-8''caf%C3%A9%20%231.txt")
        #expect(extended.filename == "café #1.txt" && extended.name == "f")
        #expect(
            MultipartParser.disposition("form-data; name=\"f\"; filename=\"semi;colon %22q%22.txt\"").filename
                == "semi;colon \"q\".txt")
        #expect(
            MultipartParser.disposition("form-data; name=\"f\"; filename=\"C:\\dir\\a.txt\"").filename
                == "C:\\dir\\a.txt")
        var unfinished = FormBody()
        unfinished.file("a.txt", Array("abc".utf8))
        #expect(throws: MultipartParser.Failure.self) { try parse(unfinished.bytes, chunks: [5]) }
        let hugeHeaders = Array("--\(FormBody.boundary)\r\nX: \(String(repeating: "h", count: 20_000))".utf8)
        #expect(throws: MultipartParser.Failure.self) { try parse(hugeHeaders, chunks: [4096]) }
    }
}

@Suite("Uploads from a browser form")
struct FormUploadTests {
    func post(
        _ client: some TestClientProtocol, _ uri: String, _ body: [UInt8], headers: HTTPFields = [:]
    ) async throws -> Answer {
        try await client.post(uri, bytes: body, headers: headers, contentType: FormBody.contentType)
    }

    @Test("several files land whole in the folder; a taken name is 409 for that file only")
    func severalFiles() async throws {
        let fixture = try WritableFixture.make()
        var form = FormBody()
        form.file("photo #1 é.jpg", MultipartParserTests.tricky)
        form.file("café.txt", Array("clash".utf8))
        form.file("../../../escaped.txt", Array("stays inside".utf8))
        form.file("C:\\Users\\me\\windows.txt", Array("windows".utf8))
        let body = form.closed()
        try await fixture.withClient { client in
            let answer = try await post(client, "/api/upload?path=%2Fdocs", body)
            #expect(answer.status == .conflict)
            let batch = try answer.decode(UploadBatchResponse.self)
            #expect(
                batch.files.map(\.path) == ["/docs/photo #1 é.jpg", "/docs/escaped.txt", "/docs/windows.txt"])
            #expect(batch.errors.map(\.path) == ["/docs/café.txt"])
            let renamed = try await post(client, "/api/upload?path=%2Fdocs&onConflict=rename", body)
            #expect(renamed.status == .created)
            #expect(
                try renamed.decode(UploadBatchResponse.self).files.first?.path == "/docs/photo #1 é 1.jpg")
        }
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: fixture.folder.path("docs/photo #1 é.jpg"))))
                == MultipartParserTests.tricky)
        #expect(fixture.text("docs/café.txt") == "crème" && fixture.text("docs/café 1.txt") == "clash")
        #expect(fixture.text("docs/escaped.txt") == "stays inside" && !fixture.exists("../escaped.txt"))
    }

    @Test("refused: read-only, another site's page, not multipart, a hidden name, a folder outside")
    func refusals() async throws {
        let fixture = try WritableFixture.make()
        var form = FormBody()
        form.file("x.txt", [1, 2, 3])
        let body = form.closed()
        let cut = Array(form.bytes.prefix(40))
        var hidden = FormBody()
        hidden.file(".bashrc", [1])
        let hiddenBody = hidden.closed()
        try await fixture.base.withClient { client in
            let answer = try await post(client, "/api/upload?path=%2F", body)
            #expect(answer.status == .forbidden)
        }
        try await fixture.withClient(fixture.configuration(allowsSymlinks: true)) { client in
            let crossSite = try await post(
                client, "/api/upload?path=%2F", body, headers: [.origin: "http://evil.example"])
            #expect(crossSite.status == .forbidden && crossSite.error == "Cross-site request refused")
            let json = try await client.post("/api/upload?path=%2F", PathRequest(path: "/"))
            #expect(json.status == .unsupportedMediaType)
            let hiddenAnswer = try await post(client, "/api/upload?path=%2F", hiddenBody)
            #expect(hiddenAnswer.status == .conflict)
            #expect(try hiddenAnswer.decode(UploadBatchResponse.self).errors.first?.code == "hiddenName")
            let outside = try await post(client, "/api/upload?path=%2Fescape", body)
            #expect(outside.status == .forbidden)
            let broken = try await post(client, "/api/upload?path=%2F", cut)
            #expect(broken.status == .badRequest)
        }
        #expect(!fixture.exists("x.txt") && !fixture.exists(".bashrc"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.base.outside.path) == ["secret.txt"])
    }

    @Test("a write from the server's own page is accepted (same origin)")
    func sameOrigin() {
        #expect(WriteController.isSameOrigin("http://localhost:8080", authority: "localhost:8080"))
        #expect(WriteController.isSameOrigin("http://192.168.1.5", authority: "192.168.1.5:80"))
        #expect(!WriteController.isSameOrigin("http://evil.example:8080", authority: "localhost:8080"))
        #expect(!WriteController.isSameOrigin("null", authority: "localhost:8080"))
        #expect(!WriteController.isSameOrigin("https://localhost:8080", authority: nil))
    }
}
