import AsyncAlgorithms
import BrowseyClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import Synchronization

/// One HTTP/1.1 connection: requests go one after another, each answered before the next is
/// written. A task owns the channel for its whole life (`executeThenClose`), taking requests
/// from a queue; a response's body is handed over chunk by chunk, each read only once the
/// previous one was taken.
final class HTTPConnection: Sendable {
    /// One request and where its answer goes.
    struct Job: Sendable {
        let request: TransportRequest
        let host: String
        /// How long the server may stay silent, before the head and between chunks.
        let timeout: Duration
        let head: FirstHead
        let body: AsyncThrowingChannel<[UInt8], any Error>
        let reader: BodyReader
        let server: Server
    }

    private struct State {
        var closed = false
        var answered = false
        /// Whether the current exchange ended reusable (nil while it runs).
        var outcome: Bool?
        var onIdle: (@Sendable (Bool) -> Void)?
        /// Set when the connection was closed because the server went silent mid-answer.
        var stalled = false
    }

    /// How long ago the connection's socket last sent the server data (`nil` where the system
    /// cannot say): while it keeps sending, the server is taking the request, however long
    /// that takes.
    typealias SendingProbe = @Sendable () async -> Duration?

    private let jobs: AsyncStream<Job>.Continuation
    private let state = NIOLockedValueBox(State())
    private let runner = Mutex<Task<Void, Never>?>(nil)

    init(_ channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>) {
        let (queue, jobs) = AsyncStream.makeStream(of: Job.self)
        self.jobs = jobs
        let task = Task { [weak self, state] in
            do {
                let socket = channel.channel
                let sending: SendingProbe = { await Self.sinceLastSend(on: socket) }
                try await channel.executeThenClose { inbound, outbound in
                    var parts = inbound.makeAsyncIterator()
                    for await job in queue {
                        let stall: @Sendable () -> Void = { [weak self] in
                            state.withLockedValue { $0.stalled = true }
                            self?.close()
                        }
                        let reusable = await Self.run(
                            job, parts: &parts, outbound: outbound, state: state, sending: sending,
                            stall: stall)
                        let onIdle = state.withLockedValue { state in
                            defer { state.onIdle = nil }
                            if !reusable { state.closed = true }
                            state.outcome = reusable
                            return state.onIdle
                        }
                        onIdle?(reusable)
                        if !reusable { break }
                    }
                }
            } catch {}
            state.withLockedValue { $0.closed = true }
            jobs.finish()
        }
        runner.withLock { $0 = task }
    }

    /// Whether the current request got a response head (a failure before it means the
    /// connection was stale, and the request can be tried again elsewhere).
    var answeredThisRequest: Bool { state.withLockedValue { $0.answered } }

    /// Writes `request` and returns when the response's head has arrived.
    func send(
        _ request: TransportRequest, host: String, timeout: Duration, server: Server
    ) async throws(BrowseyClientError) -> TransportResponse {
        let closed = state.withLockedValue { state in
            state.answered = false
            state.outcome = nil
            return state.closed
        }
        if closed { throw BrowseyClientError(.unreachable, "the connection was closed") }
        let body = AsyncThrowingChannel<[UInt8], any Error>()
        // A reader that goes away mid-answer closes the connection rather than read the rest.
        let reader = BodyReader(body) { [weak self] in self?.close() }
        let head = FirstHead()
        if case .terminated = jobs.yield(
            Job(
                request: request, host: host, timeout: timeout, head: head, body: body, reader: reader,
                server: server))
        {
            throw BrowseyClientError(.unreachable, "the connection was closed")
        }
        do {
            return try await head.value(reader: reader)
        } catch {
            close()
            throw NIOHTTPTransport.translate(error, server: server)
        }
    }

    /// Called once the current response was read to its end (or abandoned), with whether the
    /// connection can take another request.
    func whenIdle(_ body: @escaping @Sendable (Bool) -> Void) {
        let done = state.withLockedValue { state -> Bool? in
            if let outcome = state.outcome { return outcome }
            if state.closed { return false }
            state.onIdle = body
            return nil
        }
        if let done { body(done) }
    }

    /// Closes the connection (a request in progress fails).
    func close() {
        state.withLockedValue { $0.closed = true }
        jobs.finish()
        runner.withLock { $0 }?.cancel()
    }

    /// Writes one request and reads its response; whether the connection can be used again.
    private static func run(
        _ job: Job, parts: inout NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>, state: NIOLockedValueBox<State>,
        sending: @escaping SendingProbe, stall: @escaping @Sendable () -> Void
    ) async -> Bool {
        // The server's silence is timed from when it stopped taking the request: a large body
        // on a slow uplink takes as long as it takes, while the socket keeps sending.
        let started = ContinuousClock.now
        // Why the request could not be written whole, if it could not.
        var unsent: (any Error)?
        do {
            let sent = try await write(job, to: outbound, sending: sending, stall: stall)
            // The first wait allows for what the socket may still hold (where the socket cannot
            // be asked, this is all that keeps a slow uplink's upload from being cut off).
            let first = UploadSilence.allowance(
                timeout: job.timeout, sent: sent, elapsed: ContinuousClock.now - started)
            job.head.startClock(job.timeout, firstWait: first, server: job.server, sending: sending)
        } catch {
            if state.withLockedValue({ $0.stalled }) {
                job.head.settle(
                    .failure(
                        BrowseyClientError(
                            .timedOut,
                            "the server stopped taking the request for \(job.timeout.components.seconds) s")))
                return false
            }
            // A failure of this side (the local file could not be read, or shrank) is the
            // answer at once: the server is still waiting for the rest of the request.
            guard let failed = error as? ConnectionWriteFailure else {
                job.head.settle(.failure(error))
                return false
            }
            // A server may answer before it took the whole request and close the connection:
            // a refusal of an upload it will not read (413, 401, 507), or the answer to a
            // request whose head it had while this side had not yet written the end. The
            // answer may be waiting in what was read: it is the one to give, not the failed
            // write. Only when none came is the write's failure the answer.
            unsent = failed.error
            job.head.startClock(job.timeout, firstWait: job.timeout, server: job.server, sending: sending)
        }
        var keepAlive = false
        do {
            while let part = try await next(&parts, within: job.timeout, sending: sending, stall: stall) {
                switch part {
                case .head(let head):
                    keepAlive = head.isKeepAlive
                    state.withLockedValue { $0.answered = true }
                    var headers: [(name: String, value: String)] = []
                    for field in head.headers { headers.append((field.name, field.value)) }
                    job.head.settle(
                        .success(
                            TransportResponse(
                                status: Int(head.status.code), headers: headers,
                                body: ResponseBody(job.reader))))
                case .body(let buffer):
                    // Waits until the reader took the chunk (or went away).
                    if !job.reader.isAbandoned { await job.body.send(Array(buffer: buffer)) }
                case .end:
                    job.body.finish()
                    return unsent == nil && keepAlive && !job.reader.isAbandoned
                }
            }
            throw BrowseyClientError(.unreachable, "the server closed the connection mid-answer")
        } catch {
            let (stalled, answered) = state.withLockedValue { ($0.stalled, $0.answered) }
            let failure: any Error =
                stalled
                ? BrowseyClientError(
                    .timedOut, "the server stopped sending for \(job.timeout.components.seconds) s")
                : answered ? error : unsent ?? error
            job.head.settle(.failure(failure))
            job.body.fail(failure)
            return false
        }
    }

    /// The next part of the answer; when none comes within `timeout`, `stall` closes the
    /// connection (and this throws).
    private static func next(
        _ parts: inout NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator,
        within timeout: Duration,
        sending: @escaping SendingProbe, stall: @escaping @Sendable () -> Void
    ) async throws -> HTTPClientResponsePart? {
        let timer = watchdog(timeout, sending: sending, expire: stall)
        defer { timer.cancel() }
        return try await parts.next()
    }

    /// Writes one part; when the server takes nothing for `timeout`, `stall` closes the
    /// connection (and this throws). NIO's writer accepts parts in bursts, so one write may
    /// wait long while the socket sends steadily: only a socket that sent nothing counts.
    private static func write(
        _ part: HTTPClientRequestPart, to outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>,
        within timeout: Duration, sending: @escaping SendingProbe, stall: @escaping @Sendable () -> Void
    ) async throws {
        try await write([part], to: outbound, within: timeout, sending: sending, stall: stall)
    }

    /// Writes `parts` together (one flush).
    private static func write(
        _ parts: [HTTPClientRequestPart], to outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>,
        within timeout: Duration, sending: @escaping SendingProbe, stall: @escaping @Sendable () -> Void
    ) async throws {
        let timer = watchdog(timeout, sending: sending, expire: stall)
        defer { timer.cancel() }
        do {
            try await outbound.write(contentsOf: parts)
        } catch {
            throw ConnectionWriteFailure(error: error)
        }
    }

    /// Calls `expire` once `timeout` passed since the socket last sent anything (first waiting
    /// `firstWait`), re-checking exactly when the timeout would end.
    static func watchdog(
        _ timeout: Duration, firstWait: Duration? = nil, sending: @escaping SendingProbe,
        expire: @escaping @Sendable () -> Void
    ) -> Task<Void, Never> {
        Task {
            var wait = firstWait ?? timeout
            while true {
                guard (try? await Task.sleep(for: wait)) != nil else { return }
                if let since = await sending(), since < timeout {
                    wait = timeout - since
                    continue
                }
                expire()
                return
            }
        }
    }

    /// How long ago `channel`'s socket last sent data (TCP_INFO's `last_data_sent`, Linux);
    /// `nil` elsewhere.
    static func sinceLastSend(on channel: any Channel) async -> Duration? {
        #if os(Linux)
            guard let provider = channel as? any SocketOptionProvider,
                let info = try? await provider.getTCPInfo().get()
            else { return nil }
            return .milliseconds(Int64(info.tcpi_last_data_sent))
        #else
            return nil
        #endif
    }

    /// Writes the request; returns the body's length.
    private static func write(
        _ job: Job, to outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>,
        sending: @escaping SendingProbe, stall: @escaping @Sendable () -> Void
    ) async throws -> Int64 {
        let timeout = job.timeout
        var head = HTTPRequestHead(
            version: .http1_1, method: HTTPMethod(rawValue: job.request.method), uri: job.request.target)
        head.headers.add(name: "Host", value: job.host)
        for field in job.request.headers { head.headers.add(name: field.name, value: field.value) }
        var sent: Int64 = 0
        switch job.request.body {
        case .none:
            if job.request.method == "POST" || job.request.method == "PUT" {
                head.headers.add(name: "Content-Length", value: "0")
            }
            // Head and end in one write: a request without a body is whole once it is sent.
            try await write(
                [.head(head), .end(nil)], to: outbound, within: timeout, sending: sending, stall: stall)
            return 0
        case .bytes(let bytes):
            head.headers.add(name: "Content-Length", value: String(bytes.count))
            try await write(.head(head), to: outbound, within: timeout, sending: sending, stall: stall)
            try await write(
                .body(.byteBuffer(ByteBuffer(bytes: bytes))), to: outbound, within: timeout, sending: sending,
                stall: stall)
            sent = Int64(bytes.count)
        case .file(let path, let offset, let length):
            let file = try FilePieces(path: path, offset: offset, length: length)
            head.headers.add(name: "Content-Length", value: String(length))
            try await write(.head(head), to: outbound, within: timeout, sending: sending, stall: stall)
            for try await piece in file {
                sent += Int64(piece.readableBytes)
                try await write(
                    .body(.byteBuffer(piece)), to: outbound, within: timeout, sending: sending, stall: stall)
                job.request.sendProgress?(sent)
            }
        }
        try await write(.end(nil), to: outbound, within: timeout, sending: sending, stall: stall)
        return sent
    }
}

/// A write to the connection failed (not the reading of what was to be written): the server
/// may have answered and closed, and its answer is then still to be read.
struct ConnectionWriteFailure: Error {
    let error: any Error
}

/// The response head of one request: the first of an answer, an error or a timeout.
final class FirstHead: Sendable {
    private struct State {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var outcome: Result<TransportResponse, any Error>?
        var timer: Task<Void, Never>?
    }

    private let state = Mutex(State())

    func settle(_ outcome: Result<TransportResponse, any Error>) {
        let (continuation, timer) = state.withLock {
            state -> (CheckedContinuation<TransportResponse, any Error>?, Task<Void, Never>?) in
            guard state.outcome == nil else { return (nil, nil) }
            state.outcome = outcome
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        continuation?.resume(with: outcome)
    }

    /// Starts timing the server's silence, once the request was handed over: no head within
    /// `timeout` of the socket's last sending is a timeout.
    func startClock(
        _ timeout: Duration, firstWait: Duration, server: Server,
        sending: @escaping HTTPConnection.SendingProbe
    ) {
        let timer = HTTPConnection.watchdog(timeout, firstWait: firstWait, sending: sending) { [weak self] in
            self?.settle(.failure(BrowseyClientError(.timedOut, "\(server.name) did not answer in time")))
        }
        let settled = state.withLock { state -> Bool in
            if state.outcome == nil { state.timer = timer }
            return state.outcome != nil
        }
        if settled { timer.cancel() }
    }

    func value(reader: BodyReader) async throws -> TransportResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let settled: Result<TransportResponse, any Error>? = state.withLock { state in
                    if state.outcome == nil { state.continuation = continuation }
                    return state.outcome
                }
                if let settled { continuation.resume(with: settled) }
            }
        } onCancel: {
            settle(.failure(CancellationError()))
            reader.abandon()
        }
    }
}

/// The reading end of a response body. When the reader goes away before the end, the
/// connection stops handing chunks over and is closed rather than reused.
final class BodyReader: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    private let channel: AsyncThrowingChannel<[UInt8], any Error>
    private let abandoned = Mutex(false)
    private let onAbandon: @Sendable () -> Void

    init(_ channel: AsyncThrowingChannel<[UInt8], any Error>, onAbandon: @escaping @Sendable () -> Void = {})
    {
        self.channel = channel
        self.onAbandon = onAbandon
    }

    var isAbandoned: Bool { abandoned.withLock { $0 } }

    /// The reader went away before the end: no more chunks are handed over.
    func abandon() {
        let first = abandoned.withLock { abandoned in
            defer { abandoned = true }
            return !abandoned
        }
        channel.finish()
        if first { onAbandon() }
    }

    func makeAsyncIterator() -> Iterator { Iterator(reader: self, base: channel.makeAsyncIterator()) }

    struct Iterator: AsyncIteratorProtocol {
        let reader: BodyReader
        var base: AsyncThrowingChannel<[UInt8], any Error>.Iterator
        private let guardian: Guardian

        init(reader: BodyReader, base: AsyncThrowingChannel<[UInt8], any Error>.Iterator) {
            self.reader = reader
            self.base = base
            guardian = Guardian(reader)
        }

        mutating func next() async throws -> [UInt8]? {
            let chunk = try await base.next()
            if chunk == nil {
                // The channel ends early for a cancelled reader: that is not the body's end.
                if Task.isCancelled || reader.isAbandoned {
                    reader.abandon()
                    throw CancellationError()
                }
                guardian.finished()
            }
            return chunk
        }
    }

    /// Tells the connection when an iterator is dropped before the end.
    final class Guardian: Sendable {
        private let reader: BodyReader
        private let done = Mutex(false)
        init(_ reader: BodyReader) { self.reader = reader }
        func finished() { done.withLock { $0 = true } }
        deinit { if !done.withLock({ $0 }) { reader.abandon() } }
    }
}
