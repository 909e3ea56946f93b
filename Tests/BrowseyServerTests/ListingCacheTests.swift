import BrowseyAPI
import FileTree
import Foundation
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import BrowseyServer

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
            try FileManager.default.moveItem(
                atPath: folder.path("docs/new.txt"), toPath: folder.path("docs/renamed.txt"))
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
                #expect(
                    items.first { $0.name == "round \(round).txt" }?.size == Int64(round), "round \(round)")
            }
        }
    }
}

@Suite("The listing cache keeps what it can vouch for")
struct ListingCacheKeepingTests {
    @Test("a listing read while other folders change is kept; one read while its own folder changes is not")
    func changesElsewhereDoNotStopKeeping() async throws {
        let folder = try TemporaryFolder(prefix: "browsey-cache")
        let watcher = try DirectoryWatcher(path: folder.path(""), options: .init())
        defer { watcher.stop() }
        let cache = ListingCache()
        cache.attach(watcher)
        let many = ListingCache.Key(folder: "/many", hidden: false)
        let listing = ByteBuffer(string: "the listing of /many")

        // Uploads land elsewhere while /many is read: it is kept.
        let started = try #require(await caughtUp(cache, watcher, many).generation)
        cache.invalidate("/scratch/upload 1.txt", everything: false)
        cache.invalidate("/scratch", everything: false)
        cache.store(listing, tag: "\"t\"", for: many, since: started)
        #expect(await caughtUp(cache, watcher, many).listing?.buffer == listing)

        // Something in /many changes while it is read again: that read is not kept.
        cache.invalidate("/many/new.txt", everything: false)
        let again = try #require(await caughtUp(cache, watcher, many).generation)
        #expect(await caughtUp(cache, watcher, many).listing == nil)
        cache.invalidate("/many/newer.txt", everything: false)
        cache.store(listing, tag: "\"t\"", for: many, since: again)
        #expect(await caughtUp(cache, watcher, many).listing == nil)

        // A change to everything (a moved folder, an overflowing queue) refuses every read begun before it.
        let before = try #require(await caughtUp(cache, watcher, many).generation)
        cache.invalidate("/", everything: true)
        cache.store(listing, tag: "\"t\"", for: many, since: before)
        #expect(await caughtUp(cache, watcher, many).listing == nil)
    }

    /// A lookup once the watcher has handled everything queued (it reads on its own thread).
    func caughtUp(
        _ cache: ListingCache, _ watcher: DirectoryWatcher, _ key: ListingCache.Key
    ) async -> (listing: ListingCache.Entry?, generation: UInt64?) {
        for _ in 0..<500 where !watcher.isCaughtUp {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return cache.lookup(key)
    }
}
