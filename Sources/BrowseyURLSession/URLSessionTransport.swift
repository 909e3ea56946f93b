public import BrowseyClient
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// ``HTTPTransport`` over `URLSession` (FoundationNetworking on Linux): what apps use.
///
/// Bodies stream: the response's head is returned as soon as it arrives and its bytes follow as
/// the session delivers them, so a large download never sits in memory. It lives in a module of
/// its own because linking FoundationNetworking costs a process about 14 MiB of memory at rest:
/// the `browsey` server does not pay that.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: SessionDelegate

    /// A transport with its own session (ephemeral: no cookies nor cache on disk).
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        let delegate = SessionDelegate()
        self.delegate = delegate
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    /// Sends `request` to `server` and answers with the response head and its streaming body;
    /// `timeout` bounds the server's silence, not the whole exchange.
    public func send(
        _ request: TransportRequest, to server: Server, timeout: Duration
    ) async throws(BrowseyClientError) -> TransportResponse {
        guard let url = URL(string: server.baseURL + request.target) else {
            throw BrowseyClientError(.invalidInput, "\(server.baseURL + request.target) is not a URL")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        // A request with a body is timed by the exchange itself, from the last bytes it sent
        // (see Exchange.watch): URLSession on Linux counts a slow upload as silence.
        let watched: Bool
        switch request.body {
        case .none: watched = false
        case .bytes(let bytes): watched = !bytes.isEmpty
        case .file: watched = true
        }
        urlRequest.timeoutInterval =
            watched
            ? 86_400 : Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        let task: URLSessionTask
        switch request.body {
        case .none:
            task = session.dataTask(with: urlRequest)
        case .bytes(let bytes):
            urlRequest.httpBody = Data(bytes)
            task = session.dataTask(with: urlRequest)
        case .file(let path, let offset, let length):
            let url = URL(fileURLWithPath: path)
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?
                .int64Value
            guard let size, offset + length <= size else {
                throw BrowseyClientError(.localFile, "cannot read \(path)")
            }
            if offset == 0 && length == size {
                // Streamed from the file with its length declared (a body stream would go out
                // chunked on Linux, which the server refuses for uploads).
                task = session.uploadTask(with: urlRequest, fromFile: url)
            } else {
                // A resumed upload: the rest of the file, read now.
                guard let handle = try? FileHandle(forReadingFrom: url) else {
                    throw BrowseyClientError(.localFile, "cannot read \(path)")
                }
                defer { try? handle.close() }
                try? handle.seek(toOffset: UInt64(offset))
                let rest = (try? handle.read(upToCount: Int(length))) ?? Data()
                task = session.uploadTask(with: urlRequest, from: rest)
            }
        }
        let exchange = Exchange(sendProgress: request.sendProgress)
        exchange.attach(task)
        delegate.register(exchange, for: task)
        if watched { exchange.watch(timeout: timeout, server: server) }
        do {
            return try await withTaskCancellationHandler {
                task.resume()
                return try await exchange.head()
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw BrowseyClientError.from(Self.translate(error, server: server))
        }
    }

    /// URLSession's errors in this module's words.
    static func translate(_ error: any Error, server: Server) -> any Error {
        guard let urlError = error as? URLError else { return error }
        switch urlError.code {
        case .cancelled: return CancellationError()
        case .timedOut:
            return BrowseyClientError(.timedOut, "\(server.name) did not answer in time")
        case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet,
            .dnsLookupFailed, .secureConnectionFailed, .serverCertificateUntrusted:
            return BrowseyClientError(
                .unreachable,
                "cannot reach \(server.name) at \(server.authority): \(urlError.localizedDescription)")
        default:
            return BrowseyClientError(
                .unreachable, "talking to \(server.name) failed: \(urlError.localizedDescription)")
        }
    }
}

/// One request's answer as the delegate sees it: the head once, then the body's chunks.
///
/// The body is buffered up to ``Exchange/highWater`` bytes; past that the task is suspended
/// until the reader has taken it down to ``Exchange/lowWater``, so a slow reader (a disk
/// slower than the network) never makes a download pile up in memory.
final class Exchange: Sendable {
    static let highWater = 4 << 20
    static let lowWater = 1 << 20

    private struct State {
        var head: CheckedContinuation<TransportResponse, any Error>?
        var answered: Result<TransportResponse, any Error>?
        var chunks: [[UInt8]] = []
        var buffered = 0
        var finished = false
        var failure: (any Error)?
        var reader: CheckedContinuation<[UInt8]?, any Error>?
        var paused = false
    }

    private let state = Mutex(State())
    private let task = Mutex<URLSessionTask?>(nil)
    let sendProgress: (@Sendable (Int64) -> Void)?

    private struct Watch {
        var timeout: Duration
        var serverName: String
        var started: ContinuousClock.Instant
        var timer: Task<Void, Never>?
    }

    private let watching = Mutex<Watch?>(nil)

    /// Times the exchange itself: the server may stay silent for `timeout` after the last bytes
    /// of the body went out (allowing for what the socket still holds, see ``UploadSilence``),
    /// and between the answer's chunks.
    func watch(timeout: Duration, server: Server) {
        watching.withLock { $0 = Watch(timeout: timeout, serverName: server.name, started: .now) }
        rearm()
    }

    /// Restarts the silence timer (after `delay`, or the timeout).
    private func rearm(_ delay: Duration? = nil) {
        let previous = watching.withLock { watch -> Task<Void, Never>? in
            guard var current = watch else { return nil }
            let old = current.timer
            let wait = delay ?? current.timeout
            let name = current.serverName
            current.timer = Task { [weak self] in
                guard (try? await Task.sleep(for: wait)) != nil else { return }
                self?.finished(BrowseyClientError(.timedOut, "\(name) did not answer in time"))
                self?.cancel()
            }
            watch = current
            return old
        }
        previous?.cancel()
    }

    /// Body bytes went out: the silence timer starts again, with the drain allowance once the
    /// whole body was handed over.
    func sentBody(total: Int64, expected: Int64) {
        sendProgress?(total)
        guard let watch = watching.withLock({ $0 }) else { return }
        if expected > 0 && total >= expected {
            rearm(UploadSilence.allowance(timeout: watch.timeout, sent: total, elapsed: .now - watch.started))
        } else {
            rearm()
        }
    }

    private func stopWatching() {
        watching.withLock { watch -> Task<Void, Never>? in
            defer { watch = nil }
            return watch?.timer
        }?.cancel()
    }

    init(sendProgress: (@Sendable (Int64) -> Void)?) { self.sendProgress = sendProgress }

    func attach(_ task: URLSessionTask) { self.task.withLock { $0 = task } }

    /// Cancels the task: a reader waiting for the next chunk gets `URLError.cancelled`.
    func cancel() { task.withLock { $0 }?.cancel() }

    func head() async throws -> TransportResponse {
        try await withCheckedThrowingContinuation { continuation in
            let answered: Result<TransportResponse, any Error>? = state.withLock { state in
                if state.answered == nil { state.head = continuation }
                return state.answered
            }
            if let answered { continuation.resume(with: answered) }
        }
    }

    func received(_ response: HTTPURLResponse) {
        var headers: [(name: String, value: String)] = []
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers.append((name, value)) }
        }
        let answer = TransportResponse(
            status: response.statusCode, headers: headers, body: ResponseBody(Body(exchange: self)))
        let waiting = state.withLock { state -> CheckedContinuation<TransportResponse, any Error>? in
            state.answered = .success(answer)
            defer { state.head = nil }
            return state.head
        }
        waiting?.resume(returning: answer)
        if watching.withLock({ $0 != nil }) { rearm() }
    }

    func received(_ data: Data) {
        if watching.withLock({ $0 != nil }) { rearm() }
        let bytes = Array(data)
        let (reader, pause) = state.withLock { state -> (CheckedContinuation<[UInt8]?, any Error>?, Bool) in
            if let reader = state.reader {
                state.reader = nil
                return (reader, false)
            }
            state.chunks.append(bytes)
            state.buffered += bytes.count
            guard state.buffered > Self.highWater, !state.paused else { return (nil, false) }
            state.paused = true
            return (nil, true)
        }
        reader?.resume(returning: bytes)
        if pause { task.withLock { $0 }?.suspend() }
    }

    func finished(_ error: (any Error)?) {
        stopWatching()
        let (waiting, reader) = state.withLock {
            state -> (
                CheckedContinuation<TransportResponse, any Error>?, CheckedContinuation<[UInt8]?, any Error>?
            ) in
            // The first ending counts (a timeout, then the cancellation it caused).
            guard !state.finished else { return (nil, nil) }
            if state.answered == nil { state.answered = .failure(error ?? URLError(.badServerResponse)) }
            state.finished = true
            state.failure = error
            defer {
                state.head = nil
                state.reader = nil
            }
            return (state.head, state.chunks.isEmpty ? state.reader : nil)
        }
        waiting?.resume(throwing: error ?? URLError(.badServerResponse))
        if let reader {
            if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
        }
    }

    /// The next chunk of the body, waiting for one; nil at the end.
    func nextChunk() async throws -> [UInt8]? {
        try await withCheckedThrowingContinuation { continuation in
            enum Answer {
                case chunk([UInt8], resume: Bool)
                case end((any Error)?)
                case wait
            }
            let answer: Answer = state.withLock { state in
                if !state.chunks.isEmpty {
                    let chunk = state.chunks.removeFirst()
                    state.buffered -= chunk.count
                    let resume = state.paused && state.buffered < Self.lowWater
                    if resume { state.paused = false }
                    return .chunk(chunk, resume: resume)
                }
                if state.finished { return .end(state.failure) }
                state.reader = continuation
                return .wait
            }
            switch answer {
            case .chunk(let chunk, let resume):
                if resume { task.withLock { $0 }?.resume() }
                continuation.resume(returning: chunk)
            case .end(let failure):
                if let failure {
                    continuation.resume(throwing: failure)
                } else {
                    continuation.resume(returning: nil)
                }
            case .wait:
                break
            }
        }
    }

    /// The body as a sequence of chunks.
    struct Body: AsyncSequence, Sendable {
        typealias Element = [UInt8]
        let exchange: Exchange
        func makeAsyncIterator() -> Iterator { Iterator(exchange: exchange) }
        struct Iterator: AsyncIteratorProtocol {
            let exchange: Exchange
            mutating func next() async throws -> [UInt8]? {
                do {
                    return try await withTaskCancellationHandler {
                        try await exchange.nextChunk()
                    } onCancel: { [exchange] in
                        exchange.cancel()
                    }
                } catch let error as URLError {
                    switch error.code {
                    case .cancelled: throw CancellationError()
                    case .timedOut: throw BrowseyClientError(.timedOut, "the server stopped sending")
                    default: throw error
                    }
                }
            }
        }
    }
}

/// Routes the session's callbacks to each task's ``Exchange``.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: Exchange]>([:])

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(_ task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse { exchange(dataTask)?.received(http) }
        completionHandler(.allow)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        exchange(task)?.sentBody(total: totalBytesSent, expected: totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(dataTask)?.received(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.finished(error)
    }
}
