import BrowseyAPI
import BrowseyServer
import Foundation
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Renames a folder back and forth as fast as one thread can, until stopped.
final class RenameStorm: Sendable {
    private let running = Atomic<Bool>(true)
    private let done = Atomic<Bool>(false)
    let renames = Atomic<Int>(0)

    init(_ first: String, _ second: String) {
        let thread = Thread { [self] in
            var names = (first, second)
            while running.load(ordering: .relaxed) {
                if rename(names.0, names.1) == 0 {
                    renames.add(1, ordering: .relaxed)
                    names = (names.1, names.0)
                }
            }
            done.store(true, ordering: .sequentiallyConsistent)
        }
        thread.start()
    }

    /// Stops the thread and waits for it.
    func stop() async {
        running.store(false, ordering: .relaxed)
        while !done.load(ordering: .sequentiallyConsistent) { try? await Task.sleep(for: .milliseconds(5)) }
    }
}

/// What the listings saw: the slowest, how many, how many wrong, whether one hung.
final class StormOutcome: Sendable {
    let value = Mutex<(slowest: Duration, listings: Int, wrong: Int, hung: Bool)>((.zero, 0, 0, false))
}

/// A listing's names, once it answered.
final class Answered: Sendable {
    let names = Mutex<[String]?>(nil)
}

@Suite(
    "The watcher never blocks a request",
    .enabled(if: TimingSensitive.runsHere, "timing tests run apart: Scripts/test, BROWSEY_TIMING_TESTS=1"))
struct RenameStormTests {
    @Test(
        "a folder renamed in a tight loop for 3 s: every listing of another folder answers within a second, and right"
    )
    func renameStorm() async throws {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("storm/a/inside/file.txt", "x")
        let storm = RenameStorm(fixture.folder.path("storm/a"), fixture.folder.path("storm/b"))
        let clock = ContinuousClock()
        let until = clock.now + .seconds(3)
        let outcome = StormOutcome()
        try await fixture.withClient(fixture.configuration()) { client in
            var slowest: Duration = .zero
            var listings = 0
            var wrong = 0
            var hung = false
            defer { outcome.value.withLock { $0 = (slowest, listings, wrong, hung) } }
            while clock.now < until {
                let started = clock.now
                // A listing that hangs (the old behaviour: draining inotify on the request's
                // path never ends while the storm lasts) fails here instead of holding the suite:
                // it runs apart, and is given up on after 10 s (it ends once the storm stops).
                let listing = Task {
                    try await client.ask("/api/list?path=%2Fdocs").decode(ListResponse.self).items.map(\.name)
                }
                let answered = Answered()
                Task {
                    let names = (try? await listing.value) ?? []
                    answered.names.withLock { $0 = names }
                }
                var names: [String]?
                while names == nil && clock.now < started + .seconds(10) {
                    names = answered.names.withLock { $0 }
                    if names == nil { try await Task.sleep(for: .milliseconds(1)) }
                }
                guard let names else {
                    hung = true
                    break
                }
                slowest = max(slowest, clock.now - started)
                listings += 1
                if names.sorted() != ["100% done.txt", "café.txt", "notes #1.md"] { wrong += 1 }
            }
        }
        await storm.stop()
        let (slowest, listings, wrong, hung) = outcome.value.withLock { $0 }
        let renames = storm.renames.load(ordering: .relaxed)
        print("rename storm: \(renames) renames in 3 s; \(listings) listings, the slowest \(slowest)")
        #expect(!hung, "a listing waited 10 s for the watcher")
        #expect(renames > 1000, "the storm ran")
        #expect(listings > 10)
        #expect(wrong == 0)
        #expect(slowest < .seconds(1))
    }
}
