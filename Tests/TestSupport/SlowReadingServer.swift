import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP listener on the loopback that reads each request's body steadily but slowly (a slow
/// uplink), then answers `200 ok`: the server a large upload meets on a poor network, where
/// the request takes longer to send than the client's timeout although the server never stops
/// taking it.
public final class SlowReadingServer: Sendable {
    /// The port it listens on.
    public let port: Int
    /// How many body bytes it read, in all.
    public var bodyBytesRead: Int { read.value.withLock { $0 } }
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)
    private let read = Counter()

    /// Starts listening; each connection's body is read `stride` bytes at a time with `pause`
    /// between reads.
    public init(stride: Int = 32 << 10, pause: Duration = .milliseconds(10)) throws {
        // A small receive buffer, so the client's bytes wait on its side, not in this one.
        let (listener, port) = try LoopbackListener.open(receiveBuffer: 16 << 10)
        self.port = port
        self.listener = listener
        let read = read
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                Thread.detachNewThread {
                    defer { close(connection) }
                    var received: [UInt8] = []
                    var chunk = [UInt8](repeating: 0, count: stride)
                    var headEnd: Int?
                    var bodyLength = 0
                    while true {
                        if let end = headEnd, received.count - end >= bodyLength { break }
                        let count = chunk.withUnsafeMutableBytes {
                            recv(connection, $0.baseAddress, $0.count, 0)
                        }
                        guard count > 0 else { return }
                        received += chunk[0..<count]
                        if headEnd == nil, let end = Self.headEnd(received) {
                            headEnd = end
                            bodyLength = Self.contentLength(received[..<end])
                        }
                        if let end = headEnd {
                            read.value.withLock { $0 = received.count - end }
                            Thread.sleep(
                                forTimeInterval: Double(pause.components.attoseconds) / 1e18
                                    + Double(pause.components.seconds))
                        }
                    }
                    _ = RawSocket.sendAll(
                        Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8),
                        on: connection)
                    // A graceful close: say we are done, then wait (at most 5 s) for the client to
                    // close its side, so the answer is never cut by a reset.
                    shutdown(connection, Int32(SHUT_WR))
                    var patience = timeval(tv_sec: 5, tv_usec: 0)
                    setsockopt(
                        connection, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
                    while chunk.withUnsafeMutableBytes({ recv(connection, $0.baseAddress, $0.count, 0) }) > 0
                    {}
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

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        let marker = Array("\r\n\r\n".utf8)
        guard bytes.count >= marker.count else { return nil }
        for index in 0...(bytes.count - marker.count)
        where bytes[index..<(index + marker.count)].elementsEqual(marker) {
            return index + marker.count
        }
        return nil
    }

    private static func contentLength(_ head: ArraySlice<UInt8>) -> Int {
        for line in String(decoding: head, as: UTF8.self).split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        return 0
    }
}

/// A count shared with the reading threads.
private final class Counter: Sendable {
    let value = Mutex(0)
}
