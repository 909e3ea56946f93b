import BrowseyAPI
import BrowseyServer
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@Suite("Hostile paths never leave the root")
struct TraversalTests {
    /// Query values exactly as they go on the wire (already percent-encoded where shown).
    static let corpus: [String] = [
        "..", "../", "/..", "../../../../etc/passwd", "docs/../../", "docs/./../..", "%2e%2e",
        "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
        ".%2e/", "%2e./", "....//....//etc/passwd", "%252e%252e%252f%252e%252e%252fetc%252fpasswd",
        "..%5C..%5Cetc%5Cpasswd", "%5C..%5C..%5Cetc", "docs%5C..%5C..%5C", "%00", "docs%00.txt", "..%00/",
        "%c0%ae%c0%ae%2f%c0%ae%c0%ae%2fetc", "%e0%80%ae%e0%80%ae/", "%C0%AF", "/etc/passwd", "//etc/passwd",
        "file:///etc/passwd", "~/", "%7E%2F", "escape", "escape/secret.txt", "escape-file.txt",
        "inside-link/..%2F..",
        ".env", "%2Eenv", "build.log", String(repeating: "a/", count: 3000),
        String(repeating: "%2e%2e%2f", count: 50),
        "docs/%2e%2e/%2e%2e/", "docs/..%2f..%2f",
    ]

    static let endpoints = ["list", "stat", "view", "file", "search"]

    @Test("every hostile path answers 400, 403 or 404 without a byte from outside", arguments: endpoints)
    func corpusIsRefused(endpoint: String) async throws {
        let fixture = try ServerFixture.make()
        let outsidePath = fixture.outside.path
        try await fixture.withClient { client in
            var cases = Self.corpus
            cases.append(
                outsidePath.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? outsidePath)
            cases.append(
                (outsidePath + "/secret.txt").addingPercentEncoding(withAllowedCharacters: .alphanumerics)
                    ?? "")
            for value in cases {
                let uri = "/api/\(endpoint)?path=\(value)" + (endpoint == "search" ? "&q=secret" : "")
                let answer = try await client.ask(uri)
                if endpoint == "search" {
                    #expect(answer.status.code < 500, "\(uri)")
                } else {
                    #expect(
                        [400, 403, 404].contains(answer.status.code), "\(uri) answered \(answer.status.code)")
                }
                #expect(!answer.text.contains("TOP SECRET"), "\(uri) leaked the outside file")
                #expect(!answer.text.contains(outsidePath), "\(uri) revealed an outside path")
                #expect(!answer.text.contains("/etc/passwd") || answer.status == .notFound, "\(uri)")
                #expect(
                    answer.status == .ok || answer.error != nil,
                    "\(uri): an error must have the contract's body")
            }
        }
    }

    @Test("a symlink leading out is refused, and followed only with --allow-symlinks")
    func symlinkOut() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let refused = try await client.ask("/api/file?path=%2Fescape-file.txt")
            #expect(refused.status == .forbidden && refused.error == "Access denied: Invalid path")
            let inside = try await client.ask("/api/file?path=\(q("/inside-link/notes #1.md"))")
            #expect(inside.status == .ok && inside.text == "# Notes\n")
        }
        try await fixture.withClient(fixture.configuration(allowsSymlinks: true)) { client in
            let allowed = try await client.ask("/api/file?path=%2Fescape-file.txt")
            #expect(allowed.status == .ok && allowed.text == "TOP SECRET OUTSIDE")
        }
    }

    @Test("a link pointed out and back over and over never has its outside target described")
    func linkRetargetedDuringStat() async throws {
        let fixture = try ServerFixture.make()
        // 1,000 bytes inside; the outside file is 18.
        _ = try fixture.folder.symlink("moving.txt", to: "big.txt")
        let swapper = Swapper(in: fixture.folder.path, swapping: "moving.txt", with: "escape-file.txt")
        try await fixture.withClient { client in
            let sizes = try await swapper.tally(["\"size\":18", "\"size\":1000"], rounds: 600) { _ in
                try await client.ask("/api/stat?path=/moving.txt").text
            }
            #expect(sizes["\"size\":18"] == nil, "the outside file's size: \(sizes)")
            #expect(swapper.swaps > 100)
            let after = try await client.ask("/api/stat?path=/moving.txt")
            #expect(after.json["size"] as? Int == 1000, "put back: \(after.text)")
        }
    }

    @Test(
        "a link into a folder swapped out and back over and over never has its outside target's type listed")
    func linkRetargetedDuringListing() async throws {
        let fixture = try ServerFixture.make()
        // Inside, the link leads to a folder; outside, to a file of the same name.
        try FileManager.default.createDirectory(
            atPath: fixture.folder.path("swapped/secret.txt"), withIntermediateDirectories: true)
        _ = try fixture.folder.symlink("listed/moving", to: "../swapped/secret.txt")
        let swapper = try fixture.swapperOfFolderAndLinkOut("swapped")
        try await fixture.withClient { client in
            let types = try await swapper.tally(["\"targetType\":\"file\""], rounds: 400) { _ in
                try await client.ask("/api/list?path=/listed").text
            }
            #expect(types.isEmpty, "the outside target's type: \(types)")
            let after = try await client.ask("/api/list?path=/listed")
            #expect(after.text.contains("\"targetType\":\"directory\""), "put back: \(after.text)")
        }
    }

    @Test("a name that only looks like a traversal is an ordinary file")
    func lookalikes() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("notes..final..txt", "fine")
        try fixture.folder.file("%2e%2e", "literal")
        try await fixture.withClient { client in
            let lookalike = try await client.ask("/api/file?path=\(q("/notes..final..txt"))")
            #expect(lookalike.text == "fine")
            let literal = try await client.ask("/api/file?path=%252e%252e")
            #expect(literal.text == "literal")
        }
    }
}

@Suite("The server on a real socket")
struct LiveServerTests {
    @Test("a live server on port 0 answers a listing and a download")
    func live() async throws {
        let fixture = try ServerFixture.make()
        let app = try FileServer.application(fixture.configuration())
        try await app.test(.live) { client in
            let listing = try await client.ask("/api/list?path=%2Fdocs").decode(ListResponse.self)
            #expect(listing.items.map(\.name).contains("notes #1.md"))
            let file = try await client.ask("/api/file?path=%2Fbig.txt")
            #expect(file.body.count == 1000 && file.headers[.contentLength] == "1000")
        }
    }
}

@Suite("Random hostile input")
struct RandomInputTests {
    /// A small deterministic generator, so a failure can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let pieces = [
        "..", ".", "/", "\\", "%2e", "%2f", "%5c", "%00", "%25", "%c0%ae", "%e2%80%ae", "docs", "escape", "~",
        "//",
        "%2E%2E", "a", "é", "%ff", "%", "%zz", "?", "#", "&path=..", "+", " ", "%20", "..%2f",
        String(repeating: "x", count: 300),
    ]

    @Test("a thousand random paths and ranges never answer 5xx, never leak, never hang")
    func randomPaths() async throws {
        let fixture = try ServerFixture.make()
        let outside = fixture.outside.path
        try await fixture.withClient { client in
            var random = Generator(state: 0x5EED)
            for round in 0..<1000 {
                var value = ""
                for _ in 0..<(1 + random.next(8)) { value += Self.pieces[random.next(Self.pieces.count)] }
                let encoded = value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? value
                let endpoint = ["list", "stat", "view", "file", "search"][random.next(5)]
                let uri = "/api/\(endpoint)?path=\(round % 2 == 0 ? value : encoded)&q=s"
                let range = [
                    "bytes=\(random.next(3000))-\(random.next(3000))", "bytes=-\(random.next(50))",
                    "bytes=x-y", "bytes=1-2,3-4", "",
                ][random.next(5)]
                let answer = try await client.ask(uri, headers: range.isEmpty ? [:] : [.range: range])
                #expect(answer.status.code < 500, "\(uri) with \(range) answered \(answer.status.code)")
                #expect(
                    !answer.text.contains("TOP SECRET") && !answer.text.contains(outside), "\(uri) leaked")
            }
        }
    }
}
