import Foundation
import Hummingbird
import TestSupport
import Testing

@Suite("The OpenAPI description's components")
struct OpenAPIComponentsTests {
    /// `Sources/BrowseyServer/Assets/openapi.json`, the document as the repository keeps it.
    static let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/BrowseyServer/Assets/openapi.json")

    @Test(
        "the served description is the Assets file byte for byte, with a strong ETag that revalidates to 304")
    func servedIsTheFile() async throws {
        let file = try Data(contentsOf: Self.file)
        #expect(try JSONValue.parse(file)["openapi"] == .string("3.1.0"))
        try await ServerFixture.make().withClient { client in
            let answer = try await client.ask("/api/openapi.json")
            #expect(
                answer.status == .ok && answer.body == file,
                "the served document differs from Assets/openapi.json")
            let etag = try #require(answer.headers[.eTag])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""), "a strong tag: \(etag)")
            #expect(
                try await client.ask("/api/openapi.json", headers: [.ifNoneMatch: etag]).status
                    == .notModified)
            let zipped = try await client.ask("/api/openapi.json", headers: [.acceptEncoding: "gzip"])
            #expect(zipped.headers[.contentEncoding] == "gzip" && zipped.body.count < file.count / 4)
        }
    }

    @Test("every $ref resolves, and every component is referenced")
    func referencesResolve() async throws {
        try await ServerFixture.make().withClient { client in
            let description = try await OpenAPIDescription.served(by: client)
            let references = description.references
            #expect(references.count > 100)
            for reference in Set(references) {
                #expect(description.target(of: reference) != nil, "\(reference) leads nowhere")
            }
            let components = try #require(description.document["components"]?.members)
            for (kind, entries) in components where kind != "securitySchemes" {
                for name in entries.members?.keys.sorted() ?? [] {
                    let reference = "#/components/\(kind)/\(name)"
                    #expect(references.contains(reference), "\(reference) is never used")
                }
            }
        }
    }

    @Test(
        "no two components of a kind are identical, and no error answer is written out where a shared one says the same"
    )
    func noDuplicates() async throws {
        try await ServerFixture.make().withClient { client in
            let description = try await OpenAPIDescription.served(by: client)
            let components = try #require(description.document["components"]?.members)
            for kind in ["schemas", "parameters", "responses"] {
                let entries = try #require(components[kind]?.members, "components.\(kind) is missing")
                var seen: [JSONValue: String] = [:]
                for (name, value) in entries.sorted(by: { $0.key < $1.key }) {
                    if let twin = seen[value] {
                        Issue.record("components.\(kind): \(twin) and \(name) are identical")
                    }
                    seen[value] = name
                }
            }
            // An inline answer equal to a shared one should have been a $ref to it.
            let shared = Set(components["responses"]?.members?.values.map { $0 } ?? [])
            for (path, operations) in description.document["paths"]?.members ?? [:] {
                for (method, operation) in operations.members ?? [:] {
                    for (status, answer) in operation["responses"]?.members ?? [:]
                    where shared.contains(answer) {
                        Issue.record(
                            "\(method) \(path) \(status) repeats a shared response instead of referring to it"
                        )
                    }
                }
            }
        }
    }
}
