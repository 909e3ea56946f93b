import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@Suite("The OpenAPI description")
struct OpenAPITests {
    @Test("every route the server registers is described, with its method")
    func everyRouteIsDescribed() async throws {
        let fixture = try ServerFixture.make()
        // The router's `:id` is OpenAPI's `{id}`.
        let routes = ServerComposition(fixture.configuration()).documentedRoutes().map { route in
            (method: route.method, path: route.path.replacing(":id", with: "{id}"))
        }
        #expect(routes.count >= 13)
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/openapi.json")
            #expect(answer.status == .ok && answer.headers[.contentType] == "application/json")
            let document = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            for route in routes {
                let operations = paths[route.path]
                #expect(operations != nil, "\(route.path) is missing from openapi.json")
                #expect(
                    operations?[route.method.rawValue.lowercased()] != nil,
                    "\(route.method) \(route.path) is not described")
            }
            #expect(
                Set(paths.keys) == Set(routes.map(\.path)), "openapi.json describes a route the server lacks")
        }
    }

    @Test("the description is valid OpenAPI 3.1, checked by openapi-spec-validator")
    func validates() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/openapi.json")
            let file = try fixture.folder.file("openapi.json", Array(answer.body))
            let validated = try SpawnedProcess.run("python3", ["-m", "openapi_spec_validator", file])
            #expect(validated.status == 0, "\(validated.output)")
        }
    }
}
