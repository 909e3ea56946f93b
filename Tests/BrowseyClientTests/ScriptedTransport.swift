import BrowseyClient
import Synchronization
import TestSupport

/// A transport that never touches the network: each request is answered by `answer`, which
/// sees the request and the server it was sent to (`nil`: that address cannot be reached).
/// Every request is recorded.
final class ScriptedTransport: HTTPTransport, Sendable {
    struct Answer: Sendable {
        var status: Int
        var headers: [(name: String, value: String)] = []
        var body: [UInt8] = []

        static func json(
            _ text: String, status: Int = 200, headers: [(name: String, value: String)] = []
        ) -> Answer {
            Answer(
                status: status, headers: [("Content-Type", "application/json")] + headers,
                body: Array(text.utf8))
        }
    }

    struct Seen: Sendable {
        var address: String
        var method: String
        var target: String
        var headers: [(name: String, value: String)]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    private let answer: @Sendable (TransportRequest, Server) -> Answer?
    private let seen = Mutex<[Seen]>([])

    init(_ answer: @escaping @Sendable (TransportRequest, Server) -> Answer?) {
        self.answer = answer
    }

    /// The requests sent so far.
    var requests: [Seen] { seen.withLock { $0 } }

    func send(
        _ request: TransportRequest, to server: Server, timeout: Duration
    ) async throws(BrowseyClientError) -> TransportResponse {
        seen.withLock {
            $0.append(
                Seen(
                    address: server.baseURL, method: request.method, target: request.target,
                    headers: request.headers))
        }
        guard let answer = answer(request, server) else {
            throw BrowseyClientError(.unreachable, "cannot reach \(server.baseURL)")
        }
        let body = answer.body
        return TransportResponse(
            status: answer.status, headers: answer.headers,
            body: ResponseBody(
                AsyncStream<[UInt8]> { continuation in
                    if !body.isEmpty { continuation.yield(body) }
                    continuation.finish()
                }))
    }
}

/// A real HTTP server on the loopback, one request a connection, answering each request's
/// head with `answer` and recording the heads it was sent.
final class ScriptedHTTPServer: Sendable {
    private final class Recorder: Sendable {
        let heads = Mutex<[String]>([])
    }

    private let server: EarlyAnswerServer
    private let recorder = Recorder()

    var port: Int { server.port }
    /// The request heads received so far, in order.
    var received: [String] { recorder.heads.withLock { $0 } }

    init(_ answer: @escaping @Sendable (String) -> (status: String, headers: [String], body: String)) throws {
        let recorder = recorder
        server = try EarlyAnswerServer(linger: .zero) { head in
            recorder.heads.withLock { $0.append(head) }
            let (status, headers, body) = answer(head)
            var text = "HTTP/1.1 \(status)\r\n"
            for header in headers { text += header + "\r\n" }
            if !status.hasPrefix("304") { text += "Content-Length: \(body.utf8.count)\r\n" }
            text += "Connection: close\r\n\r\n" + body
            return Array(text.utf8)
        }
    }

    func stop() { server.stop() }

    /// The value of header `name` in `head` (any case), if present.
    static func header(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return String(line[line.index(after: colon)...].drop { $0 == " " })
            }
        }
        return nil
    }

    /// The request target of `head`.
    static func target(of head: String) -> String {
        let parts = head.prefix { $0 != "\r\n" }.split(separator: " ")
        return parts.count > 1 ? String(parts[1]) : ""
    }
}

/// A health answer in the contract's shape, with `serverId` when given.
func healthJSON(serverId: String? = nil, accessToken: Bool? = nil) -> String {
    var fields = [
        #""ok":true"#, #""readonly":true"#,
        #""host":{"hostname":"laptop","platform":"linux","arch":"x64","osRelease":"6.1","runtime":"swift","runtimeVersion":"6.3","uptimeSeconds":5}"#,
    ]
    if let serverId { fields.append(#""serverId":"\#(serverId)""#) }
    if let accessToken { fields.append(#""accessToken":\#(accessToken)"#) }
    return "{" + fields.joined(separator: ",") + "}"
}

/// A listing of `names` (files of 3 bytes) in `folder`, as `/api/list` answers.
func listingJSON(_ names: [String], in folder: String = "/") -> String {
    let items = names.map {
        #"{"name":"\#($0)","type":"file","size":3,"modified":"2024-01-15T10:30:00.000Z","extension":"txt","absolutePath":"/srv\#(folder == "/" ? "" : folder)/\#($0)"}"#
    }
    return
        #"{"path":"\#(folder)","absolutePath":"/srv\#(folder == "/" ? "" : folder)","items":[\#(items.joined(separator: ","))]}"#
}
