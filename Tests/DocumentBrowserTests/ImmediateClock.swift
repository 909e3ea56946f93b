import Synchronization

/// A clock whose sleeps return at once, moving its time forward by what was asked: the
/// browser's animated sequences run instantly and the test reads which pauses were taken.
final class ImmediateClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let state = Mutex<(now: Instant, sleeps: [Duration])>((Instant(offset: .zero), []))

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }
    /// The pauses asked for, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(state.now.duration(to: deadline))
            if state.now < deadline { state.now = deadline }
        }
        await Task.yield()
    }
}
