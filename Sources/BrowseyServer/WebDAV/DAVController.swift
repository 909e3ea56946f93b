import FileTree
import Hummingbird
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// WebDAV (RFC 4918, classes 1 and 2) at `/dav/`: the served folder as a drive for Finder,
/// Explorer, Nautilus, rclone and the rest.
///
/// Every request goes the JSON API's way: the middleware has decided who sent it and what it
/// may do (``FileServerContext/access``); the path resolves under the request's own
/// ``SafePath`` (hidden and ignored names are missing, `..` is refused, links stay inside);
/// writes need a writable server and land through FileTree's atomic writes and non-replacing
/// renames; deletes go to the trash when it is on. Locks live in memory (``DAVLockTable``),
/// dead properties in an extended attribute (``DAVDeadProperties``).
struct DAVController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    /// Where deletes (and items a COPY or MOVE replaces) go; `nil` deletes for good.
    let trash: Trash?
    /// The locks.
    let locks: DAVLockTable
    /// GET and HEAD answer as `/api/file` does: ranges, validators, conditional requests.
    let files: FileController

    /// WebDAV's methods, as the `Allow` header lists them.
    static let methods: [HTTPRequest.Method] = [
        "OPTIONS", "GET", "HEAD", "PUT", "DELETE", "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK",
        "UNLOCK",
    ].compactMap { HTTPRequest.Method($0) }

    static let allowHeader = methods.map(\.rawValue).joined(separator: ", ")

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        for path in [DAVPath.prefix, DAVPath.prefix + "/**"] {
            for method in Self.methods where method != .head {
                group.on(RouterPath(path), method: method) { request, context in
                    try await handle(request, context: context)
                }
            }
            // Methods WebDAV does not have: 405 with the ones it does.
            for method in [HTTPRequest.Method.post, .patch, .trace] {
                group.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw APIError(
                        .methodNotAllowed, "Method not allowed", code: .methodNotAllowed,
                        headers: [.allow: Self.allowHeader])
                }
            }
        }
    }

    /// Sends the request to its method's handler.
    func handle(_ request: Request, context: FileServerContext) async throws -> Response {
        let path = try requestPath(request)
        switch request.method.rawValue {
        case "OPTIONS": return options()
        case "GET", "HEAD": return try await get(request, context: context, path: path)
        case "PROPFIND": return try await propfind(request, context: context, path: path)
        case "PROPPATCH": return try await proppatch(request, context: context, path: path)
        case "PUT": return try await put(request, context: context, path: path)
        case "MKCOL": return try await makeCollection(request, context: context, path: path)
        case "DELETE": return try await delete(request, context: context, path: path)
        case "COPY": return try await transfer(request, context: context, path: path, moves: false)
        case "MOVE": return try await transfer(request, context: context, path: path, moves: true)
        case "LOCK": return try await lock(request, context: context, path: path)
        case "UNLOCK": return try await unlock(request, context: context, path: path)
        default:
            throw APIError(
                .methodNotAllowed, "Method not allowed", code: .methodNotAllowed,
                headers: [.allow: Self.allowHeader])
        }
    }

    /// `OPTIONS`: the classes (`DAV: 1, 2`), the methods, and `MS-Author-Via: DAV`, which
    /// Windows' and Office's clients look for before they write.
    func options() -> Response {
        Response(
            status: .ok,
            headers: [
                .dav: "1, 2", .allow: Self.allowHeader, .msAuthorVia: "DAV", .contentLength: "0",
            ])
    }

    // MARK: Shared rules

    /// The path below the root that the request's URL names; 400 when it cannot be decoded.
    func requestPath(_ request: Request) throws(APIError) -> String {
        guard let path = DAVPath.relative(fromURLPath: request.uri.path) else {
            throw APIError(.badRequest, "Invalid path", code: .invalidPath)
        }
        return path
    }

    /// The status of what `target` names, links followed under the request's rules; `nil`
    /// when nothing is there.
    static func status(of target: SafePath.Resolved, rules: SafePath) -> FileStatus? {
        guard let descriptor = try? rules.openForReading(target) else { return nil }
        defer { close(descriptor) }
        return try? FileStatus(descriptor: descriptor)
    }

    /// The `If:` header's conditions, then the locks: a write to `path` runs only when the
    /// header (if any) holds (else 412) and the client submitted the token of every lock that
    /// protects what it changes (else 423).
    func checkLocks(
        _ request: Request, rules: SafePath, path: String, changesMembership: Bool = false,
        includesDescendants: Bool = false
    ) async throws(APIError) {
        let locks: DAVLocks
        do {
            locks = try await self.locks.snapshot()
        } catch {
            throw APIError.state(error, "The WebDAV locks cannot be checked")
        }
        var submitted: Set<String> = []
        if let header = request.headers[.davIf] {
            guard let parsed = DAVIfHeader(header) else {
                throw APIError(.badRequest, "Invalid If header", code: .invalidBody)
            }
            let holds = parsed.evaluate(
                requestPath: path,
                path: { DAVPath.destination($0, authority: request.head.authority).path },
                holds: { token, resource in locks.holds(token: token, on: resource) },
                etag: { resource in
                    guard let target = try? rules.resolve(resource) else { return nil }
                    return Self.status(of: target, rules: rules).map(HTTPValidators.etag)
                })
            guard holds else {
                throw APIError(.preconditionFailed, "The If header's conditions do not hold", code: .conflict)
            }
            submitted = parsed.submittedTokens
        }
        let protecting = locks.protecting(
            path, changesMembership: changesMembership, includesDescendants: includesDescendants)
        if let held = protecting.first(where: { !submitted.contains($0.token) }) {
            throw Self.locked(held)
        }
    }

    /// 423 for a write to what `lock` protects without its token.
    static func locked(_ lock: DAVLock) -> APIError {
        APIError(.init(code: 423, reasonPhrase: "Locked"), "The resource is locked", code: .conflict)
    }

    /// An XML answer.
    static func xml(_ status: HTTPResponse.Status, _ body: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/xml; charset=utf-8"
        return Response(
            status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// 207 Multi-Status.
    static let multiStatus = HTTPResponse.Status(code: 207, reasonPhrase: "Multi-Status")

    /// The body of the request as XML: `nil` when empty; 400 when not well-formed or holding a
    /// document type; 413 past ``DAVXMLParser/maximumBytes``.
    static func xmlBody(_ request: Request) async throws -> DAVXMLElement? {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: DAVXMLParser.maximumBytes)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "Request body too large", code: .tooLarge)
        }
        guard buffer.readableBytes > 0 else { return nil }
        do {
            return try DAVXMLParser.parse(buffer.readableBytesView)
        } catch {
            let reason =
                switch error {
                case .documentType: "Document type declarations are refused"
                case .tooComplex: "XML nested too deep or too many elements"
                case .malformed(let message): "Invalid XML: \(message)"
                }
            throw APIError(.badRequest, reason, code: .invalidBody)
        }
    }
}
