import FileTree
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("Watching folders", .timeLimit(.minutes(1)))
struct DirectoryWatcherTests {
    /// Collects batches until every expected path has been reported, or the time runs out (a
    /// bound for "never", not for speed: the parallel suite can delay a batch by seconds).
    func changes(
        from watcher: DirectoryWatcher, containing expected: Set<String>, within seconds: Double = 20
    ) async -> Set<String> {
        let collected = Task {
            var seen: Set<String> = []
            for await batch in watcher.changes {
                seen.formUnion(batch.paths)
                if expected.isSubset(of: seen) { break }
            }
            return seen
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(seconds))
            collected.cancel()
            watcher.stop()
        }
        let seen = await collected.value
        timeout.cancel()
        return seen
    }

    @Test("a file created, modified, renamed and deleted is reported promptly")
    func fileLifecycle() async throws {
        let folder = try TemporaryFolder()
        try folder.file("existing.txt", "e")
        let watcher = try DirectoryWatcher(path: folder.path, options: .init(coalescing: .milliseconds(50)))
        #expect(watcher.mode == .events)
        let started = ContinuousClock.now
        try folder.file("new #1.txt", "n")
        try FileManager.default.moveItem(
            atPath: folder.path("existing.txt"), toPath: folder.path("renamed.txt"))
        try FileManager.default.removeItem(atPath: folder.path("new #1.txt"))
        let expected: Set = [
            folder.path("new #1.txt"), folder.path("existing.txt"), folder.path("renamed.txt"),
        ]
        let seen = await changes(from: watcher, containing: expected)
        #expect(expected.isSubset(of: seen))
        // Reported, not hung: the promptness itself (about 50 ms, the coalescing) is measured by
        // Benchmarks/Scripts/document_bench.py and search_bench.py on a quiet machine; the
        // parallel suite (a hundred servers killed meanwhile) has delayed this past 5 s.
        #expect(ContinuousClock.now - started < .seconds(30))
        watcher.stop()
    }

    @Test("each batch carries the count of changes reported by its delivery, and the last one every change")
    func batchesCarryTheirCount() async throws {
        let folder = try TemporaryFolder()
        let watcher = try DirectoryWatcher(path: folder.path, options: .init(coalescing: .milliseconds(50)))
        #expect(watcher.changesReported == 0, "nothing changed yet")
        let names = ["one.txt", "two.txt", "three.txt"]
        for name in names { try folder.file(name, "x") }
        var seen: Set<String> = []
        var sequences: [UInt64] = []
        for await batch in watcher.changes {
            seen.formUnion(batch.paths)
            sequences.append(batch.sequence)
            if Set(names.map { folder.path($0) }).isSubset(of: seen) { break }
        }
        #expect(sequences == sequences.sorted() && sequences.last.map { $0 >= 3 } == true)
        #expect(
            watcher.isCaughtUp && sequences.last == watcher.changesReported,
            "with the kernel's queue read, the last batch holds every change reported")
        try folder.file("four.txt", "x")
        let reported = await Self.eventually { watcher.changesReported > sequences.last ?? 0 }
        #expect(reported, "a change handled is counted before its batch is delivered")
        watcher.stop()
    }

    /// Whether `condition` holds within 10 s, asked every 5 ms.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < .seconds(10) {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test("a new subfolder is watched, and what was put in it at once is reported")
    func newSubfolders() async throws {
        let folder = try TemporaryFolder()
        let watcher = try DirectoryWatcher(path: folder.path, options: .init(coalescing: .milliseconds(50)))
        try folder.file("fresh/inner/early.txt", "x")
        let first = await changes(from: watcher, containing: [folder.path("fresh/inner/early.txt")])
        #expect(first.contains(folder.path("fresh")))
        #expect(first.contains(folder.path("fresh/inner/early.txt")))

        let second = try DirectoryWatcher(path: folder.path, options: .init(coalescing: .milliseconds(50)))
        try folder.file("fresh/inner/later.txt", "y")
        let seen = await changes(from: second, containing: [folder.path("fresh/inner/later.txt")])
        #expect(seen.contains(folder.path("fresh/inner/later.txt")))
    }

    @Test("a watcher that is not recursive ignores changes in subfolders")
    func shallowWatch() async throws {
        let folder = try TemporaryFolder()
        try folder.folder("sub")
        let watcher = try DirectoryWatcher(
            path: folder.path, options: .init(recursive: false, coalescing: .milliseconds(50)))
        try folder.file("sub/deep.txt")
        try folder.file("top.txt")
        let seen = await changes(from: watcher, containing: [folder.path("top.txt")])
        #expect(seen.contains(folder.path("top.txt")))
        #expect(!seen.contains(folder.path("sub/deep.txt")))
    }

    @Test("hidden names are left out when the filter says so, temporary files of atomic writes too")
    func filteredNames() async throws {
        let folder = try TemporaryFolder()
        let watcher = try DirectoryWatcher(
            path: folder.path, options: .init(coalescing: .milliseconds(50), filter: .visible))
        try folder.file(".secret", "s")
        try FileOperations.writeAtomically(Array("saved".utf8), to: folder.path("saved.txt"))
        let seen = await changes(from: watcher, containing: [folder.path("saved.txt")])
        #expect(seen == [folder.path("saved.txt")])
    }

    @Test("when the watch limit runs out it falls back to rescans and still reports changes")
    func pollingFallback() async throws {
        let folder = try TemporaryFolder()
        try folder.file("a/one.txt")
        try folder.file("b/two.txt")
        let watcher = try DirectoryWatcher(
            path: folder.path,
            options: .init(
                coalescing: .milliseconds(50), pollingInterval: .milliseconds(200), maximumWatches: 1))
        #expect(watcher.mode == .polling)
        try folder.file("b/three.txt", "3")
        try FileManager.default.removeItem(atPath: folder.path("a/one.txt"))
        let expected: Set = [folder.path("b/three.txt"), folder.path("a/one.txt")]
        let seen = await changes(from: watcher, containing: expected)
        #expect(expected.isSubset(of: seen))
    }

    @Test("stopping a watcher ends its sequence")
    func stopping() async throws {
        let folder = try TemporaryFolder()
        let watcher = try DirectoryWatcher(path: folder.path)
        watcher.stop()
        var batches = 0
        for await _ in watcher.changes { batches += 1 }
        #expect(batches == 0)
    }

    @Test("watching a missing folder fails with a clear error")
    func missingFolder() throws {
        let folder = try TemporaryFolder()
        #expect {
            try DirectoryWatcher(path: folder.path("missing"))
        } throws: { ($0 as? FileTreeError)?.code == .notFound }
    }
}

@Suite("Watching folders: proving a cache fresh")
struct WatcherCaughtUpTests {
    final class Seen: Sendable {
        let paths = Mutex<[String]>([])

        /// A watcher of `folder` whose immediate handler adds each path it reports here.
        func watcher(of folder: TemporaryFolder) throws -> DirectoryWatcher {
            try DirectoryWatcher(
                path: folder.path, options: .init { path, _ in self.paths.withLock { $0.append(path) } })
        }
    }

    @Test(
        "once the watcher says it has caught up, every change made before has reached the immediate handler")
    func caughtUp() async throws {
        let folder = try TemporaryFolder()
        try folder.file("docs/a.txt", "a")
        let seen = Seen()
        let watcher = try seen.watcher(of: folder)
        defer { watcher.stop() }
        for round in 0..<20 {
            try folder.file("docs/file \(round).txt", "x")
            // Caught up within moments (the watcher's thread reads every 10 ms); 10 s means hung.
            let deadline = ContinuousClock.now + .seconds(10)
            while !watcher.isCaughtUp && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(watcher.isCaughtUp, "round \(round)")
            #expect(
                seen.paths.withLock { $0.contains(folder.path("docs/file \(round).txt")) }, "round \(round)")
        }
    }

    @Test("a new folder swapped at once for a link out of the tree is not walked")
    func newFolderSwappedForALinkOut() async throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder(prefix: "browsey-watch-outside")
        for index in 0..<20 { try outside.file("outside-only-\(index)/inner.txt", "x") }
        try folder.file("docs/a.txt", "a")
        let seen = Seen()
        let watcher = try seen.watcher(of: folder)
        defer { watcher.stop() }
        for round in 0..<20 {
            // Made, then at once a link put in its place, before the watcher reads the event.
            try FileManager.default.createDirectory(
                atPath: folder.path("new\(round)"), withIntermediateDirectories: false)
            #expect(rmdir(folder.path("new\(round)")) == 0)
            try FileManager.default.createSymbolicLink(
                atPath: folder.path("new\(round)"), withDestinationPath: outside.path)
        }
        try folder.file("docs/last.txt", "last")
        let deadline = ContinuousClock.now + .seconds(10)
        while !seen.paths.withLock({ $0.contains(folder.path("docs/last.txt")) })
            && ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(5))
        }
        let paths = seen.paths.withLock { $0 }
        #expect(paths.contains(folder.path("docs/last.txt")))
        #expect(
            !paths.contains { $0.contains("outside-only") },
            "\(paths.filter { $0.contains("outside-only") }.prefix(3))")
    }

    @Test("in polling mode the watcher never claims to have caught up")
    func caughtUpWhilePolling() throws {
        let folder = try TemporaryFolder()
        try folder.file("a/b.txt")
        let watcher = try DirectoryWatcher(path: folder.path, options: .init(maximumWatches: 1))
        defer { watcher.stop() }
        #expect(watcher.mode == .polling)
        #expect(!watcher.isCaughtUp)
    }
}
