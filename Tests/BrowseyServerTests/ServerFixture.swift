import BrowseyAPI
import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// A served folder with a known tree, and helpers to ask the in-process router.
struct ServerFixture {
    let folder: TemporaryFolder
    /// A folder next to the root, holding what must never be reachable.
    let outside: TemporaryFolder

    /// The tree: documents with awkward names, code, an image, a hidden file, an ignored file,
    /// a symlink inside and one leading out.
    static func make() throws -> ServerFixture {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder(prefix: "browsey-outside")
        try outside.file("secret.txt", "TOP SECRET OUTSIDE")
        try folder.file("docs/notes #1.md", "# Notes\n")
        try folder.file("docs/100% done.txt", "done")
        try folder.file("docs/café.txt", "crème")
        try folder.file("code/main.swift", "print(\"hi\")\n")
        try folder.file("code/server.py", "print('hi')\n")
        try folder.file("video/clip.mp4", [0, 0, 0, 0x18] + Array("ftypmp42".utf8))
        try folder.file("binary.bin", [0, 1, 2, 3, 255])
        try folder.file(".env", "SECRET=1")
        try folder.file("build.log", "log")
        try folder.file("big.txt", Array(repeating: UInt8(ascii: "a"), count: 1000))
        try folder.file("Makefile", "all:\n\ttrue\n")
        try folder.file("image.png", pngHeader(width: 640, height: 480))
        try folder.symlink("inside-link", to: "docs")
        try folder.symlink("escape", to: outside.path)
        try folder.symlink("escape-file.txt", to: outside.path("secret.txt"))
        return ServerFixture(folder: folder, outside: outside)
    }

    /// A ``Swapper`` of the folder `name` and a link beside it, `name-out`, to ``outside``
    /// (whose `secret.txt` holds 18 bytes).
    func swapperOfFolderAndLinkOut(_ name: String) throws -> Swapper {
        _ = try folder.symlink(name + "-out", to: outside.path)
        return Swapper(in: folder.path, swapping: name, with: name + "-out")
    }

    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        return bytes + [8, 6, 0, 0, 0]
    }

    func configuration(
        readOnly: Bool = true, showsHidden: Bool = false, ignored: [String] = ["*.log"],
        allowsSymlinks: Bool = false,
        trashFolder: String? = nil
    ) -> ServerConfiguration {
        ServerConfiguration(
            root: folder.path, host: "127.0.0.1", port: 0, readOnly: readOnly, showsHidden: showsHidden,
            ignoredNames: ignored, allowsSymlinks: allowsSymlinks, trashFolder: trashFolder)
    }

    func withClient(
        _ configuration: ServerConfiguration? = nil,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        // The whole application (its services run too), its downloads written as plain bodies.
        var configuration = configuration ?? self.configuration()
        configuration.sendsFilesBySendfile = false
        let app = try FileServer.application(configuration)
        try await app.test(.router, body)
    }
}

/// What a test reads back from a response.
struct Answer {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder.browsey().decode(type, from: body)
    }

    var error: String? { (try? decode(ErrorResponse.self))?.error }

    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
}

extension TestClientProtocol {
    func ask(
        _ uri: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:]
    ) async throws -> Answer {
        try await execute(uri: uri, method: method, headers: headers) { response in
            Answer(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        }
    }
}

extension TestClientProtocol {
    /// POSTs `value` as JSON (or `body` as it is, with `contentType`).
    func post(
        _ uri: String, _ value: some Encodable, headers: HTTPFields = [:],
        contentType: String = "application/json"
    ) async throws -> Answer {
        let data = try JSONEncoder.browsey().encode(value)
        return try await post(uri, bytes: Array(data), headers: headers, contentType: contentType)
    }

    /// POSTs raw bytes.
    func post(
        _ uri: String, bytes: [UInt8], headers: HTTPFields = [:], contentType: String
    ) async throws -> Answer {
        var fields = headers
        fields[.contentType] = contentType
        return try await execute(uri: uri, method: .post, headers: fields, body: ByteBuffer(bytes: bytes)) {
            response in
            Answer(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        }
    }
}

/// Percent-encodes a query value completely.
func q(_ value: String) -> String {
    value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
}
