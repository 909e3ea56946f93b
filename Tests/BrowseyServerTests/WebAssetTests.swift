import BrowseyServer
import CompressNIO
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// The web UI's files as they are in the repository: what the server must answer with.
enum WebFolder {
    /// `Sources/BrowseyServer/Assets/web`, found from this file.
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/BrowseyServer/Assets/web").path

    /// Every file in it (dot-names skipped, as the build skips them), by name inside it.
    static func files() throws -> [(name: String, bytes: [UInt8])] {
        let names = try FileManager.default.subpathsOfDirectory(atPath: path).sorted()
        return try names.compactMap { name in
            var isFolder: ObjCBool = false
            guard !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isFolder),
                !isFolder.boolValue
            else { return nil }
            return (name, Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))))
        }
    }

    /// The address a file answers at.
    static func address(of name: String) -> String { name == "index.html" ? "/" : "/assets/" + name }

    /// The type a file must be served with.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last ?? "" {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }

    /// The bytes of a gzip stream, unpacked.
    static func gunzip(_ data: Data) throws -> [UInt8] {
        var buffer = ByteBuffer(bytes: data)
        var unpacked = try buffer.decompress(with: .gzip())
        return unpacked.readBytes(length: unpacked.readableBytes) ?? []
    }
}

@Suite("The web UI's files, built into the server")
struct WebAssetTests {
    @Test(
        "the page, the styles and every script module answer with their bytes, their type and a strong ETag")
    func everyFile() async throws {
        let files = try WebFolder.files()
        #expect(files.contains { $0.name == "index.html" } && files.contains { $0.name.hasSuffix(".js") })
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            for file in files {
                let answer = try await client.ask(WebFolder.address(of: file.name))
                #expect(answer.status == .ok, "\(file.name)")
                #expect(Array(answer.body) == file.bytes, "\(file.name)")
                #expect(answer.headers[.contentType] == WebFolder.contentType(of: file.name), "\(file.name)")
                let etag = try #require(answer.headers[.eTag], "\(file.name)")
                #expect(
                    etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count > 10, "a strong tag: \(etag)")
                #expect(answer.headers[.contentEncoding] == nil, "\(file.name)")
                #expect(answer.headers[.vary] == "Accept-Encoding", "\(file.name)")
                #expect(answer.headers[.cacheControl] == "no-cache", "\(file.name)")
            }
        }
    }

    @Test("different files have different ETags, and a file's ETag follows its bytes")
    func tagsDiffer() async throws {
        let files = try WebFolder.files()
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            var tags: Set<String> = []
            for file in files {
                tags.insert(
                    try #require(try await client.ask(WebFolder.address(of: file.name)).headers[.eTag]))
            }
            #expect(tags.count == files.count)
        }
    }

    @Test("a browser that holds either variant's ETag gets 304 with no body; any other tag gets the file")
    func notModified() async throws {
        let files = try WebFolder.files()
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            for file in files {
                let address = WebFolder.address(of: file.name)
                let plain = try #require(try await client.ask(address).headers[.eTag])
                let packed = try #require(
                    try await client.ask(address, headers: [.acceptEncoding: "gzip"]).headers[.eTag])
                for held in [plain, packed, "W/" + plain, "\"other\", " + plain, "*"] {
                    let again = try await client.ask(address, headers: [.ifNoneMatch: held])
                    #expect(again.status == .notModified && again.body.isEmpty, "\(file.name) \(held)")
                    #expect(again.headers[.eTag] == plain, "\(file.name)")
                }
                let other = try await client.ask(address, headers: [.ifNoneMatch: "\"other\""])
                #expect(other.status == .ok && Array(other.body) == file.bytes, "\(file.name)")
            }
        }
    }

    @Test("a client that accepts gzip gets the variant made at build time, which unpacks to the same bytes")
    func gzipWhenAccepted() async throws {
        let files = try WebFolder.files()
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            for file in files {
                let address = WebFolder.address(of: file.name)
                let plain = try await client.ask(address)
                for accepted in ["gzip", "gzip, deflate, br, zstd", "br;q=1.0, GZIP;q=0.5", "*"] {
                    let answer = try await client.ask(address, headers: [.acceptEncoding: accepted])
                    #expect(
                        answer.status == .ok && answer.headers[.contentEncoding] == "gzip",
                        "\(file.name) \(accepted)")
                    #expect(answer.body.count < file.bytes.count, "\(file.name)")
                    #expect(try WebFolder.gunzip(answer.body) == file.bytes, "\(file.name)")
                    #expect(answer.headers[.eTag] != plain.headers[.eTag], "a strong tag names one variant")
                    #expect(answer.headers[.vary] == "Accept-Encoding")
                    #expect(answer.headers[.contentType] == plain.headers[.contentType])
                }
                for refused in ["identity", "gzip;q=0", "deflate, br", "*;q=0", "br, *;q=0"] {
                    let answer = try await client.ask(address, headers: [.acceptEncoding: refused])
                    #expect(
                        answer.headers[.contentEncoding] == nil && Array(answer.body) == file.bytes,
                        "\(file.name) \(refused)")
                }
            }
        }
    }

    @Test("HEAD answers with GET's headers and no body, gzipped or not")
    func head() async throws {
        let files = try WebFolder.files()
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            for file in files {
                for headers: HTTPFields in [[:], [.acceptEncoding: "gzip"]] {
                    let address = WebFolder.address(of: file.name)
                    let get = try await client.ask(address, headers: headers)
                    let head = try await client.ask(address, method: .head, headers: headers)
                    #expect(head.status == .ok && head.body.isEmpty, "\(file.name)")
                    #expect(head.headers[.contentType] == get.headers[.contentType], "\(file.name)")
                    #expect(head.headers[.eTag] == get.headers[.eTag], "\(file.name)")
                    #expect(head.headers[.contentEncoding] == get.headers[.contentEncoding], "\(file.name)")
                    #expect(head.headers[.contentLength] == get.headers[.contentLength], "\(file.name)")
                    #expect(head.headers[.vary] == get.headers[.vary], "\(file.name)")
                }
            }
        }
    }

    @Test(
        "every other address is the page, under /assets/ too when no file has the name, and escapes find nothing"
    )
    func pageEverywhere() async throws {
        let page = try #require(try WebFolder.files().first { $0.name == "index.html" })
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            for address in [
                "/", "/docs", "/docs/sub/", "/assets", "/assets/", "/assets/nothing.js",
                "/assets/a%20folder/x",
                "/assets/../Package.swift", "/assets/%2e%2e/%2e%2e/Package.swift", "/assets/.hidden",
                "/assets//app.css",
            ] {
                let answer = try await client.ask(address)
                #expect(answer.status == .ok && Array(answer.body) == page.bytes, "\(address)")
                #expect(answer.headers[.contentSecurityPolicy] != nil, "\(address)")
            }
        }
    }

    @Test("the page's policy allows exactly our own scripts and styles: no inline code, no other origin")
    func pagePolicy() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let page = try await client.ask("/")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            let directives = policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(directives.contains("default-src 'self'"))
            #expect(
                !directives.contains { $0.hasPrefix("script-src") || $0.hasPrefix("style-src") },
                "scripts and styles fall back to 'self'")
            #expect(!policy.contains("unsafe") && !policy.contains("http:") && !policy.contains("https:"))
            // No inline script or style in the page: everything it runs is a file the policy allows.
            let html = page.text
            for script in html.components(separatedBy: "<script").dropFirst() {
                #expect(script.contains("src=\"/assets/"), "\(script.prefix(60))")
            }
            #expect(!html.contains("<style") && !html.contains(" style=\"") && !html.contains(" onclick="))
        }
    }
}

@Suite("The web UI's files, read from --web-root")
struct WebRootTests {
    /// A served folder, and a web root beside it holding a page and a script.
    static func make() throws -> (
        fixture: ServerFixture, web: TemporaryFolder, configuration: ServerConfiguration
    ) {
        let fixture = try ServerFixture.make()
        let web = try TemporaryFolder(prefix: "browsey-web")
        try web.file("index.html", "<!doctype html><title>one</title>")
        try web.file("app.js", "export const one = 1;\n")
        try web.file("modules/list.js", "export const list = [];\n")
        var configuration = fixture.configuration()
        configuration.webRoot = web.path
        return (fixture, web, configuration)
    }

    @Test("the files are read at each request: an edit shows at once, with a new ETag")
    func readEachTime() async throws {
        let (fixture, web, configuration) = try Self.make()
        try await fixture.withClient(configuration) { client in
            let first = try await client.ask("/docs")
            #expect(first.status == .ok && first.text == "<!doctype html><title>one</title>")
            #expect(
                first.headers[.contentType] == "text/html; charset=utf-8"
                    && first.headers[.contentSecurityPolicy] != nil)
            let script = try await client.ask("/assets/modules/list.js")
            #expect(
                script.text == "export const list = [];\n"
                    && script.headers[.contentType] == "text/javascript; charset=utf-8")
            let etag = try #require(first.headers[.eTag])
            #expect(try await client.ask("/", headers: [.ifNoneMatch: etag]).status == .notModified)

            try web.file("index.html", "<!doctype html><title>two</title>")
            let second = try await client.ask("/", headers: [.ifNoneMatch: etag])
            #expect(second.status == .ok && second.text == "<!doctype html><title>two</title>")
            #expect(second.headers[.eTag] != etag)
            #expect(
                try await client.ask("/assets/app.js", headers: [.acceptEncoding: "gzip"]).headers[
                    .contentEncoding] == nil)
            #expect(try await client.ask("/assets/app.js", method: .head).body.isEmpty)
        }
    }

    @Test("nothing outside the folder is served: not through .., not through a symlink, not a dot-name")
    func contained() async throws {
        let (fixture, web, configuration) = try Self.make()
        try web.symlink("leak.js", to: fixture.outside.path("secret.txt"))
        try web.symlink("out", to: fixture.outside.path)
        try web.symlink("inside.js", to: "app.js")
        try web.file(".secret.js", "TOP SECRET HIDDEN")
        try await fixture.withClient(configuration) { client in
            for address in ["/assets/leak.js", "/assets/out/secret.txt"] {
                let answer = try await client.ask(address)
                #expect(answer.status == .notFound && !answer.text.contains("SECRET"), "\(address)")
            }
            for address in [
                "/assets/../" + fixture.outside.path + "/secret.txt", "/assets/%2e%2e/secret.txt",
                "/assets/.secret.js",
                "/assets/modules/../../secret.txt",
            ] {
                let answer = try await client.ask(address)
                #expect(!answer.text.contains("SECRET"), "\(address)")
                #expect(answer.text == "<!doctype html><title>one</title>", "\(address): the page")
            }
            #expect(
                try await client.ask("/assets/inside.js").text == "export const one = 1;\n",
                "a link that stays inside works")
        }
    }
}

@Suite("No other language inside Swift")
struct NoEmbeddedWebSourceTests {
    @Test("no Swift file under Sources/ holds the web UI's HTML, CSS or JavaScript")
    func swiftHoldsNoWebCode() throws {
        let sources = URL(fileURLWithPath: WebFolder.path).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        #expect(FileManager.default.fileExists(atPath: sources.appendingPathComponent("BrowseyServer").path))
        let markers = [
            "<!doctype", "<script", "rel=\"stylesheet\"", "getElementById", "addEventListener",
            "querySelector",
            "@media", "prefers-color-scheme", "=> {",
        ]
        let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
        var checked = 0
        for case let name as String in walker where name.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources.path + "/" + name, encoding: .utf8).lowercased()
            for marker in markers {
                #expect(!text.contains(marker.lowercased()), "\(name) holds \(marker)")
            }
            checked += 1
        }
        #expect(checked > 100)
    }
}
