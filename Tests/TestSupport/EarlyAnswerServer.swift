import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP listener on the loopback that reads only a request's head, sends the answer for it
/// at once and ends its side (a FIN after the answer, in order: the answer is never lost),
/// waits `linger` without reading the body, then closes (the system resets the connection
/// over the body left unread). A client still writing the body sees the connection end after
/// the answer arrived, as with a server that answers one request a connection and closes:
/// the server an upload meets when it is refused before it is taken (too large, not allowed).
public final class EarlyAnswerServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)

    /// Starts listening; every connection gets `answer(head)` once its request's `head` (the
    /// request line and fields) has arrived.
    public init(
        linger: Duration = .milliseconds(500), answer: @escaping @Sendable (String) -> [UInt8]
    ) throws {
        // A small receive buffer, so a body cannot all fit in it before the close.
        let (listener, port) = try LoopbackListener.open(receiveBuffer: 16 << 10)
        self.port = port
        self.listener = listener
        let seconds = Double(linger.components.seconds) + Double(linger.components.attoseconds) / 1e18
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }  // the listener was shut down
                Thread.detachNewThread {
                    defer { close(connection) }
                    guard let head = RawSocket.receiveHead(on: connection) else { return }
                    _ = RawSocket.sendAll(answer(String(decoding: head, as: UTF8.self)), on: connection)
                    shutdown(connection, Int32(SHUT_WR))
                    Thread.sleep(forTimeInterval: seconds)
                }
            }
        }
    }

    /// Stops listening.
    public func stop() {
        // Once: a second close could close a descriptor another test was given meanwhile.
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }
}
