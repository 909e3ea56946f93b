import BrowseyServer
import Foundation
import Hummingbird
import TestSupport
import Testing

/// The server writes its listing and search answers with its own fast encoders and the rest
/// with BrowseyAPI's types; these tests hold what it actually sends against the OpenAPI schema
/// for each answer, so the two cannot drift apart.
@Suite("What the server sends is what the OpenAPI description says")
struct WireShapeTests {
    /// Asks each URI and checks the answer's JSON against the schema for its path and status.
    func check(
        _ uris: [String], _ configuration: ServerConfiguration? = nil, fixture: ServerFixture,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await fixture.withClient(configuration) { client in
            // Behind a token the description is asked with it, the answers without.
            let token: HTTPFields = (configuration?.token).map { [.authorization: "Bearer \($0)"] } ?? [:]
            let description = try await OpenAPIDescription.served(by: client, headers: token)
            for uri in uris {
                let answer = try await client.ask(uri)
                let path = String(uri.prefix { $0 != "?" })
                let schema = try #require(
                    description.answerSchema("get", path, status: Int(answer.status.code)),
                    "GET \(path) \(answer.status.code) has no JSON schema", sourceLocation: sourceLocation)
                let mismatches = description.mismatches(of: try JSONValue.parse(answer.body), against: schema)
                #expect(
                    mismatches.isEmpty, "\(uri): \(mismatches.joined(separator: "; "))",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test(
        "listings, with files, folders and links inside, outside and broken, match ListResponse and ListItem")
    func listings() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.symlink("docs/gone", to: "nowhere")
        try await check(
            [
                "/api/list?path=%2F", "/api/list?path=%2Fdocs", "/api/list?path=%2Fcode",
                "/api/list?path=%2Fnothing",
            ], fixture: fixture)
    }

    @Test("stat answers for a file, a folder, a link and a missing path match StatResponse and Error")
    func stats() async throws {
        let fixture = try ServerFixture.make()
        try await check(
            [
                "/api/stat?path=%2Fbig.txt", "/api/stat?path=%2Fdocs", "/api/stat?path=%2Finside-link",
                "/api/stat?path=%2FMakefile",
                "/api/stat?path=%2Fmissing",
            ],
            fixture: fixture)
    }

    @Test("search results, walked and from the index, match SearchResponse and SearchHit")
    func searches() async throws {
        let fixture = try ServerFixture.make()
        var walking = fixture.configuration()
        walking.indexesSearch = false
        try await check(
            [
                "/api/search?q=notes", "/api/search?q=a&type=directory", "/api/search?q=zzzz",
                "/api/search?q=a&limit=x",
            ], walking, fixture: fixture)
        try await check(["/api/search?q=notes", "/api/search?q=txt"], fixture: fixture)
    }

    @Test("views, health (also behind a token) and errors match their schemas")
    func others() async throws {
        let fixture = try ServerFixture.make()
        try await check(
            [
                "/api/view?path=%2Fdocs%2Fnotes%20%231.md", "/api/view?path=%2Fcode%2Fmain.swift",
                "/api/view?path=%2Fimage.png",
                "/api/view?path=%2Fvideo%2Fclip.mp4", "/api/view?path=%2Fbinary.bin", "/api/health",
                "/api/trash",
            ],
            fixture: fixture)
        var locked = fixture.configuration()
        locked.token = "k4tz8wq2mbn7rx5vd3hy6pcfja"
        try await check(["/api/health", "/api/list?path=%2F", "/api/openapi.json"], locked, fixture: fixture)
    }
}
