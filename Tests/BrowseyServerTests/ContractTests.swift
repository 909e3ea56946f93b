import BrowseyAPI
import FileTree
import Foundation
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing
import Thumbnails

@testable import BrowseyServer

@Suite("The Browsey contract, in process")
struct ContractTests {
    @Test("a listing has folders first, the contract's fields, and no hidden or ignored names")
    func listing() async throws {
        let fixture = try ServerFixture.make()
        let root = fixture.folder.path
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/list?path=%2F")
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/json; charset=utf-8")
            let listing = try answer.decode(ListResponse.self)
            #expect(listing.path == "/")
            #expect(listing.absolutePath == root)
            let names = listing.items.map(\.name)
            // Links to folders inside sort with the folders; `escape`, a link to a folder
            // outside, sorts as what it shows (a link that leads out), with the files.
            #expect(
                names == [
                    "code", "docs", "inside-link", "video", "big.txt", "binary.bin", "escape",
                    "escape-file.txt", "image.png", "Makefile",
                ])
            #expect(!names.contains(".env") && !names.contains("build.log"))
            let docs = try #require(listing.items.first { $0.name == "docs" })
            #expect(docs.type == .directory && docs.extension == nil)
            #expect(docs.absolutePath == root + "/docs")
            let makefile = try #require(listing.items.first { $0.name == "Makefile" })
            #expect(makefile.extension == nil && makefile.size == 11)
            // extension is always present, as null when absent.
            let raw = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            let first = try #require((raw["items"] as? [[String: Any]])?.first)
            #expect(first.keys.contains("extension") && first["extension"] is NSNull)
            #expect((first["modified"] as? String)?.hasSuffix("Z") == true)
            #expect((first["modified"] as? String)?.count == 24, "ISO-8601 with milliseconds")
        }
    }

    @Test("symlinks are listed with their targets; one leading out is marked and its target never shown")
    func symlinkFields() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let listing = try await client.ask("/api/list").decode(ListResponse.self)
            let inside = try #require(listing.items.first { $0.name == "inside-link" })
            #expect(inside.type == .symlink)
            #expect(
                inside.linkTarget == "docs" && inside.targetPath == "/docs" && inside.targetType == .directory
            )
            #expect(inside.linkBroken == false)
            let escape = try #require(listing.items.first { $0.name == "escape" })
            #expect(escape.type == .symlink && escape.linkOutside == true)
            #expect(escape.linkTarget == nil && escape.targetPath == nil && escape.targetAbsolutePath == nil)
        }
    }

    @Test(
        "a link that leads out sorts with the files whether its target is a folder or not, in a listing and a sync manifest; with --allow-symlinks with the folders"
    )
    func linksThatLeadOutTellNothingByTheirPlace() async throws {
        let fixture = try ServerFixture.make()
        _ = try fixture.outside.folder("away")
        try fixture.folder.symlink("docs/0-out-folder", to: fixture.outside.path("away"))
        try fixture.folder.symlink("docs/0-out-file", to: fixture.outside.path("secret.txt"))
        try fixture.folder.symlink("docs/0-in-folder", to: "../code")
        /// The first names of `/docs`, as a listing and the sync manifest order them.
        @Sendable func orders(_ client: any TestClientProtocol) async throws -> [[String]] {
            let listing = try await client.ask("/api/list?path=%2Fdocs").decode(ListResponse.self)
            let manifest = try await client.ask("/api/sync/manifest?path=%2Fdocs")
            #expect(manifest.status == .ok, "\(manifest.text)")
            let raw = try #require(try JSONSerialization.jsonObject(with: manifest.body) as? [String: Any])
            let folders = try #require(raw["directories"] as? [[String: Any]])
            let top = try #require(folders.first { $0["path"] as? String == "/docs" })
            let items = try #require(top["items"] as? [[String: Any]])
            return [listing.items.map(\.name), items.compactMap { $0["name"] as? String }]
        }
        let files = ["100% done.txt", "café.txt", "notes #1.md"]
        try await fixture.withClient { client in
            // The folder link that stays inside leads; both links that lead out sit among the
            // files, in name order.
            for names in try await orders(client) {
                #expect(names == ["0-in-folder", "0-out-file", "0-out-folder"] + files)
            }
        }
        try await fixture.withClient(fixture.configuration(allowsSymlinks: true)) { client in
            for names in try await orders(client) {
                #expect(names == ["0-in-folder", "0-out-folder", "0-out-file"] + files)
            }
        }
    }

    @Test("hidden names are listed only when the server allows them and the request asks")
    func hiddenListing() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let names = try await client.ask("/api/list?hidden=1").decode(ListResponse.self).items.map(\.name)
            #expect(!names.contains(".env"))
            #expect(try await client.ask("/api/file?path=%2F.env").status == .notFound)
        }
        try await fixture.withClient(fixture.configuration(showsHidden: true)) { client in
            let plain = try await client.ask("/api/list").decode(ListResponse.self).items.map(\.name)
            #expect(!plain.contains(".env"))
            let asked = try await client.ask("/api/list?hidden=1").decode(ListResponse.self).items.map(\.name)
            #expect(asked.contains(".env"))
        }
    }

    @Test("listing a file, a missing folder or an ignored one answers the contract's errors")
    func listingErrors() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let file = try await client.ask("/api/list?path=%2Fbig.txt")
            #expect(file.status == .badRequest && file.error == "Path is not a directory")
            let missing = try await client.ask("/api/list?path=%2Fnope")
            #expect(missing.status == .notFound && missing.error == "Directory not found")
            let ignored = try await client.ask("/api/file?path=%2Fbuild.log")
            #expect(ignored.status == .notFound && ignored.error == "File not found")
        }
    }

    @Test(
        "a name that is not UTF-8 lists with U+FFFD, that path opens it, search finds it, a rename fixes it; two names that read alike open neither"
    )
    func namesThatAreNotUTF8() async throws {
        let fixture = try ServerFixture.make()
        _ = try fixture.folder.folder("latin")
        let resume = Array("latin/r".utf8) + [0xE9] + Array("sum".utf8) + [0xE9]  // Latin-1 "résumé"
        try fixture.folder.make(systemPath: resume)
        try fixture.folder.make(
            systemPath: resume + Array("/caf".utf8) + [0xE9], contents: Array("latin-1".utf8))
        try fixture.folder.make(systemPath: Array("latin/x".utf8) + [0xE8], contents: Array("grave".utf8))
        try fixture.folder.make(systemPath: Array("latin/x".utf8) + [0xE9], contents: Array("acute".utf8))
        let outside = try TemporaryFolder(prefix: "browsey-outside")
        try outside.file("secret.txt", "secret")
        try outside.make(systemPath: Array("e".utf8) + [0xE9], contents: [])
        let link =
            (Array(try fixture.folder.folder("away").utf8) + Array("/out".utf8) + [0xE9]).map {
                CChar(bitPattern: $0)
            } + [0]
        #expect(symlink(outside.path, link) == 0)
        // A link so named that stays inside, to the folder so named.
        let inward =
            (Array(fixture.folder.path.utf8) + Array("/away/in".utf8) + [0xE9]).map {
                CChar(bitPattern: $0)
            } + [0]
        let target = (Array("../".utf8) + resume).map { CChar(bitPattern: $0) } + [0]
        #expect(symlink(target, inward) == 0)
        /// A path for a query, percent-encoded.
        @Sendable func query(_ path: String) -> String {
            path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? path
        }
        try await fixture.withClient(fixture.configuration(readOnly: false)) { client in
            let latin = try await client.ask("/api/list?path=%2Flatin").decode(ListResponse.self)
            #expect(latin.items.map(\.name) == ["r\u{FFFD}sum\u{FFFD}", "x\u{FFFD}", "x\u{FFFD}"])
            let folder = try #require(latin.items.first)
            #expect(folder.absolutePath.hasSuffix("/latin/r\u{FFFD}sum\u{FFFD}") && folder.type == .directory)
            let inside = try await client.ask("/api/list?path=" + query(folder.absolutePath))
            #expect(inside.status == .ok)
            let file = try #require(try inside.decode(ListResponse.self).items.first)
            #expect(file.name == "caf\u{FFFD}" && file.size == 7)
            let download = try await client.ask("/api/file?path=" + query(file.absolutePath))
            #expect(download.status == .ok && download.text == "latin-1")
            let stat = try await client.ask("/api/stat?path=" + query(file.absolutePath))
            #expect(stat.status == .ok && stat.text.contains("\"size\":7"))
            // Such links are listed as links are: what they lead to, or that they lead out.
            let away = try await client.ask("/api/list?path=%2Faway").decode(ListResponse.self)
            let linkIn = try #require(away.items.first { $0.name == "in\u{FFFD}" })
            #expect(linkIn.type == .symlink && linkIn.linkBroken == false && linkIn.targetType == .directory)
            #expect(
                linkIn.targetPath == "/latin/r\u{FFFD}sum\u{FFFD}", "\(String(describing: linkIn.targetPath))"
            )
            let linkOut = try #require(away.items.first { $0.name == "out\u{FFFD}" })
            #expect(linkOut.linkOutside == true && linkOut.linkBroken == false && linkOut.targetPath == nil)
            // A link so named that leads out is refused like any other.
            for asked in ["/api/list?path=", "/api/search?q=secret&path=", "/api/file?path="] {
                let out = try await client.ask(asked + query("/away/out\u{FFFD}"))
                #expect(out.status == .forbidden, "\(asked)")
            }
            // Whether a name exists behind it is not told either: both are refused alike.
            for behind in ["/away/out\u{FFFD}/e\u{FFFD}", "/away/out\u{FFFD}/nope\u{FFFD}"] {
                #expect(
                    try await client.ask("/api/list?path=" + query(behind)).status == .forbidden, "\(behind)")
            }
            let secret = try await client.ask("/api/file?path=" + query("/away/out\u{FFFD}/secret.txt"))
            #expect(secret.status == .forbidden && !secret.text.contains("secret\""))
            let found = try await client.ask("/api/search?q=caf").decode(SearchResponse.self)
            let paths = found.results.map(\.path)
            #expect(paths.contains("/latin/r\u{FFFD}sum\u{FFFD}/caf\u{FFFD}"), "found by name: \(paths)")
            // Such links found by name as links are: the one inside is a hit, the one out is not.
            let links = try await client.ask("/api/search?q=" + query("\u{FFFD}") + "&path=%2Faway")
            #expect(try links.decode(SearchResponse.self).results.map(\.path) == ["/away/in\u{FFFD}"])
            let twin = try await client.ask("/api/file?path=" + query("/latin/x\u{FFFD}"))
            #expect(twin.status == .notFound, "which of the two is not guessed")
            // Writes do not reach the name itself (as Docs/API.md says); inside its folder they do.
            let delete = try await client.post("/api/delete", PathRequest(path: file.absolutePath))
            #expect(delete.status == .notFound, "only a rename reaches the name itself")
            let made = try await client.post(
                "/api/mkdir", PathRequest(path: folder.absolutePath + "/new"))
            #expect(made.status == .ok || made.status == .created)
            let before = try await client.ask("/api/list?path=" + query(folder.absolutePath))
            let names = try before.decode(ListResponse.self).items.map(\.name)
            #expect(names == ["new", "caf\u{FFFD}"], "\(names)")
            // A rename gives it a name in UTF-8; its bytes stay as they were.
            let rename = try await client.post(
                "/api/rename", RenameRequest(path: file.absolutePath, newName: "café"))
            #expect(rename.status == .ok)
            let renamed = try await client.ask("/api/list?path=" + query(folder.absolutePath))
            #expect(try renamed.decode(ListResponse.self).items.map(\.name) == ["new", "café"])
            let cafe = folder.absolutePath + "/café"
            #expect(try await client.ask("/api/file?path=" + query(cafe)).text == "latin-1")
            let twinRename = try await client.post(
                "/api/rename", RenameRequest(path: "/latin/x\u{FFFD}", newName: "x"))
            #expect(twinRename.status == .notFound, "which of two is not guessed")
        }
    }

    @Test("stat answers the contract's fields and takes the absolute path the iOS app sends")
    func stat() async throws {
        let fixture = try ServerFixture.make()
        let absolute = fixture.folder.path("docs/notes #1.md")
        try await fixture.withClient { client in
            for uri in [
                "/api/stat?path=\(q("/docs/notes #1.md"))", "/api/stat?path=\(q(absolute))",
                "/api/stat?path=\(q("docs\\notes #1.md"))",
            ] {
                let answer = try await client.ask(uri)
                #expect(answer.status == .ok, "\(uri)")
                let stat = try answer.decode(StatResponse.self)
                #expect(stat.name == "notes #1.md" && stat.type == .file && stat.size == 8)
                #expect(
                    stat.extension == "md" && stat.absolutePath == absolute
                        && stat.path == "/docs/notes #1.md")
                #expect(abs(stat.modified.timeIntervalSinceNow) < 120)
            }
            let required = try await client.ask("/api/stat")
            #expect(required.status == .badRequest && required.error == "Path required")
            let missing = try await client.ask("/api/stat?path=%2Fnope")
            #expect(missing.status == .notFound && missing.error == "File not found")
        }
    }

    @Test("view gives text with its language, images with their size, videos with a URL")
    func view() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let swift = try await client.ask("/api/view?path=%2Fcode%2Fmain.swift").decode(ViewResponse.self)
            #expect(swift.type == .text && swift.content == "print(\"hi\")\n" && swift.language == "swift")
            #expect(
                swift.filename == "main.swift" && swift.extension == "swift"
                    && swift.mimeType == "text/x-swift")
            let makefile = try await client.ask("/api/view?path=%2FMakefile").decode(ViewResponse.self)
            #expect(makefile.type == .text && makefile.language == "makefile")
            let markdown = try await client.ask("/api/view?path=\(q("/docs/notes #1.md"))").decode(
                ViewResponse.self)
            #expect(markdown.type == .text && markdown.language == "markdown")
            let image = try await client.ask("/api/view?path=%2Fimage.png").decode(ViewResponse.self)
            #expect(image.type == .image && image.dimensions == .init(width: 640, height: 480))
            #expect(image.url == "/api/file?path=/image.png&download=false")
            let video = try await client.ask("/api/view?path=%2Fvideo%2Fclip.mp4").decode(ViewResponse.self)
            #expect(video.type == .video && video.url?.contains("clip.mp4") == true)

            let binary = try await client.ask("/api/view?path=%2Fbinary.bin")
            #expect(binary.status == .badRequest && binary.error == "File type not viewable")
            let folder = try await client.ask("/api/view?path=%2Fdocs")
            #expect(folder.status == .badRequest && folder.error == "Cannot view directory")
            let missing = try await client.ask("/api/view?path=%2Fnope.txt")
            #expect(missing.status == .notFound && missing.error == "File not found")
        }
    }

    @Test("a download carries its type, length, disposition and validators")
    func download() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/file?path=\(q("/docs/café.txt"))")
            #expect(answer.status == .ok && answer.text == "crème")
            #expect(answer.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(answer.headers[.contentLength] == "6")
            #expect(answer.headers[.acceptRanges] == "bytes")
            #expect(
                answer.headers[.contentDisposition]
                    == "attachment; filename=\"caf_.txt\"; filename*=UTF-8''caf%C3%A9.txt")
            #expect(answer.headers[.eTag] != nil && answer.headers[.lastModified]?.hasSuffix("GMT") == true)
            let inline = try await client.ask("/api/file?path=%2Fimage.png&download=false")
            #expect(inline.headers[.contentDisposition] == "inline; filename=\"image.png\"")
            #expect(inline.headers[.contentType] == "image/png")
            let folder = try await client.ask("/api/file?path=%2Fdocs")
            #expect(folder.status == .badRequest && folder.error == "Cannot download directory")
            let required = try await client.ask("/api/file")
            #expect(required.status == .badRequest && required.error == "Path required")
        }
    }

    @Test("ranges answer 206, suffix ranges count from the end, and impossible ones 416")
    func ranges() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let first = try await client.ask("/api/file?path=%2Fbig.txt", headers: [.range: "bytes=0-9"])
            #expect(first.status == .partialContent && first.body.count == 10)
            #expect(first.headers[.contentRange] == "bytes 0-9/1000")
            let suffix = try await client.ask("/api/file?path=%2Fbig.txt", headers: [.range: "bytes=-100"])
            #expect(suffix.status == .partialContent && suffix.headers[.contentRange] == "bytes 900-999/1000")
            let open = try await client.ask("/api/file?path=%2Fbig.txt", headers: [.range: "bytes=990-"])
            #expect(open.body.count == 10)
            let beyond = try await client.ask("/api/file?path=%2Fbig.txt", headers: [.range: "bytes=5000-"])
            #expect(beyond.status == .rangeNotSatisfiable && beyond.headers[.contentRange] == "bytes */1000")
            let etag = try #require(first.headers[.eTag])
            let stale = try await client.ask(
                "/api/file?path=%2Fbig.txt", headers: [.range: "bytes=0-9", .ifRange: "\"old\""])
            #expect(stale.status == .ok && stale.body.count == 1000)
            let fresh = try await client.ask(
                "/api/file?path=%2Fbig.txt", headers: [.range: "bytes=0-9", .ifRange: etag])
            #expect(fresh.status == .partialContent)
        }
    }

    @Test("a current ETag or date answers 304, HEAD answers headers only")
    func conditional() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let full = try await client.ask("/api/file?path=%2Fbig.txt")
            let etag = try #require(full.headers[.eTag])
            let lastModified = try #require(full.headers[.lastModified])
            #expect(
                try await client.ask("/api/file?path=%2Fbig.txt", headers: [.ifNoneMatch: etag]).status
                    == .notModified)
            #expect(
                try await client.ask("/api/file?path=%2Fbig.txt", headers: [.ifModifiedSince: lastModified])
                    .status == .notModified)
            #expect(
                try await client.ask("/api/file?path=%2Fbig.txt", headers: [.ifNoneMatch: "\"other\""]).status
                    == .ok)
            let head = try await client.ask("/api/file?path=%2Fbig.txt", method: .head)
            #expect(head.status == .ok && head.body.isEmpty && head.headers[.contentLength] == "1000")
            try fixture.folder.file("big.txt", "changed")
            #expect(
                try await client.ask("/api/file?path=%2Fbig.txt", headers: [.ifNoneMatch: etag]).status == .ok
            )
        }
    }

    @Test("health reports the mode and the machine")
    func health() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let health = try await client.ask("/api/health").decode(HealthResponse.self)
            #expect(health.ok && health.readonly)
            #expect(health.host.runtime == "swift" && !health.host.hostname.isEmpty)
        }
    }

    @Test("a server on one machine is ready at once, its state in SQLite")
    func ready() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let ready = try await client.ask("/api/ready")
            #expect(ready.status == .ok)
            #expect(ready.json["ready"] as? Bool == true)
            #expect(ready.json["state"] as? String == "sqlite")
        }
    }

    @Test("search ranks a substring above a scattered match and respects the limit")
    func search() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("deep/main-notes.txt")
        try fixture.folder.file("deep/m_a_i_n.txt")
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/search?q=main").decode(SearchResponse.self)
            #expect(answer.query == "main")
            let names = answer.results.map(\.name)
            #expect(names.first == "main-notes.txt" || names.first == "main.swift")
            let substring = try #require(names.firstIndex(of: "main.swift"))
            let scattered = try #require(names.firstIndex(of: "m_a_i_n.txt"))
            #expect(substring < scattered)
            #expect(answer.results.first { $0.name == "main.swift" }?.path == "/code/main.swift")
            let limited = try await client.ask("/api/search?q=t&limit=2").decode(SearchResponse.self)
            #expect(limited.results.count == 2)
            let hidden = try await client.ask("/api/search?q=env").decode(SearchResponse.self)
            #expect(hidden.results.isEmpty)
        }
    }

    @Test("unknown API paths answer JSON 404, other paths the web page, writes 403 when read-only")
    func fallbacks() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let unknown = try await client.ask("/api/nothing")
            #expect(
                unknown.status == .notFound && unknown.text == #"{"code":"notFound","error":"Not found"}"#)
            let page = try await client.ask("/docs/")
            #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("/assets/app.js") && page.text.contains("/assets/app.css"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            // The UI's files revalidate with one small request: 304 while they have not changed.
            for asset in ["/assets/app.js", "/assets/app.css", "/"] {
                let first = try await client.ask(asset)
                let etag = try #require(first.headers[.eTag], "\(asset)")
                #expect(first.status == .ok && first.headers[.cacheControl] == "no-cache", "\(asset)")
                let again = try await client.ask(asset, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified && again.text.isEmpty, "\(asset)")
            }
            let script = try await client.ask("/assets/api.js")
            #expect(
                script.headers[.contentType] == "text/javascript; charset=utf-8"
                    && script.text.contains("/api/\" + name"))
            for write in ["save", "rename", "delete", "move", "copy", "mkdir"] {
                let answer = try await client.ask("/api/\(write)", method: .post)
                #expect(
                    answer.status == .forbidden && answer.error == "Server is in read-only mode", "\(write)")
            }
        }
    }
}

@Suite("The hand-written listing JSON")
struct ListingJSONTests {
    @Test("is byte for byte what JSONEncoder writes for the same listing, awkward names and links included")
    func sameAsEncoder() async throws {
        let fixture = try ServerFixture.make()
        for name in AwkwardNames.all + ["quote \" backslash \\ tab \t.txt", "control \u{1}\u{1F}.txt"] {
            try fixture.folder.file("awkward/" + name, "x")
        }
        try fixture.folder.symlink("awkward/dangling", to: "nowhere")
        try fixture.folder.symlink("awkward/up", to: "..")
        try fixture.folder.symlink("awkward/a link to a folder", to: "../docs")
        try fixture.folder.file("awkward/zz folder/inside.txt", "x")
        try fixture.folder.file("awkward/ünïcode ä.md", "x")
        try fixture.folder.file("awkward/.hidden", "x")
        let safePath = SafePath(fixture.configuration())
        try await fixture.withClient { client in
            for folder in ["/", "/awkward", "/docs"] {
                let answer = try await client.ask("/api/list?path=\(q(folder))")
                let decoded = try answer.decode(ListResponse.self)
                let reencoded = try JSONEncoder.browsey().encode(decoded)
                #expect(String(decoding: reencoded, as: UTF8.self) == answer.text, "\(folder)")
                let visible = EntryFilter(includesHidden: false, excludedNames: [NamePattern("*.log")])
                // Ordered as the server orders, links that lead out with the files.
                var reader = FileTree.DirectoryReader(filter: visible, order: .browsey)
                reader.linkSortsAsFolder = safePath.linkSortsAsFolder
                let entries = try await reader.read(at: fixture.folder.path + folder).entries
                // Files the server makes thumbnails of are marked (additive), by their type.
                let pictures = Thumbnailer().extensions
                let viaCodable = ListResponse(
                    path: folder, absolutePath: decoded.absolutePath,
                    items: entries.map {
                        var item = ListItem($0, under: safePath)
                        if item.type == .file, let ext = item.extension?.lowercased(), pictures.contains(ext)
                        {
                            item.thumbnail = true
                        }
                        return item
                    })
                #expect(viaCodable == decoded, "\(folder)")
            }
        }
    }
}

@Suite("The hand-written search JSON")
struct SearchJSONTests {
    @Test(
        "is byte for byte what JSONEncoder writes for the same results, awkward names, folders and links included"
    )
    func sameAsEncoder() async throws {
        let fixture = try ServerFixture.make()
        for name in AwkwardNames.all + [
            "quote \" backslash \\ tab \t.txt", "control \u{1}\u{1F}.txt", "noextension",
        ] {
            try fixture.folder.file("awkward/" + name, "x")
        }
        try fixture.folder.symlink("awkward/a link", to: "../docs")
        try fixture.folder.folder("awkward/a folder.d")
        try await fixture.withClient { client in
            for query in ["a", "t", "%22", "%C3%BC", "zzz-nothing", "&type=directory"] {
                let answer = try await client.ask("/api/search?path=%2Fawkward&q=\(query)&limit=200")
                let decoded = try answer.decode(SearchResponse.self)
                #expect(query == "zzz-nothing" || !decoded.results.isEmpty, "\(query)")
                let reencoded = try JSONEncoder.browsey().encode(decoded)
                #expect(String(decoding: reencoded, as: UTF8.self) == answer.text, "\(query)")
            }
        }
    }
}

@Suite("Large downloads")
struct LargeDownloadTests {
    /// Runs `body` against `fixture`'s server on a real port, its downloads sent by `sendfile`
    /// (to this machine too) or copied.
    static func live(
        _ fixture: ServerFixture, sendfile: Bool,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var configuration = fixture.configuration()
        configuration.sendsFilesBySendfile = sendfile
        configuration.sendsFilesBySendfileOnLoopback = sendfile
        try await FileServer.application(configuration).test(.live, body)
    }

    @Test("a file of several chunks arrives byte for byte, whole and in a range across chunks")
    func severalChunks() async throws {
        let fixture = try ServerFixture.make()
        let size = 3 * (1 << 20) + 12_345
        let pattern = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 13) }
        try fixture.folder.file("large.bin", pattern)
        try await fixture.withClient { client in
            let whole = try await client.ask("/api/file?path=%2Flarge.bin")
            #expect(whole.status == .ok && whole.body.count == size)
            #expect(Array(whole.body) == pattern)
            let start = (1 << 20) - 100
            let range = try await client.ask(
                "/api/file?path=%2Flarge.bin", headers: [.range: "bytes=\(start)-\(start + 2_000_099)"])
            #expect(range.status == .partialContent && range.body.count == 2_000_100)
            #expect(Array(range.body) == Array(pattern[start..<(start + 2_000_100)]))
        }
        // Live, downloads go by sendfile; without it, through the buffer pump.
        for sendfile in [true, false] {
            try await Self.live(fixture, sendfile: sendfile) { client in
                let whole = try await client.ask("/api/file?path=%2Flarge.bin")
                #expect(whole.headers[.contentLength] == String(size))
                #expect(Array(whole.body) == pattern, "sendfile: \(sendfile)")
                let start = (1 << 20) - 100
                let range = try await client.ask(
                    "/api/file?path=%2Flarge.bin", headers: [.range: "bytes=\(start)-\(start + 2_000_099)"])
                #expect(range.status == .partialContent && range.body.count == 2_000_100)
                #expect(
                    Array(range.body) == Array(pattern[start..<(start + 2_000_100)]), "sendfile: \(sendfile)")
                let head = try await client.ask("/api/file?path=%2Flarge.bin", method: .head)
                #expect(head.status == .ok && head.body.isEmpty)
                let small = try await client.ask("/api/file?path=%2Fbig.txt")
                #expect(small.body.count == 1000)
            }
        }
    }

    @Test("a client on this machine gets its download copied, one across a network by sendfile, unless told")
    func sendfileGoesAcrossTheNetwork() throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        let here = try [
            SocketAddress(ipAddress: "127.0.0.1", port: 50_000),
            SocketAddress(ipAddress: "127.3.4.5", port: 1),
            SocketAddress(ipAddress: "::1", port: 50_000),
            SocketAddress(ipAddress: "::ffff:127.0.0.1", port: 9),
        ]
        let away = try [
            SocketAddress(ipAddress: "192.168.1.20", port: 50_000),
            SocketAddress(ipAddress: "10.0.0.127", port: 1),
            SocketAddress(ipAddress: "fe80::1", port: 50_000),
            SocketAddress(ipAddress: "::ffff:10.0.0.1", port: 9),
            // Next to the loopback's bytes, but not it.
            SocketAddress(ipAddress: "126.255.255.255", port: 1),
            SocketAddress(ipAddress: "128.0.0.1", port: 1),
            SocketAddress(ipAddress: "::", port: 1),
            SocketAddress(ipAddress: "::2", port: 1),
            SocketAddress(ipAddress: "::1:0:0:1", port: 1),
            SocketAddress(ipAddress: "::ffff:128.0.0.1", port: 1),
            SocketAddress(ipAddress: "::fffe:127.0.0.1", port: 1),
        ]
        func files() -> FileController {
            FileController(
                configuration: configuration, safePath: SafePath(configuration), sendsFilesBySendfile: true)
        }
        #expect(here.allSatisfy { !files().sendsBySendfile(to: $0) })
        #expect(away.allSatisfy { files().sendsBySendfile(to: $0) })
        // A connection whose address is not known yet is treated as across a network.
        #expect(files().sendsBySendfile(to: nil))
        configuration.sendsFilesBySendfileOnLoopback = true
        #expect((here + away).allSatisfy { files().sendsBySendfile(to: $0) })
        let never = FileController(
            configuration: configuration, safePath: SafePath(configuration), sendsFilesBySendfile: false)
        #expect((here + away).allSatisfy { !never.sendsBySendfile(to: $0) })
    }

    @Test(
        "a download by sendfile leaves its connection uncorked: small files in a row each arrive at once",
        .enabled(if: TimingSensitive.runsHere, "timing tests run apart: Scripts/test, BROWSEY_TIMING_TESTS=1")
    )
    func sendfileUncorksAfterEachFile() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("small.txt", String(repeating: "a", count: 1000))
        var configuration = fixture.configuration()
        configuration.sendsFilesBySendfile = true
        configuration.sendsFilesBySendfileOnLoopback = true
        let app = try FileServer.application(configuration)
        try await app.test(.live) { client in
            // A socket left corked holds each answer's last partial segment for 200 ms: 25
            // answers would take 5 s. Uncorked, they take milliseconds.
            let clock = ContinuousClock()
            let started = clock.now
            for _ in 0..<25 {
                let answer = try await client.ask("/api/file?path=%2Fsmall.txt")
                #expect(answer.status == .ok && answer.body.count == 1000)
            }
            #expect(clock.now - started < .milliseconds(2500))
        }
    }

    @Test(
        "downloads cut off mid-file or reset at once, by sendfile or not, leave no descriptor of the file open"
    )
    func cutDownloadsCloseTheirFile() async throws {
        let fixture = try ServerFixture.make()
        // Far more than the socket buffers hold: every download is still sending when cut.
        let path = try fixture.folder.file("cut.bin", [UInt8](repeating: 7, count: 32 << 20))
        let resolved = try #require(realpath(path, nil).map { String(cString: $0) })
        /// How many of this process's descriptors name the file (the server runs in-process).
        @Sendable func openCopies() -> Int {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return entries.filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0))
                    == resolved
            }.count
        }
        for sendfile in [true, false] {
            try await Self.live(fixture, sendfile: sendfile) { client in
                let port = try #require(client.port)
                var sockets: [RawSocket] = []
                for _ in 0..<8 {
                    let socket = try #require(RawSocket(port: port))
                    socket.send(
                        Array("GET /api/file?path=%2Fcut.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                    sockets.append(socket)
                }
                // Each download starts (its file open), then its client goes away unread.
                for socket in sockets {
                    #expect(await socket.receive(for: 60) { $0.contains("\r\n\r\n") }.contains("200 OK"))
                }
                #expect(openCopies() > 0, "sendfile: \(sendfile)")
                for socket in sockets { socket.close() }
                let deadline = ContinuousClock.now + .seconds(10)
                while openCopies() > 0 && ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(openCopies() == 0, "sendfile: \(sendfile)")
                // Clients that reset the connection right after asking: the answer's head cannot
                // be written, so its body never runs, and the file opened for it is let go.
                for _ in 0..<30 {
                    let socket = try #require(RawSocket(port: port))
                    socket.send(
                        Array("GET /api/file?path=%2Fcut.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                    setsockopt(
                        socket.descriptor, SOL_SOCKET, SO_LINGER, &linger,
                        socklen_t(MemoryLayout<Glibc.linger>.size))
                    socket.close()
                }
                // The server still answers, on a connection of its own (the test client's, open
                // since the start, may have passed the server's idle timeout on a loaded
                // machine; and it is awaited: a blocking request would hold one of the few
                // threads the in-process server answers on).
                try await Task.sleep(for: .milliseconds(300))
                let health = try #require(RawSocket(port: port))
                health.send(Array("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                #expect(await health.receive(for: 30) { $0.contains("\r\n\r\n") }.contains("200 OK"))
                health.close()
                let later = ContinuousClock.now + .seconds(10)
                while openCopies() > 0 && ContinuousClock.now < later {
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(openCopies() == 0, "reset at once, sendfile: \(sendfile)")
            }
        }
    }

    @Test("a download's file closes once: closed again, it leaves alone a file opened since under its number")
    func openFileClosesOnce() throws {
        let fixture = try ServerFixture.make()
        let path = try fixture.folder.file("once.txt", "once")
        let opened = open(path, O_RDONLY)
        #expect(opened >= 0)
        defer { close(opened) }
        // A number no one else uses in this process, given to the file, then to another.
        let number: Int32 = 987
        #expect(dup2(opened, number) == number)
        let file = OpenFile(descriptor: number)
        file.close()
        #expect(fcntl(number, F_GETFD) == -1)
        #expect(dup2(opened, number) == number)
        file.close()
        #expect(fcntl(number, F_GETFD) != -1)
        close(number)
    }

    @Test("a file cut short while it is being sent ends its connection after what there was")
    func fileCutShortWhileSent() async throws {
        let fixture = try ServerFixture.make()
        let path = try fixture.folder.file("shrinking.bin", [UInt8](repeating: 0x61, count: 64 << 20))
        for sendfile in [false, true] {
            try await Self.live(fixture, sendfile: sendfile) { client in
                let port = try #require(client.port)
                let socket = try #require(RawSocket(port: port))
                defer { socket.close() }
                socket.send(
                    Array("GET /api/file?path=%2Fshrinking.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                // The answer starts and the socket's buffers fill, unread; then the file shrinks.
                let head = await socket.receive(for: 20) { $0.contains("\r\n\r\n") }
                #expect(head.contains("200 OK") && head.contains("Content-Length: \(64 << 20)"))
                #expect(truncate(path, 3 << 20) == 0)
                // The client learns it at once: the connection ends, short of the length announced.
                let clock = ContinuousClock()
                let started = clock.now
                let rest = await socket.receive(for: 20) { _ in false }
                #expect(clock.now - started < .seconds(10), "sendfile: \(sendfile)")
                #expect(head.utf8.count + rest.utf8.count < 64 << 20, "sendfile: \(sendfile)")
                // And the server answers the next client as ever.
                // (Asked by the async client: a blocking request would hold one of the few
                // threads the in-process server answers on.)
                #expect(try await client.ask("/api/file?path=%2Fbig.txt").status == .ok)
            }
            try fixture.folder.file("shrinking.bin", [UInt8](repeating: 0x61, count: 64 << 20))
        }
    }

    @Test("a file the page cache no longer holds is read from the disk and arrives whole")
    func uncachedParts() async throws {
        let fixture = try ServerFixture.make()
        let size = 3 * (1 << 20) + 777
        let pattern = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        let path = try fixture.folder.file("cold.bin", pattern)
        let app = try FileServer.application(fixture.configuration())
        try await app.test(.live) { client in
            // Written pages must reach the disk before the kernel agrees to drop them.
            let descriptor = open(path, O_RDONLY)
            #expect(descriptor >= 0)
            fsync(descriptor)
            #expect(posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED) == 0)
            // The test means something only if the pages are gone: ask the kernel (mincore).
            let pages = (size + 4095) / 4096
            var resident = [UInt8](repeating: 0, count: pages)
            let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0)
            #expect(mapping != MAP_FAILED)
            if let mapping, mapping != MAP_FAILED {
                _ = mincore(mapping, size, &resident)
                munmap(mapping, size)
            }
            close(descriptor)
            #expect(resident.filter { $0 & 1 == 1 }.count < pages / 2)
            let whole = try await client.ask("/api/file?path=%2Fcold.bin")
            #expect(whole.status == .ok && whole.body.count == size)
            #expect(Array(whole.body) == pattern)
        }
    }
}
