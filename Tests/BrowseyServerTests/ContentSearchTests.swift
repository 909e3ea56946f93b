import BrowseyAPI
import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@Suite("Searching inside files over HTTP")
struct ContentSearchTests {
    static func search(
        _ client: some TestClientProtocol, _ query: String
    ) async throws -> ContentSearchResponse {
        let answer = try await client.ask("/api/search?in=content&" + query)
        #expect(answer.status == .ok, "\(query): \(answer.text)")
        return try answer.decode(ContentSearchResponse.self)
    }

    /// Waits until `/api/health` says the content index is ready (asked as `headers` say: on a
    /// server with accounts, only someone signed in is told).
    static func waitUntilReady(_ client: some TestClientProtocol, headers: HTTPFields = [:]) async throws {
        for _ in 0..<500 {
            let health = try await client.ask("/api/health", headers: headers).decode(HealthResponse.self)
            if health.contentIndex?.phase == "ready" { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the content index never became ready")
    }

    @Test("with accounts, a user finds inside only what they may read, by no path and through no link")
    func rights() async throws {
        let fixture = try PeopleFixture.make()
        try fixture.folder.file("Team/walrus.txt", "the walrus of the team")
        try fixture.folder.file("Team/Private/walrus.txt", "the walrus of the payroll")
        try fixture.folder.file("Public/walrus.txt", "a public walrus")
        try await fixture.withClient(fixture.configuration(index: true)) { client in
            try await Self.waitUntilReady(client, headers: try await client.signIn("bob"))
            func found(_ user: String?) async throws -> Set<String> {
                let answer = try await client.ask(
                    "/api/search?in=content&q=walrus&limit=50", headers: try await client.signIn(user))
                #expect(answer.status == .ok, "\(user ?? "nobody"): \(answer.text)")
                #expect(!answer.text.contains("payroll") || user == "bob" || user == "alice")
                return Set(try answer.decode(ContentSearchResponse.self).results.map(\.path))
            }
            #expect(
                try await found("bob") == [
                    "/Team/walrus.txt", "/Team/Private/walrus.txt", "/Public/walrus.txt",
                ])
            #expect(try await found("carol") == ["/Team/walrus.txt", "/Public/walrus.txt"])
            #expect(try await found(nil) == ["/Public/walrus.txt"])
        }
    }

    @Test(
        "hits carry the file's item and its matching lines with the match's place, filtered like name search")
    func answersLines() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file(
            "docs/plans.md", "# Plans\n\nThe Quarterly Report is late.\nreport quarterly\n")
        try fixture.folder.file("code/report.swift", "let quarterly = report()\n")
        try fixture.folder.file(".hidden.md", "quarterly report hidden")
        try fixture.folder.file("vendor/README", "the vendored quarterly notes")
        try fixture.folder.file("vendor/LICENSE", "permission is granted, quarterly")
        try fixture.folder.file("vendor/blob", "quarterly, in a file no name calls text")
        try await fixture.withClient { client in
            try await Self.waitUntilReady(client)
            let answer = try await Self.search(client, "q=\(q("quarterly report"))")
            #expect(answer.complete && !answer.hasMore)
            #expect(answer.results.map(\.path) == ["/docs/plans.md", "/code/report.swift"])
            let first = try await Self.search(client, "q=\(q("quarterly report"))&limit=1")
            #expect(
                first.results.map(\.path) == ["/docs/plans.md"] && first.hasMore, "the best, and more match")
            let both = try await Self.search(client, "q=\(q("quarterly report"))&limit=2")
            #expect(both.results.count == 2 && !both.hasMore, "exactly two match")
            let huge = try await client.ask(
                "/api/search?in=content&q=quarterly&limit=99999999999999999999999")
            #expect(huge.status == .ok, "digits past any number are the range's end: \(huge.text)")
            let best = try #require(answer.results.first)
            #expect(best.item.name == "plans.md" && best.item.size > 0 && best.type == .file)
            #expect(best.lines.map(\.line) == [3, 4])
            #expect(best.lines[0].text == "The Quarterly Report is late.")
            #expect(best.lines[0].matches == [[4, 20]])
            let markdown = try await Self.search(client, "q=quarterly&ext=swift")
            #expect(markdown.results.map(\.path) == ["/code/report.swift"])
            let below = try await Self.search(client, "q=quarterly&path=/docs")
            #expect(below.results.map(\.path) == ["/docs/plans.md"])
            let vendored = try await Self.search(client, "q=quarterly&path=/vendor")
            #expect(
                Set(vendored.results.map(\.path)) == ["/vendor/README", "/vendor/LICENSE"],
                "a project's notes without an extension are text; any other name is not")
            let readme = try await client.ask("/api/view?path=%2Fvendor%2FREADME").decode(ViewResponse.self)
            #expect(readme.content == "the vendored quarterly notes", "and a hit opens in the viewer")
            let regex = try await Self.search(client, "q=\(q(#"report\(\)"#))&re=1")
            #expect(regex.results.map(\.path) == ["/code/report.swift"])
            #expect(regex.results.first?.lines.first?.matches == [[16, 24]])
            for bad in [
                "q=ab", "q=\(q("(unclosed"))&re=1", "q=report&limit=many", "q=report&after=soon",
                "q=qua%00rterly",
                "q=qua%00rt.&re=1", "q=&re=1", "re=1",
            ] {
                let refused = try await client.ask("/api/search?in=content&" + bad)
                #expect(refused.status == .badRequest, "\(bad): \(refused.text)")
                #expect(refused.error?.isEmpty == false)
            }
            #expect(try await client.ask("/api/search?in=songs&q=report").status == .badRequest)
        }
    }

    @Test("an expression that would take a backtracking engine hours over a file's line is answered at once")
    func hostileExpressions() async throws {
        let fixture = try ServerFixture.make()
        // `(a+)+$` backtracks 2^n ways on n a's and a b; `(-+)+$` on a heading's underline and a
        // space (both seen to hold a server's thread for minutes with a backtracking engine).
        try fixture.folder.file("notes/a.txt", String(repeating: "a", count: 40) + "b\nfine\n")
        try fixture.folder.file("notes/b.md", "Title\n" + String(repeating: "-", count: 40) + " \n")
        // A count that makes every place of a long line start a thousand threads of the automaton.
        try fixture.folder.file("long/line.txt", String(repeating: "a", count: 250_000) + "\n")
        try await fixture.withClient { client in
            try await Self.waitUntilReady(client)
            let clock = ContinuousClock()
            let started = clock.now
            let counted = try await Self.search(client, "q=\(q("a{1000}b"))&re=1&path=/long")
            // Its time limit is 1.5 s; a debug build on two busy cores may take a little longer to answer.
            #expect(clock.now - started < .seconds(5), "the line held the search for \(clock.now - started)")
            #expect(!counted.complete && counted.results.isEmpty, "it says it stopped short")
            let took = try await clock.measure {
                for expression in ["(a+)+$", "(-+)+$", "(a|a)*c"] {
                    let answer = try await Self.search(client, "q=\(q(expression))&re=1&path=/notes")
                    #expect(answer.results.isEmpty && answer.complete, "\(expression)")
                }
            }
            #expect(took < .seconds(5), "three hostile expressions took \(took)")
            let found = try await Self.search(client, "q=\(q("(a+)+b$"))&re=1&path=/notes")
            #expect(
                found.results.map(\.path) == ["/notes/a.txt"], "and the same forms still find what matches")
            let refused = try await client.ask("/api/search?in=content&re=1&q=" + q(#"(a)\1"#))
            #expect(
                refused.status == .badRequest && refused.text.contains("back-references"), "\(refused.text)")
        }
    }

    @Test(
        "a file saved through the API or written on disk is found by its new text within 1 s, its old text no longer",
        .enabled(if: TimingSensitive.runsHere, "timing tests run apart: Scripts/test, BROWSEY_TIMING_TESTS=1")
    )
    func freshAfterSaves() async throws {
        let fixture = try WritableFixture.make()
        try fixture.folder.file("docs/plan.txt", "the old walrus plan")
        try await fixture.withClient { client in
            try await Self.waitUntilReady(client)
            #expect(try await Self.search(client, "q=walrus").results.map(\.path) == ["/docs/plan.txt"])
            let (modified, size) = try await SaveTests.bases(client, "/docs/plan.txt")
            let saved = try await client.post(
                "/api/save",
                SaveRequest(
                    path: "/docs/plan.txt", content: "the new pelican plan", baseModified: modified,
                    baseSize: size))
            #expect(saved.status == .ok)
            // Stale lines are never sent: the old text is gone at once, the file is read again.
            #expect(try await Self.search(client, "q=walrus").results.isEmpty)
            #expect(try await Self.fresh(client, "pelican", "/docs/plan.txt"), "saved through the API")
            try fixture.folder.file("docs/plan.txt", "the newer heron plan")
            #expect(try await Self.fresh(client, "heron", "/docs/plan.txt"), "written on disk")
            #expect(try await Self.search(client, "q=pelican").results.isEmpty)
        }
    }

    /// Whether `word` finds `path` within a second.
    static func fresh(_ client: some TestClientProtocol, _ word: String, _ path: String) async throws -> Bool
    {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < .seconds(1) {
            if try await search(client, "q=\(word)").results.map(\.path) == [path] { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test("with --no-content-index a content search is a 503 that says why, and health says nothing of it")
    func turnedOff() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.indexesContent = false
        try await fixture.withClient(configuration) { client in
            let answer = try await client.ask("/api/search?in=content&q=notes")
            #expect(
                answer.status == .serviceUnavailable && answer.error?.contains("--no-content-index") == true)
            let health = try await client.ask("/api/health").decode(HealthResponse.self)
            #expect(health.contentIndex == nil)
        }
    }
}
