/// Carries requests to a server: URLSession for apps (module `BrowseyURLSession`), or anything
/// else that speaks HTTP/1.1. ``APIClient`` builds the requests and reads the answers; a
/// transport only moves bytes.
public protocol HTTPTransport: Sendable {
    /// Sends `request` to `server` and returns once the response's head has arrived; its body
    /// follows as a stream. Throws `unreachable`, `timedOut` or `cancelled`; an HTTP error
    /// status is an answer, not a throw.
    func send(
        _ request: TransportRequest, to server: Server, timeout: Duration
    ) async throws(BrowseyClientError)
        -> TransportResponse
}

/// One HTTP request, as ``APIClient`` builds it.
public struct TransportRequest: Sendable {
    /// `GET`, `POST`, `PUT`, `HEAD`, …
    public var method: String
    /// The path and query, percent-encoded: `/api/list?path=%2Fdocs`.
    public var target: String
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: RequestBody
    /// Told how many bytes of the body were sent so far, as they go.
    public var sendProgress: (@Sendable (Int64) -> Void)?

    /// Describes a request.
    public init(
        method: String, target: String, headers: [(name: String, value: String)] = [],
        body: RequestBody = .none,
        sendProgress: (@Sendable (Int64) -> Void)? = nil
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.sendProgress = sendProgress
    }
}

/// What a request sends.
public enum RequestBody: Sendable {
    /// Nothing.
    case none
    /// These bytes.
    case bytes([UInt8])
    /// A local file's bytes from `offset` to its end (`length` of them).
    case file(path: String, offset: Int64, length: Int64)
}

/// An HTTP response: its status and header fields at once, its body as it arrives.
public struct TransportResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body, in chunks, as fast as it is read (a transport with backpressure reads no
    /// further ahead than its buffers).
    public var body: ResponseBody

    /// Describes a response.
    public init(status: Int, headers: [(name: String, value: String)], body: ResponseBody) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header `name` (any case).
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// The whole body, refusing more than `limit` bytes.
    public func collect(limit: Int = 64 << 20) async throws(BrowseyClientError) -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            for try await chunk in body {
                bytes += chunk
                guard bytes.count <= limit else {
                    throw BrowseyClientError(.decoding, "the answer is larger than \(limit) bytes")
                }
            }
        } catch let error as BrowseyClientError {
            throw error
        } catch {
            throw BrowseyClientError.from(error)
        }
        return bytes
    }
}

/// A response's body as a transport delivers it: chunks of bytes, read once.
public struct ResponseBody: AsyncSequence, Sendable {
    /// A chunk of the body.
    public typealias Element = [UInt8]

    private let makeIterator: @Sendable () -> AsyncIterator

    /// The chunks of `base`.
    public init<Base: AsyncSequence & Sendable>(_ base: Base) where Base.Element == [UInt8] {
        makeIterator = {
            var iterator = base.makeAsyncIterator()
            return AsyncIterator { try await iterator.next() }
        }
    }

    /// The iterator that reads the chunks (once: the body is not replayed).
    public func makeAsyncIterator() -> AsyncIterator { makeIterator() }

    /// Reads the next chunk.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let pull: () async throws -> [UInt8]?
        /// The next chunk, or `nil` at the body's end.
        public mutating func next() async throws -> [UInt8]? { try await pull() }
    }
}

extension BrowseyClientError {
    /// Any error met while talking to a server, as this module's.
    public static func from(_ error: any Error) -> BrowseyClientError {
        if let error = error as? BrowseyClientError { return error }
        if error is CancellationError { return BrowseyClientError(.cancelled, "the request was cancelled") }
        return BrowseyClientError(
            .unreachable, "the connection failed: \(error)", cause: SendableDescription("\(error)"))
    }
}

/// An error's description, kept where the error itself is not `Sendable`.
struct SendableDescription: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
