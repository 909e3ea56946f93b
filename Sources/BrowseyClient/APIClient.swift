public import BrowseyAPI

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A typed client for one Browsey server: every endpoint of the contract and of this server,
/// as `async` calls that throw one ``BrowseyClientError`` saying what happened.
///
/// ```swift
/// let server = try Server(host: "192.168.1.23", port: 8080)
/// let client = APIClient(server: server, transport: URLSessionTransport())
/// let listing = try await client.list("/docs")
/// ```
public struct APIClient: Sendable {
    /// The server asked.
    public var server: Server
    /// How long a request may wait for the response's head.
    public var timeout: Duration
    let transport: any HTTPTransport
    /// Thumbnails fetched by ``thumbnail(of:size:)``: memory only unless given a store with a
    /// folder.
    public var thumbnails = ThumbnailStore()
    /// Listings and views read by ``list(_:hidden:)`` and ``view(_:)``, kept with their ETags so
    /// that reading one again costs a 304 when it has not changed.
    public var conditionalReads = ConditionalReadCache()

    /// A client for `server` over `transport`.
    public init(server: Server, transport: any HTTPTransport, timeout: Duration = .seconds(15)) {
        self.server = server
        self.transport = transport
        self.timeout = timeout
    }

    // MARK: Reading

    /// `GET /api/health`: whether the server answers, its mode and its machine. Needs no token.
    public func health() async throws(BrowseyClientError) -> HealthResponse {
        try await json(HealthResponse.self, "GET", "/api/health")
    }

    /// `GET /api/list`: a folder's entries, folders first (hidden names only if the server
    /// allows them and `hidden` is set). A listing read before is asked for with its ETag, and
    /// a 304 reuses it (see ``conditionalReads``).
    public func list(
        _ path: String = "/", hidden: Bool = false
    ) async throws(BrowseyClientError) -> ListResponse {
        try await cachedJSON(ListResponse.self, "/api/list", query: Self.listQuery(path, hidden: hidden))
    }

    /// `GET /api/stat`: one entry's metadata.
    public func stat(_ path: String) async throws(BrowseyClientError) -> StatResponse {
        try await json(StatResponse.self, "GET", "/api/stat", query: [("path", path)])
    }

    /// `GET /api/view`: what a viewer shows for a file (text with its language, an image's
    /// URL and size, …). A view read before is asked for with its ETag, and a 304 reuses it
    /// (see ``conditionalReads``).
    public func view(_ path: String) async throws(BrowseyClientError) -> ViewResponse {
        try await cachedJSON(ViewResponse.self, "/api/view", query: [("path", path)])
    }

    /// `GET /api/search`: names under `folder` matching `query`, best first.
    public func search(
        _ query: String, in folder: String = "/", limit: Int = 50
    ) async throws(BrowseyClientError) -> SearchResponse {
        try await json(
            SearchResponse.self, "GET", "/api/search",
            query: [("path", folder), ("q", query), ("limit", String(limit))])
    }

    /// A file's bytes (all of them, or `range`), at most `limit` in memory; for large files
    /// use ``download(_:to:resume:progress:)``.
    public func contents(
        _ path: String, range: ClosedRange<Int64>? = nil, limit: Int = 64 << 20
    ) async throws(BrowseyClientError) -> [UInt8] {
        var headers: [(name: String, value: String)] = []
        if let range { headers.append(("Range", "bytes=\(range.lowerBound)-\(range.upperBound)")) }
        let response = try await send(
            "GET", "/api/file", query: [("path", path), ("download", "false")], headers: headers)
        return try await response.collect(limit: limit)
    }

    /// A file's bytes as they arrive, for a caller that passes them on (to a terminal, say)
    /// without holding them.
    public func stream(_ path: String) async throws(BrowseyClientError) -> ResponseBody {
        try await send("GET", "/api/file", query: [("path", path), ("download", "false")]).body
    }

    /// The file's current ETag (`HEAD /api/file`), which changes whenever its contents may have.
    public func etag(of path: String) async throws(BrowseyClientError) -> String {
        let response = try await send("HEAD", "/api/file", query: [("path", path), ("download", "false")])
        guard let etag = response.header("ETag") else {
            throw BrowseyClientError(.decoding, "the server gave no ETag for \(path)")
        }
        return etag
    }

    // MARK: Writing

    /// `POST /api/save`: replaces a text file's contents if it is still the version read
    /// (`baseModified`, `baseSize`); throws `conflict` when it changed meanwhile, leaving the
    /// caller's text untouched.
    public func save(
        _ path: String, content: String, baseModified: Date? = nil, baseSize: Int64? = nil
    ) async throws(BrowseyClientError) -> SaveResponse {
        try await json(
            SaveResponse.self, "POST", "/api/save",
            body: SaveRequest(path: path, content: content, baseModified: baseModified, baseSize: baseSize))
    }

    /// `POST /api/rename`: gives an entry a new name in its folder; `conflict` when taken.
    public func rename(_ path: String, to newName: String) async throws(BrowseyClientError) -> ChangeResponse
    {
        try await json(
            ChangeResponse.self, "POST", "/api/rename", body: RenameRequest(path: path, newName: newName))
    }

    /// `POST /api/move`: moves an entry into the folder `destination`.
    public func move(
        _ path: String, into destination: String
    ) async throws(BrowseyClientError) -> ChangeResponse {
        try await json(
            ChangeResponse.self, "POST", "/api/move",
            body: TransferRequest(path: path, destination: destination))
    }

    /// `POST /api/copy`: copies an entry into the folder `destination`.
    public func copy(
        _ path: String, into destination: String
    ) async throws(BrowseyClientError) -> ChangeResponse {
        try await json(
            ChangeResponse.self, "POST", "/api/copy",
            body: TransferRequest(path: path, destination: destination))
    }

    /// `POST /api/delete`: deletes an entry (into the server's trash when it keeps one).
    public func delete(_ path: String) async throws(BrowseyClientError) -> DeleteResponse {
        try await json(DeleteResponse.self, "POST", "/api/delete", body: PathRequest(path: path))
    }

    /// `POST /api/mkdir`: makes a folder.
    public func makeFolder(_ path: String) async throws(BrowseyClientError) -> ChangeResponse {
        try await json(ChangeResponse.self, "POST", "/api/mkdir", body: PathRequest(path: path))
    }

    // MARK: Requests

    /// Sends a request and decodes a JSON answer of at most `limit` bytes, or throws the
    /// server's error.
    func json<Answer: Decodable>(
        _ type: Answer.Type, _ method: String, _ endpoint: String, query: [(String, String?)] = [],
        body: (some Encodable)? = nil as Never?, limit: Int = 64 << 20
    ) async throws(BrowseyClientError) -> Answer {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        var payload = RequestBody.none
        if let body {
            do {
                payload = .bytes(Array(try JSONEncoder.browsey().encode(body)))
            } catch {
                throw BrowseyClientError(.invalidInput, "the request could not be encoded: \(error)")
            }
            headers.append(("Content-Type", "application/json"))
        }
        let response = try await send(method, endpoint, query: query, headers: headers, body: payload)
        let bytes = try await response.collect(limit: limit)
        do {
            return try JSONDecoder.browsey().decode(Answer.self, from: Data(bytes))
        } catch {
            throw BrowseyClientError(
                .decoding, "the server's answer to \(endpoint) is not what the contract says: \(error)",
                cause: SendableDescription("\(error)"))
        }
    }

    /// Sends a request; an error status becomes the error it means, with the server's message.
    func send(
        _ method: String, _ endpoint: String, query: [(String, String?)] = [],
        headers: [(name: String, value: String)] = [], body: RequestBody = .none,
        sendProgress: (@Sendable (Int64) -> Void)? = nil
    ) async throws(BrowseyClientError) -> TransportResponse {
        var target = endpoint
        let encoded = QueryString.make(query)
        if !encoded.isEmpty { target += "?" + encoded }
        var fields = headers
        if let token = server.token { fields.append(("Authorization", "Bearer \(token)")) }
        // The gate's value goes in a header only: a URL ends up in logs and histories.
        if let access = server.accessToken { fields.append((Self.accessTokenHeader, access)) }
        if let cloudflare = server.cloudflareAccess {
            fields.append(("CF-Access-Client-Id", cloudflare.id))
            fields.append(("CF-Access-Client-Secret", cloudflare.secret))
        }
        let response = try await transport.send(
            TransportRequest(
                method: method, target: target, headers: fields, body: body, sendProgress: sendProgress),
            to: server, timeout: timeout)
        guard response.status >= 400 else { return response }
        let bytes = (try? await response.collect(limit: 1 << 20)) ?? []
        throw BrowseyClientError.answer(
            status: response.status, body: bytes, endpoint: endpoint, server: server,
            challenge: response.header("WWW-Authenticate"))
    }

    /// The header that carries ``Server/accessToken``: `X-Browsey-Access-Token`.
    public static let accessTokenHeader = "X-Browsey-Access-Token"
}

extension BrowseyClientError {
    /// The error an HTTP error status means, in words a person understands.
    static func answer(
        status: Int, body: [UInt8], endpoint: String, server: Server, challenge: String? = nil
    ) -> BrowseyClientError {
        let answer = try? JSONDecoder.browsey().decode(ErrorResponse.self, from: Data(body))
        let said = answer?.error ?? String(decoding: body.prefix(200), as: UTF8.self)
        var error: BrowseyClientError
        // The access-token gate says who refused in its challenge; a bearer refusal says
        // `Bearer realm=…` (or nothing, on older servers).
        let isGate = challenge.map { $0.lowercased().hasPrefix("browsey-access") } ?? false
        switch status {
        case 401 where isGate:
            error = BrowseyClientError(
                .accessToken,
                server.accessToken == nil
                    ? "\(server.name) asks for its access token (X-Browsey-Access-Token): add the one it was started with"
                    : "\(server.name) refused the access token: check it against the one it was started with")
        case 401:
            error = BrowseyClientError(
                .unauthorized,
                server.token == nil
                    ? "\(server.name) asks for a token: add the one its banner printed"
                    : "\(server.name) refused the token: check it against the one its banner printed")
        case 409:
            error = BrowseyClientError(.conflict, said.isEmpty ? "the file changed on the server" : said)
        default:
            error = BrowseyClientError(
                .httpStatus, "\(said.isEmpty ? "the server refused" : said) (HTTP \(status) from \(endpoint))"
            )
        }
        error.status = status
        return error
    }
}
