import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP listener on the loopback that reads each request, sends `answer` (perhaps nothing,
/// perhaps a head and part of a body) and then goes silent with the connection open: the server
/// a client meets when the network stalls, for timeout and cancellation tests.
public final class StallingServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let connections = Descriptors()
    private let stopped = Atomic<Bool>(false)

    /// Starts listening; every connection gets `answer` once its request has arrived.
    public init(answer: [UInt8] = []) throws {
        let (listener, port) = try LoopbackListener.open()
        self.port = port
        self.listener = listener
        let connections = connections
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }  // the listener was shut down
                connections.add(connection)
                Thread.detachNewThread {
                    guard RawSocket.receiveHead(on: connection) != nil else { return }
                    _ = RawSocket.sendAll(answer, on: connection)
                }
            }
        }
    }

    /// Stops listening and closes every connection.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in connections.all {
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
    }

    deinit { stop() }
}

/// The connections accepted so far, to close at the end.
private final class Descriptors: Sendable {
    private let list = Mutex<[Int32]>([])
    func add(_ descriptor: Int32) { list.withLock { $0.append(descriptor) } }
    var all: [Int32] { list.withLock { $0 } }
}
