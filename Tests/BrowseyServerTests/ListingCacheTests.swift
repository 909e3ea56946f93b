import BrowseyAPI
import BrowseyServer
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@Suite("Cached listings are never stale")
struct ListingCacheTests {
    @Test("a file created, grown, renamed or deleted shows in the very next listing")
    func changesShowAtOnce() async throws {
        let fixture = try ServerFixture.make()
        let folder = fixture.folder
        try await fixture.withClient(fixture.configuration()) { client in
            func names() async throws -> [String: Int64] {
                let items = try await client.ask("/api/list?path=%2Fdocs").decode(ListResponse.self).items
                return Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.size) })
            }
            for _ in 0..<3 { _ = try await names() }  // warm the cache
            try folder.file("docs/new.txt", "n")
            #expect(try await names()["new.txt"] == 1)
            try folder.file("docs/new.txt", "grown")
            #expect(try await names()["new.txt"] == 5)
            try FileManager.default.moveItem(atPath: folder.path("docs/new.txt"), toPath: folder.path("docs/renamed.txt"))
            let afterRename = try await names()
            #expect(afterRename["new.txt"] == nil && afterRename["renamed.txt"] == 5)
            try FileManager.default.removeItem(atPath: folder.path("docs/renamed.txt"))
            #expect(try await names()["renamed.txt"] == nil)
            try folder.file("docs/sub/deeper.txt", "d")
            #expect(try await names()["sub"] != nil)
            let sub = try await client.ask("/api/list?path=%2Fdocs%2Fsub").decode(ListResponse.self)
            #expect(sub.items.map(\.name) == ["deeper.txt"])
            try folder.file("docs/sub/second.txt", "s")
            let again = try await client.ask("/api/list?path=%2Fdocs%2Fsub").decode(ListResponse.self)
            #expect(again.items.map(\.name) == ["deeper.txt", "second.txt"])
        }
    }

    @Test("many quick changes between listings are all seen")
    func rapidChanges() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient(fixture.configuration()) { client in
            for round in 0..<30 {
                try fixture.folder.file("docs/round \(round).txt", String(repeating: "x", count: round))
                let items = try await client.ask("/api/list?path=%2Fdocs").decode(ListResponse.self).items
                #expect(items.first { $0.name == "round \(round).txt" }?.size == Int64(round), "round \(round)")
            }
        }
    }
}
