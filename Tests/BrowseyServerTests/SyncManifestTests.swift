import BrowseyAPI
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@testable import BrowseyServer

/// The manifest's folders as `[path: [item name]]`, and the folders' paths in order.
private func folders(_ answer: Answer) -> (order: [String], names: [String: [String]]) {
    let directories = (answer.json["directories"] as? [[String: Any]]) ?? []
    var names: [String: [String]] = [:]
    for directory in directories {
        let items = (directory["items"] as? [[String: Any]]) ?? []
        names[directory["path"] as? String ?? "?"] = items.compactMap { $0["name"] as? String }
    }
    return (directories.compactMap { $0["path"] as? String }, names)
}

/// Asks for a manifest until `condition` holds of it (the watcher's latency), at most 2 s.
private func eventually(
    _ client: any TestClientProtocol, _ uri: String, _ condition: (Answer) -> Bool
) async throws -> Answer {
    var answer = try await client.ask(uri)
    for _ in 0..<40 where !condition(answer) {
        try await Task.sleep(for: .milliseconds(50))
        answer = try await client.ask(uri)
    }
    return answer
}

@Suite("The sync manifest")
struct SyncManifestTests {
    @Test("lists every folder breadth-first, each exactly as /api/list answers it")
    func breadthFirstAsListings() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("docs/deeper/deepest/x.txt", "x")
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/sync/manifest")
            #expect(answer.status == .ok)
            let (order, _) = folders(answer)
            #expect(order == ["/", "/code", "/docs", "/video", "/docs/deeper", "/docs/deeper/deepest"])
            let directories = try #require(answer.json["directories"] as? [[String: Any]])
            for (index, path) in order.enumerated() {
                let listing = try await client.ask("/api/list?path=\(q(path))")
                let one = try JSONSerialization.data(withJSONObject: directories[index], options: .sortedKeys)
                let two = try JSONSerialization.data(withJSONObject: listing.json, options: .sortedKeys)
                #expect(one == two, "\(path)")
            }
            #expect(answer.json["unchanged"] as? Bool == false)
            #expect(answer.json["showHidden"] as? Bool == false)
            #expect(answer.json["path"] as? String == "/")
            let revision = try #require(answer.json["revision"] as? String)
            #expect(revision.count == 64 && revision.allSatisfy { "0123456789abcdef".contains($0) })
        }
    }

    @Test(
        "lists links without following them, dot-folders without their contents, and leaves ignored names out"
    )
    func linksDotFoldersAndIgnored() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file(".config/key.txt", "k")
        try await fixture.withClient(fixture.configuration(showsHidden: true)) { client in
            let answer = try await client.ask("/api/sync/manifest")
            let (order, names) = folders(answer)
            #expect(
                !order.contains("/inside-link") && !order.contains("/.config") && !order.contains("/escape"))
            let top = names["/"] ?? []
            #expect(top.contains("inside-link") && top.contains(".config") && top.contains(".env"))
            #expect(!top.contains("build.log"))
            #expect(answer.json["showHidden"] as? Bool == true)
            #expect(!answer.text.contains("TOP SECRET") && !answer.text.contains("key.txt"))
        }
        try await fixture.withClient { client in
            let top = folders(try await client.ask("/api/sync/manifest")).names["/"] ?? []
            #expect(!top.contains(".env") && !top.contains(".config"), "hidden names need --hidden")
        }
    }

    @Test("answers unchanged with no other keys while the revision holds, and in full once it does not")
    func unchangedWhileTheRevisionHolds() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let first = try await client.ask("/api/sync/manifest?path=%2Fdocs")
            let revision = try #require(first.json["revision"] as? String)
            let again = try await client.ask("/api/sync/manifest?path=%2Fdocs&revision=\(revision)")
            #expect(again.status == .ok)
            #expect(Set(again.json.keys) == ["path", "revision", "unchanged"])
            #expect(again.json["unchanged"] as? Bool == true && again.json["revision"] as? String == revision)
            let stale = try await client.ask(
                "/api/sync/manifest?path=%2Fdocs&revision=\(String(repeating: "0", count: 64))")
            #expect(stale.json["unchanged"] as? Bool == false && stale.json["directories"] != nil)
        }
    }

    @Test("a file changed on disk behind the server's back, or deep in a nested folder, changes the revision")
    func changesBehindTheServersBack() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("docs/a/b/c/nested.txt", "one")
        try await fixture.withClient { client in
            var revision = try #require(
                try await client.ask("/api/sync/manifest").json["revision"] as? String)
            // Warm: the kept revision answers.
            for _ in 0..<3 {
                let answer = try await client.ask("/api/sync/manifest?revision=\(revision)")
                #expect(answer.json["unchanged"] as? Bool == true)
            }
            let edits: [() throws -> Void] = [
                { try fixture.folder.file("docs/café.txt", "crème brûlée") },
                { try fixture.folder.file("docs/a/b/c/nested.txt", "two, longer") },
                { try FileManager.default.removeItem(atPath: fixture.folder.path("docs/a/b/c/nested.txt")) },
                { try fixture.folder.file("code/new.swift", "") },
            ]
            for (index, edit) in edits.enumerated() {
                try edit()
                let answer = try await eventually(client, "/api/sync/manifest?revision=\(revision)") {
                    $0.json["unchanged"] as? Bool == false
                }
                #expect(answer.json["unchanged"] as? Bool == false, "edit \(index)")
                revision = try #require(answer.json["revision"] as? String)
                let held = try await client.ask("/api/sync/manifest?revision=\(revision)")
                #expect(held.json["unchanged"] as? Bool == true, "edit \(index) settles")
            }
        }
    }

    @Test("a folder without links is kept by its own place: a change inside it moves its revision")
    func folderWithoutLinks() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let uri = "/api/sync/manifest?path=%2Fcode"
            let revision = try #require(try await client.ask(uri).json["revision"] as? String)
            #expect(try await client.ask(uri + "&revision=\(revision)").json["unchanged"] as? Bool == true)
            try fixture.folder.file("code/main.swift", "print(\"changed\")\n")
            let answer = try await eventually(client, uri + "&revision=\(revision)") {
                $0.json["unchanged"] as? Bool == false
            }
            #expect(answer.json["unchanged"] as? Bool == false)
        }
    }

    @Test("a link's target going elsewhere in the tree changes the revision of a folder listing the link")
    func linkTargetsAreCovered() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("elsewhere/target.txt", "1")
        try fixture.folder.symlink("docs/link.txt", to: fixture.folder.path("elsewhere/target.txt"))
        try await fixture.withClient { client in
            let revision = try #require(
                try await client.ask("/api/sync/manifest?path=%2Fdocs").json["revision"] as? String)
            // The link is now broken: its own fields change, though nothing in /docs did.
            try FileManager.default.removeItem(atPath: fixture.folder.path("elsewhere/target.txt"))
            let answer = try await eventually(client, "/api/sync/manifest?path=%2Fdocs&revision=\(revision)")
            {
                $0.json["unchanged"] as? Bool == false
            }
            #expect(answer.json["unchanged"] as? Bool == false)
        }
    }

    @Test(
        "refuses with the contract's messages: outside the root, not a folder, not there, a name too long, a link leading out"
    )
    func strictErrors() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let outside = try await client.ask("/api/sync/manifest?path=..%2F..")
            #expect(outside.status == .forbidden && outside.error == "Access denied: Invalid path")
            let file = try await client.ask("/api/sync/manifest?path=%2Fbig.txt")
            #expect(file.status == .badRequest && file.error == "Path is not a directory")
            #expect(file.json["code"] as? String == "notADirectory")
            let missing = try await client.ask("/api/sync/manifest?path=%2Fnope")
            #expect(missing.status == .notFound && missing.error == "Directory not found")
            // A name longer than the file system holds (ENAMETOOLONG) names nothing: 404, not 500.
            let tooLong = try await client.ask(
                "/api/sync/manifest?path=%2F" + String(repeating: "a", count: 300))
            #expect(tooLong.status == .notFound && tooLong.error == "Directory not found")
            let escape = try await client.ask("/api/sync/manifest?path=%2Fescape")
            #expect(escape.status == .forbidden || escape.status == .notFound)
            #expect(!escape.text.contains("secret"))
        }
    }

    @Test("a manifest past its entry or byte limit answers 413 tooLarge")
    func limitsAnswer413() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.syncManifestLimits = SyncManifestLimits(entries: 5)
        try await fixture.withClient(configuration) { client in
            let answer = try await client.ask("/api/sync/manifest")
            #expect(answer.status == .contentTooLarge && answer.json["code"] as? String == "tooLarge")
            #expect(try await client.ask("/api/sync/manifest?path=%2Fcode").status == .ok)
        }
        configuration.syncManifestLimits = SyncManifestLimits(bytes: 500)
        try await fixture.withClient(configuration) { client in
            let answer = try await client.ask("/api/sync/manifest")
            #expect(answer.status == .contentTooLarge, "\(answer.text)")
        }
    }

    @Test("with accounts a user's manifest holds only what they may read, and its revision differs")
    func accountsSeeTheirOwn() async throws {
        let fixture = try PeopleFixture.make()
        try await fixture.withClient { client in
            var revisions: [String: String] = [:]
            for who in ["bob", "carol"] {
                let headers = try await client.signIn(who)
                let answer = try await client.ask("/api/sync/manifest?path=%2FTeam", headers: headers)
                #expect(answer.status == .ok, "\(who): \(answer.text)")
                let (order, _) = folders(answer)
                #expect(order.contains("/Team/Private") == (who == "bob"), "\(who)")
                #expect(answer.text.contains("salary") == (who == "bob"), "\(who)")
                revisions[who] = answer.json["revision"] as? String
            }
            #expect(revisions["bob"] != nil && revisions["bob"] != revisions["carol"])
            #expect(try await client.ask("/api/sync/manifest?path=%2FTeam").status == .unauthorized)
        }
    }
}
