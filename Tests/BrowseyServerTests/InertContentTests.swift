import BrowseyAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import BrowseyServer

@Suite("Files from the folder are inert on the server's origin")
struct InertContentTests {
    static let sandbox = "sandbox; default-src 'none'"
    static let script = Array("<script>fetch('/api/save')</script>".utf8)

    /// A file of each kind a browser treats differently.
    static func fixture() throws -> ServerFixture {
        let fixture = try ServerFixture.make()
        for name in [
            "page.html", "page.htm", "page.xhtml", "data.xml", "picture.svg", "paper.pdf", "script.js",
            "style.css",
            "data.json", "mystery.unknownext", "notes.txt",
        ] {
            try fixture.folder.file("kinds/\(name)", script)
        }
        try fixture.folder.file("kinds/photo.png", ServerFixture.pngHeader(width: 1, height: 1))
        try fixture.folder.file("kinds/clip.mp4", [0, 0, 0, 0x18] + Array("ftypmp42".utf8))
        try fixture.folder.file("kinds/song.mp3", Array("ID3".utf8))
        return fixture
    }

    @Test(
        "every answer with a file's bytes says nosniff, and whatever a browser could run or render goes out sandboxed",
        arguments: [
            ("page.html", true), ("page.htm", true), ("page.xhtml", true), ("data.xml", true),
            ("picture.svg", true),
            ("paper.pdf", true), ("script.js", true), ("style.css", true), ("data.json", true),
            ("mystery.unknownext", true),
            ("notes.txt", false), ("photo.png", false), ("clip.mp4", false), ("song.mp3", false),
        ])
    func fileHeaders(name: String, sandboxed: Bool) async throws {
        let fixture = try Self.fixture()
        try await fixture.withClient { client in
            for query in ["&download=false", "", "&download=true"] {
                for method: HTTPRequest.Method in [.get, .head] {
                    let answer = try await client.ask(
                        "/api/file?path=%2Fkinds%2F\(name)\(query)", method: method)
                    #expect(answer.status == .ok)
                    #expect(answer.headers[.xContentTypeOptions] == "nosniff", "\(name)\(query) \(method)")
                    #expect(
                        answer.headers[.contentSecurityPolicy] == (sandboxed ? Self.sandbox : nil),
                        "\(name)\(query) \(method)")
                    #expect(answer.headers[HTTPFields.Element.Name.referrerPolicy] == "no-referrer")
                }
            }
        }
    }

    @Test("a file loaded as a script, style or worker by a page of this origin comes as plain text")
    func runningLoads() async throws {
        let fixture = try Self.fixture()
        let destination = HTTPFields.Element.Name.secFetchDest
        let site = HTTPFields.Element.Name.secFetchSite
        try await fixture.withClient { client in
            for (name, kind) in [
                ("script.js", "script"), ("style.css", "style"), ("script.js", "serviceworker"),
                ("script.js", "worker"),
            ] {
                let answer = try await client.ask(
                    "/api/file?path=%2Fkinds%2F\(name)", headers: [destination: kind, site: "same-origin"])
                #expect(answer.headers[.contentType] == "text/plain; charset=utf-8", "\(kind)")
                #expect(answer.headers[.xContentTypeOptions] == "nosniff")
            }
            // A download or a view keeps the file's own type; so does a load by another site.
            let download = try await client.ask(
                "/api/file?path=%2Fkinds%2Fscript.js", headers: [destination: "document", site: "none"])
            #expect(download.headers[.contentType]?.hasPrefix("text/javascript") == true)
            let elsewhere = try await client.ask(
                "/api/file?path=%2Fkinds%2Fscript.js", headers: [destination: "script", site: "cross-site"])
            #expect(elsewhere.headers[.contentType]?.hasPrefix("text/javascript") == true)
        }
    }

    @Test("a folder's archive says nosniff and is sandboxed")
    func archiveHeaders() async throws {
        let fixture = try Self.fixture()
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/archive?path=%2Fkinds")
            #expect(answer.status == .ok)
            #expect(answer.headers[.xContentTypeOptions] == "nosniff")
            #expect(answer.headers[.contentSecurityPolicy] == Self.sandbox)
        }
    }

    @Test(
        "the page and its assets may be loaded only by our own pages, send no referrer, and cannot be framed")
    func pageHeaders() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            for path in ["/", "/docs", "/assets/app.js", "/assets/app.css"] {
                let answer = try await client.ask(path)
                #expect(answer.status == .ok)
                #expect(answer.headers[.crossOriginResourcePolicy] == "same-origin", "\(path)")
                #expect(answer.headers[HTTPFields.Element.Name.referrerPolicy] == "no-referrer", "\(path)")
                #expect(answer.headers[.xContentTypeOptions] == "nosniff")
            }
            let page = try await client.ask("/")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            for directive in [
                "default-src 'self'", "frame-ancestors 'none'", "worker-src 'none'", "object-src 'none'",
                "base-uri 'none'",
            ] {
                #expect(policy.contains(directive), "\(directive)")
            }
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
        }
    }

    @Test("only raster images, audio, video and plain text count as display-only")
    func displayOnlyTypes() {
        for type in [
            "image/png", "image/jpeg", "image/webp", "audio/mpeg", "video/mp4", "text/plain; charset=utf-8",
            "TEXT/PLAIN",
        ] {
            #expect(InertContent.isDisplayOnly(type), "\(type)")
        }
        for type in [
            "text/html", "application/xhtml+xml", "image/svg+xml", "application/xml", "text/xml",
            "application/pdf",
            "application/octet-stream", "text/javascript", "text/css", "application/json", "text/markdown",
            "",
            "multipart/x-mixed-replace", "image/x-unknown+xml",
        ] {
            #expect(!InertContent.isDisplayOnly(type), "\(type)")
        }
    }

    @Test("HTML, XHTML and XML open in the viewer as highlighted source, never as a page")
    func viewerShowsSource() async throws {
        let fixture = try Self.fixture()
        try await fixture.withClient { client in
            for name in ["page.html", "page.xhtml", "data.xml"] {
                let view = try await client.ask("/api/view?path=%2Fkinds%2F\(name)").decode(ViewResponse.self)
                #expect(view.type == .text && view.html == nil, "\(name)")
                let highlighted = try #require(view.highlighted, "\(name)")
                #expect(!highlighted.contains("<script>") && highlighted.contains("&lt;"), "\(name)")
            }
        }
    }
}
