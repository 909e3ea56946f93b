import Dispatch
import FileTree
import Synchronization

/// Numbered pieces of work done on threads of their own, taken back in order: the content
/// index's build reads and cuts files on every core while one thread keeps the results.
///
/// At most `ahead` pieces are done or in hand and not yet taken, which bounds the memory the
/// results hold. With no thread to be had, each piece is done when it is asked for.
final class OrderedWork<Result: Sendable>: Sendable {
    private struct State {
        var next = 0
        var results: [Int: Result] = [:]
        var cancelled = false
        var threads = 0
    }

    /// How many pieces there are.
    let count: Int
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let room: DispatchSemaphore
    private let makeWorker: @Sendable () -> (Int) -> Result
    private let inline = Mutex<((Int) -> Result)?>(nil)

    /// Starts `threads` threads called `name` at `nice`, each making its worker with
    /// `makeWorker` and doing pieces `0 ..< count` as they come.
    init(
        count: Int, threads: Int, ahead: Int, name: String, nice: Int32,
        makeWorker: @escaping @Sendable () -> (Int) -> Result
    ) {
        self.count = count
        self.makeWorker = makeWorker
        // Counted up from 0, not made with a count: Dispatch traps when a semaphore goes away
        // below the count it was made with, as one does when a build stops early.
        room = DispatchSemaphore(value: 0)
        for _ in 0..<max(ahead, threads) { room.signal() }
        for _ in 0..<threads {
            let started = DetachedThread.start(name: name, nice: nice) { [self] in run() }
            if started { state.withLock { $0.threads += 1 } }
        }
    }

    private func run() {
        serve()
        ended.signal()  // after `serve` returned: its worker is let go
    }

    private func serve() {
        let work = makeWorker()
        while true {
            room.wait()
            let index = state.withLock { state -> Int? in
                guard !state.cancelled, state.next < count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
            guard let index else {
                room.signal()  // let the next thread see the end too
                return
            }
            let result = work(index)
            state.withLock { $0.results[index] = result }
            ready.signal()
        }
    }

    /// Piece `index`'s result, waiting for it; ask for them in order, from one thread. `nil`
    /// once cancelled.
    func result(_ index: Int) -> Result? {
        if state.withLock({ $0.threads == 0 }) {
            return inline.withLock { work in
                if work == nil { work = makeWorker() }
                return work?(index)
            }
        }
        while true {
            let (result, cancelled) = state.withLock { ($0.results.removeValue(forKey: index), $0.cancelled) }
            if let result {
                room.signal()
                return result
            }
            if cancelled { return nil }
            ready.wait()
        }
    }

    /// Stops taking pieces, and returns once every thread has ended (after its piece in hand),
    /// its worker and the memory it held let go.
    func finish() {
        let threads = state.withLock { state -> Int in
            state.cancelled = true
            return state.threads
        }
        room.signal()
        ready.signal()
        for _ in 0..<threads { ended.wait() }
    }
}
