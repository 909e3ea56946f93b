import Foundation
import Synchronization

/// Another program racing the server: swaps two names of a folder (a folder and a link, or two
/// links) and back on a thread of its own until stopped, with plain renames (so for a moment
/// the first name is missing, or is the second item), and leaves both where they were. It
/// rests a millisecond after each hundred swaps, so that on a machine of two cores it does not
/// starve the tests running beside it.
final class Swapper: Sendable {
    private let first: String
    private let second: String
    private let state = Mutex((started: false, stopped: false))
    private let count = Mutex(0)
    private let done = DispatchSemaphore(value: 0)

    /// A swapper of `first` and `second` in `folder`; ``start()`` starts it.
    init(in folder: String, swapping first: String, with second: String) {
        self.first = folder + "/" + first
        self.second = folder + "/" + second
    }

    /// How many swaps were made so far.
    var swaps: Int { count.withLock { $0 } }

    func start() {
        state.withLock { $0.started = true }
        let (first, second, aside) = (first, second, first + ".aside")
        Thread {
            while !self.state.withLock({ $0.stopped }) {
                for _ in 0..<100 {
                    rename(first, aside)
                    rename(second, first)
                    rename(first, second)
                    rename(aside, first)
                }
                self.count.withLock { $0 += 100 }
                usleep(1000)
            }
            self.done.signal()
        }.start()
    }

    /// Swaps while `rounds` answers are asked for, and counts how many held each of `markers`.
    /// The swapping stops, both names back in place, when it returns or throws.
    func tally(
        _ markers: [String], rounds: Int, asking ask: (Int) async throws -> String
    ) async rethrows -> [String: Int] {
        start()
        defer { stop() }
        var counts: [String: Int] = [:]
        for round in 0..<rounds {
            let text = try await ask(round)
            for marker in markers where text.contains(marker) { counts[marker, default: 0] += 1 }
        }
        return counts
    }

    /// Stops after the round in hand, with both names back in place; again, or before a start,
    /// it does nothing.
    func stop() {
        let running = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return state.started && !state.stopped
        }
        if running { done.wait() }
    }
}
