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
        "..", "../", "/..", "../../../../etc/passwd", "docs/../../", "docs/./../..", "%2e%2e", "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
        ".%2e/", "%2e./", "....//....//etc/passwd", "%252e%252e%252f%252e%252e%252fetc%252fpasswd",
        "..%5C..%5Cetc%5Cpasswd", "%5C..%5C..%5Cetc", "docs%5C..%5C..%5C", "%00", "docs%00.txt", "..%00/",
        "%c0%ae%c0%ae%2f%c0%ae%c0%ae%2fetc", "%e0%80%ae%e0%80%ae/", "%C0%AF", "/etc/passwd", "//etc/passwd",
        "file:///etc/passwd", "~/", "%7E%2F", "escape", "escape/secret.txt", "escape-file.txt", "inside-link/..%2F..",
        ".env", "%2Eenv", "build.log", String(repeating: "a/", count: 3000), String(repeating: "%2e%2e%2f", count: 50),
        "docs/%2e%2e/%2e%2e/", "docs/..%2f..%2f",
    ]

    static let endpoints = ["list", "stat", "view", "file", "search"]

    @Test("every hostile path answers 400, 403 or 404 without a byte from outside", arguments: endpoints)
    func corpusIsRefused(endpoint: String) async throws {
        let fixture = try ServerFixture.make()
        let outsidePath = fixture.outside.path
        try await fixture.withClient { client in
            var cases = Self.corpus
            cases.append(outsidePath.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? outsidePath)
            cases.append((outsidePath + "/secret.txt").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            for value in cases {
                let uri = "/api/\(endpoint)?path=\(value)" + (endpoint == "search" ? "&q=secret" : "")
                let answer = try await client.ask(uri)
                if endpoint == "search" {
                    #expect(answer.status.code < 500, "\(uri)")
                } else {
                    #expect([400, 403, 404].contains(answer.status.code), "\(uri) answered \(answer.status.code)")
                }
                #expect(!answer.text.contains("TOP SECRET"), "\(uri) leaked the outside file")
                #expect(!answer.text.contains(outsidePath), "\(uri) revealed an outside path")
                #expect(!answer.text.contains("/etc/passwd") || answer.status == .notFound, "\(uri)")
                #expect(answer.status == .ok || answer.error != nil, "\(uri): an error must have the contract's body")
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
        let app = BrowseyServer.application(fixture.configuration())
        try await app.test(.live) { client in
            let listing = try await client.ask("/api/list?path=%2Fdocs").decode(ListResponse.self)
            #expect(listing.items.map(\.name).contains("notes #1.md"))
            let file = try await client.ask("/api/file?path=%2Fbig.txt")
            #expect(file.body.count == 1000 && file.headers[.contentLength] == "1000")
        }
    }
}
