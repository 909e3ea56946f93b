import Dispatch
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a server until SIGINT or SIGTERM, then stops it within a deadline:
///
/// 1. The first signal starts a graceful shutdown: the listener closes, idle connections
///    close, requests in progress may finish (event streams end at once).
/// 2. After the shutdown timeout, or at a second signal, every connection still open is
///    closed. Requests still running see their connection end and unwind as if the client
///    had left: a plain upload removes its temporary file, a resumable one keeps its part
///    file for the client to continue later.
/// 3. Should the server still run half a second after that (a request stuck in a system
///    call), the process ends anyway.
enum ServerShutdown {
    /// How long the server may take to end once its connections are closed.
    static let grace: Duration = .milliseconds(500)

    static func run(
        _ service: some Service, connections: ConnectionRegistry, timeout: Duration, logger: Logger
    ) async throws {
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let group = ServiceGroup(services: [service], logger: logger)
        let ended = Ended()
        defer { ended.flag.store(true, ordering: .sequentiallyConsistent) }
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            tasks.addTask {
                var received = signals.makeAsyncIterator()
                guard let first = await received.next() else { return }
                logger.info(
                    "Stopping (\(first)): requests in progress have \(timeout) to finish; \(first) again stops at once"
                )
                await group.triggerGracefulShutdown()
                let deadline = Task {
                    try await Task.sleep(for: timeout)
                    force(connections, reason: "the shutdown timeout passed", ended: ended, logger: logger)
                }
                defer { deadline.cancel() }
                guard let second = await received.next() else { return }
                force(connections, reason: "a second \(second)", ended: ended, logger: logger)
            }
            try await tasks.next()  // the server ended
            tasks.cancelAll()
        }
    }

    /// Closes every connection, and ends the process if the server has not ended ``grace``
    /// later.
    private static func force(_ connections: ConnectionRegistry, reason: String, ended: Ended, logger: Logger)
    {
        logger.warning("Closing \(connections.count) connections still open: \(reason)")
        connections.closeAll()
        let (seconds, attoseconds) = grace.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            guard !ended.flag.load(ordering: .sequentiallyConsistent) else { return }
            logger.error("The server did not stop in time: exiting")
            _exit(1)
        }
    }
}

/// Whether ``ServerShutdown/run(_:connections:timeout:logger:)`` has returned.
private final class Ended: Sendable {
    let flag = Atomic<Bool>(false)
}
