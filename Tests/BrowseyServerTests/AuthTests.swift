import BrowseyAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import BrowseyServer

@Suite("A token keeps out who should stay out")
struct AuthTests {
    static let token = "k4tz8wq2mbn7rx5vd3hy6pcfja"

    func configuration(_ fixture: ServerFixture) -> ServerConfiguration {
        var configuration = fixture.configuration()
        configuration.token = Self.token
        return configuration
    }

    @Test("without the token every endpoint but health answers the contract's 401")
    func refused() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient(configuration(fixture)) { client in
            for uri in [
                "/api/list?path=%2F", "/api/file?path=%2Fbig.txt", "/api/stat?path=%2Fbig.txt",
                "/api/view?path=%2Fbig.txt",
                "/api/search?q=a", "/api/openapi.json", "/api/nothing", "/", "/docs/",
            ] {
                let answer = try await client.ask(uri)
                #expect(answer.status == .unauthorized, "\(uri)")
                #expect(
                    answer.error == "Unauthorized"
                        && answer.json["message"] as? String == "Valid API token required", "\(uri)")
                #expect(answer.headers[.wwwAuthenticate] == "Bearer realm=\"Browsey API\"")
                #expect(!answer.text.contains("crème"))
            }
            for wrong in [
                "Bearer nope", "Bearer \(Self.token)x", "Basic \(Self.token)",
                "Bearer \(Self.token.dropLast())",
            ] {
                #expect(
                    try await client.ask("/api/list", headers: [.authorization: wrong]).status
                        == .unauthorized, "\(wrong)")
            }
            let health = try await client.ask("/api/health")
            #expect(health.status == .ok && health.json["auth"] as? Bool == true)
        }
    }

    @Test("the token is accepted as a bearer, a cookie, or in the URL, which sets the cookie and drops it")
    func accepted() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient(configuration(fixture)) { client in
            #expect(
                try await client.ask("/api/list?path=%2F", headers: [.authorization: "Bearer \(Self.token)"])
                    .status == .ok)
            #expect(
                try await client.ask(
                    "/api/stat?path=%2Fbig.txt", headers: [.cookie: "theme=dark; browsey_token=\(Self.token)"]
                ).status == .ok)
            #expect(try await client.ask("/api/file?path=%2Fbig.txt&token=\(Self.token)").status == .ok)
            let page = try await client.ask("/docs/?view=1&token=\(Self.token)")
            #expect(page.status == .seeOther)
            #expect(page.headers[.location] == "/docs/?view=1")
            let cookie = try #require(page.headers[.setCookie])
            #expect(
                cookie.hasPrefix("browsey_token=\(Self.token);") && cookie.contains("HttpOnly")
                    && cookie.contains("SameSite=Strict"))
        }
    }

    @Test("the token is told only to a request that holds it and asks for it, for a link that carries it")
    func tokenForALink() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient(configuration(fixture)) { client in
            let holder: HTTPFields = [.cookie: "browsey_token=\(Self.token)"]
            let asked = try await client.ask("/api/session?include=token", headers: holder)
            #expect(try asked.decode(SessionResponse.self).token == Self.token)
            let notAsked = try await client.ask("/api/session", headers: holder)
            #expect(try notAsked.decode(SessionResponse.self).token == nil)
            #expect(try await client.ask("/api/session?include=token").status == .unauthorized)
        }
        try await fixture.withClient { client in
            let open = try await client.ask("/api/session?include=token")
            #expect(
                try open.decode(SessionResponse.self).token == nil,
                "a server without a token has none to tell")
        }
    }

    @Test("tokens are compared whole, whatever their lengths")
    func comparison() {
        let equal = TokenAuthentication<FileServerContext>.constantTimeEqual
        #expect(equal(Array("abc".utf8), Array("abc".utf8)))
        #expect(!equal(Array("abc".utf8), Array("abd".utf8)))
        #expect(!equal(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!equal([], Array("a".utf8)))
        #expect(equal([], []))
        let tokens = (0..<200).map { _ in ServerConfiguration.newToken() }
        #expect(Set(tokens).count == 200 && tokens.allSatisfy { $0.count == 26 })
    }
}

@Suite("What a request may do is decided once, in front of the routes")
struct AccessDecisionTests {
    @Test("a route that no access decision reached serves nothing, and says it is the server's fault")
    func undecidedRequestsReachNothing() async throws {
        let fixture = try ServerFixture.make()
        let configuration = fixture.configuration()
        let safePath = SafePath(configuration)
        for decided in [false, true] {
            let router = Router(context: FileServerContext.self)
            if decided { router.add(middleware: AccessDecision(safePath: safePath, readOnly: true)) }
            FileController(configuration: configuration, safePath: safePath, sendsFilesBySendfile: false)
                .addRoutes(to: router.group())
            WriteController(configuration: configuration, safePath: safePath, trash: nil).addRoutes(
                to: router.group())
            try await Application(router: router).test(.router) { client in
                let file = try await client.ask("/api/file?path=%2Fbig.txt")
                let folder = try await client.post("/api/mkdir", PathRequest(path: "/made"))
                if decided {
                    #expect(file.status == .ok && file.body.count == 1000)
                    #expect(folder.status == .forbidden && folder.json["code"] as? String == "readOnly")
                } else {
                    #expect(file.status == .internalServerError && file.json["code"] as? String == "internal")
                    #expect(folder.status == .forbidden && folder.json["code"] as? String == "readOnly")
                }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("made")))
    }
}
