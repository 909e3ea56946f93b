import BrowseyAPI
import Foundation
import Testing

/// Answers written by hand from the contract (Docs/API.md), as the original Browsey server
/// sends them, decoded the way the client decodes every answer.
@Suite("The contract's JSON, written by hand, decodes")
struct ContractFixtureTests {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder.browsey().decode(type, from: Data(json.utf8))
    }

    @Test("a listing with a file, a folder without extension, a dot-name and a broken symlink")
    func listing() throws {
        let listing = try decode(
            ListResponse.self,
            """
            {"path":"/docs","absolutePath":"/srv/files/docs","items":[
             {"name":"sub","type":"directory","size":4096,"modified":"2024-01-15T10:30:00.000Z","extension":null,"absolutePath":"/srv/files/docs/sub"},
             {"name":"read me.md","type":"file","size":120,"modified":"2024-01-15T10:30:00.123Z","extension":"md","absolutePath":"/srv/files/docs/read me.md"},
             {"name":".gitignore","type":"file","size":3,"modified":"2024-01-15T10:30:00Z","extension":null,"absolutePath":"/srv/files/docs/.gitignore"},
             {"name":"gone","type":"symlink","size":0,"modified":"2024-01-15T10:30:00.000Z","extension":null,"absolutePath":"/srv/files/docs/gone","linkTarget":"../nowhere","targetPath":null,"targetAbsolutePath":null,"targetType":null,"linkBroken":true}
            ]}
            """)
        #expect(listing.items.map(\.type) == [.directory, .file, .file, .symlink])
        #expect(listing.items[1].modified.timeIntervalSince1970 == 1_705_314_600.123)
        #expect(
            listing.items[2].modified.timeIntervalSince1970 == 1_705_314_600, "dates without milliseconds too"
        )
        #expect(listing.items[3].linkBroken == true && listing.items[3].linkTarget == "../nowhere")
    }

    @Test("view answers: text, markdown as text, image, video")
    func views() throws {
        let text = try decode(
            ViewResponse.self,
            #"{"type":"text","filename":"a.swift","extension":"swift","content":"print(1)\n","size":9,"modified":"2024-01-15T10:30:00.000Z","language":"swift"}"#
        )
        #expect(text.type == .text && text.language == "swift" && text.content == "print(1)\n")
        let image = try decode(
            ViewResponse.self,
            #"{"type":"image","filename":"p.png","extension":"png","url":"/api/file?path=%2Fp.png&download=false","size":2048,"mimeType":"image/png","dimensions":{"width":640,"height":480}}"#
        )
        #expect(image.type == .image && image.dimensions == ViewResponse.Dimensions(width: 640, height: 480))
        let video = try decode(
            ViewResponse.self,
            #"{"type":"video","filename":"c.mp4","extension":"mp4","url":"/api/file?path=%2Fc.mp4","size":10}"#
        )
        #expect(video.type == .video && video.modified == nil)
    }

    @Test("stat, health, search, writes and errors")
    func others() throws {
        let stat = try decode(
            StatResponse.self,
            #"{"name":"a.txt","type":"file","size":5,"modified":"2024-01-15T10:30:00.000Z","created":"2024-01-14T09:00:00.000Z","extension":"txt","absolutePath":"/srv/a.txt"}"#
        )
        #expect(stat.created < stat.modified)
        let health = try decode(
            HealthResponse.self,
            #"{"ok":true,"readonly":true,"host":{"hostname":"nas","platform":"linux","arch":"x64","osRelease":"6.1","runtime":"bun","runtimeVersion":"1.1.0","uptimeSeconds":42}}"#
        )
        #expect(health.ok && health.host.runtime == "bun")
        let search = try decode(
            SearchResponse.self,
            #"{"query":"rdme","results":[{"name":"README.md","path":"/README.md","absolutePath":"/srv/README.md","type":"file","score":870,"extension":"md"}]}"#
        )
        #expect(search.results.first?.score == 870)
        let saved = try decode(
            SaveResponse.self, #"{"ok":true,"modified":"2024-01-15T10:31:00.000Z","size":12}"#)
        #expect(saved.ok && saved.size == 12)
        #expect(try decode(ChangeResponse.self, #"{"ok":true,"newPath":"/b.txt"}"#).newPath == "/b.txt")
        let unauthorized = try decode(
            ErrorResponse.self, #"{"error":"Unauthorized","message":"Valid API token required"}"#)
        #expect(unauthorized.error == "Unauthorized" && unauthorized.message == "Valid API token required")
    }
}
