import BrowseyAPI
import FileTree
import Hummingbird
import NIOCore
import NIOPosix
import SearchIndex

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What every controller of the served folder has: the configuration and the path rules, and
/// the rules they share (resolving a request's path, refusing writes, decoding a body, running
/// file work off the async pool). A request's path through a controller is one straight line:
/// route → ``SafePath`` → FileTree → encode.
protocol ServedFolderRoutes: Sendable {
    /// What is served and how.
    var configuration: ServerConfiguration { get }
    /// The path rules.
    var safePath: SafePath { get }
    /// Where changes are recorded, when they are.
    var audit: AuditLog? { get }
}

extension ServedFolderRoutes {
    /// No audit log unless the controller has one.
    var audit: AuditLog? { nil }

    /// Records a change in the audit log: what, where, by whom, from which address.
    func record(_ event: String, _ path: String, _ context: FileServerContext, detail: String? = nil) {
        audit?.record(
            event, user: context.identity.user, address: context.clientAddress, path: path,
            detail: detail)
    }

    /// Whether a listing or archive asked for hidden names (`hidden=1`) gets them: only where
    /// the server shows them (a link's controllers run with them off).
    func includesHidden(_ request: Request) -> Bool {
        configuration.showsHidden && request.uri.queryParameters.get("hidden") == "1"
    }

    /// The largest JSON body a write accepts: a 5 MiB text escaped for JSON, with room to spare.
    static var writeBodyLimit: Int { 32 * 1024 * 1024 }

    /// The `path` query parameter resolved inside the root; missing or empty means the root
    /// when `required` is false, 400 "Path required" otherwise. The request must be allowed
    /// `need` there (``RequestAccess/check(_:_:notFound:)``): reading unless said otherwise.
    func resolve(
        _ request: Request, _ context: FileServerContext, required: Bool, notFound: String,
        need: RequestAccess.Need = .read
    ) throws(APIError) -> SafePath.Resolved {
        let raw = request.uri.queryParameters.get("path") ?? ""
        if raw.isEmpty && required { throw .pathRequired }
        return try resolve(path: raw, context, notFound: notFound, need: need)
    }

    /// `raw` resolved inside the root (`forWriting`: with the refusals of a path a write
    /// creates), a failure answered with the route's `notFound`; the request must be allowed
    /// `need` there. What every route that takes a path does first.
    func resolve(
        path raw: String, _ context: FileServerContext, notFound: String, need: RequestAccess.Need,
        forWriting: Bool = false
    ) throws(APIError) -> SafePath.Resolved {
        let rules = try context.access.rules()
        let resolved: SafePath.Resolved
        do {
            resolved = forWriting ? try rules.resolveForWriting(raw) : try rules.resolve(raw)
        } catch {
            throw APIError.from(error, notFound: notFound)
        }
        try context.access.check(need, resolved, notFound: notFound)
        return resolved
    }

    static func itemType(_ type: EntryType) -> ItemType { ItemType(type) }

    static func itemType(_ kind: IndexedEntry.Kind) -> ItemType { ItemType(kind) }

    /// Opens the file `target` names below the root, and its status read from the descriptor
    /// (never looked up by name again). The caller closes the descriptor.
    func openForReading(_ target: SafePath.Resolved, notFound: String) throws(APIError) -> (Int32, FileStatus)
    {
        let descriptor: Int32
        do {
            descriptor = try safePath.openForReading(target)
        } catch {
            throw APIError.from(error, notFound: notFound)
        }
        do {
            return (descriptor, try FileStatus(descriptor: descriptor))
        } catch {
            close(descriptor)
            throw APIError.from(error, notFound: notFound)
        }
    }

    /// Refuses writes on a read-only server (403) and bodies that a cross-site HTML form could
    /// send (415): a write's body is JSON, which a browser sends elsewhere only after a CORS
    /// preflight this server does not grant.
    func requireWritable(
        _ request: Request, _ context: FileServerContext, needsJSON: Bool = true
    ) throws(APIError) {
        if !context.access.mayWrite { throw .readOnly }
        try requireThisSite(request)
        guard needsJSON else { return }
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type == "application/json" || type.hasPrefix("application/json;") else {
            throw APIError(
                .unsupportedMediaType, "Writes need a JSON body (Content-Type: application/json)",
                code: .jsonRequired)
        }
    }

    /// A JSON body, sent by this site or an allowed origin: what a request that changes
    /// something other than files needs (sign-ins, shares), so that a page elsewhere cannot
    /// send it from a plain form.
    func requireJSONFromThisSite(_ request: Request) throws(APIError) {
        try requireThisSite(request)
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type == "application/json" || type.hasPrefix("application/json;") else {
            throw APIError(
                .unsupportedMediaType, "Writes need a JSON body (Content-Type: application/json)",
                code: .jsonRequired)
        }
    }

    /// Refuses a request a page of another site sent (403 `crossSite`): a browser names the page
    /// that sent a request, and a form or a `fetch` elsewhere needs no preflight to change
    /// something here (a multipart upload, a sign-out). Clients that are not browsers send no
    /// `Origin`; `--cors` origins are this site's friends.
    func requireThisSite(_ request: Request) throws(APIError) {
        if let origin = request.headers[.origin],
            !Self.isSameOrigin(origin, authority: request.head.authority),
            !configuration.corsOrigins.contains(origin)
        {
            throw APIError(.forbidden, "Cross-site request refused", code: .crossSite)
        }
    }

    /// Whether an `Origin` (`http://host:port`) is the server the request was sent to.
    static func isSameOrigin(_ origin: String, authority: String?) -> Bool {
        guard let authority, let schemeEnd = origin.firstRange(of: "://") else { return false }
        let host = origin[schemeEnd.upperBound...]
        let scheme = origin[..<schemeEnd.lowerBound].lowercased()
        let defaultPort = scheme == "https" ? ":443" : ":80"
        func normalized(_ text: some StringProtocol) -> String {
            let lowered = text.lowercased()
            return lowered.contains("]:") || (!lowered.hasPrefix("[") && lowered.contains(":"))
                ? lowered : lowered + defaultPort
        }
        return normalized(host) == normalized(authority)
    }

    /// The request's JSON body as `Value`: 413 past ``writeBodyLimit``, 400 when it is not the
    /// expected JSON.
    func decode<Value: Decodable>(_ type: Value.Type, from request: Request) async throws -> Value {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.writeBodyLimit)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "Request body too large", code: .tooLarge)
        }
        // A body that breaks its framing (a bad chunk size) is the channel's 400 and closes the
        // connection: that error is not caught above.
        do {
            return try JSONDecoder.browsey().decode(Value.self, from: Data(buffer.readableBytesView))
        } catch {
            throw APIError(.badRequest, "Invalid JSON body", code: .invalidBody)
        }
    }

    /// A path a write changes or creates, with the contract's refusals; the request must be
    /// allowed `need` there (writing unless said otherwise).
    func resolveForWriting(
        _ raw: String, _ context: FileServerContext, notFound: String, need: RequestAccess.Need = .write
    ) throws(APIError) -> SafePath.Resolved {
        guard !raw.isEmpty else { throw .pathRequired }
        let target = try resolve(path: raw, context, notFound: notFound, need: need, forWriting: true)
        try context.writeLocks?.check(target.relative)
        context.touched?.add(target.absolute)
        return target
    }

    /// The folder a move or copy goes into: it must exist, be a folder, and lie inside the root,
    /// and the request must be allowed `need` there (writing unless said otherwise).
    func destinationFolder(
        _ raw: String, _ context: FileServerContext, need: RequestAccess.Need = .write
    ) throws(APIError) -> OpenFolder {
        let folder = try resolve(
            path: raw.isEmpty ? "/" : raw, context, notFound: "Destination not found", need: need)
        context.touched?.add(folder.absolute)
        // A new name in a locked folder needs that lock's token, as in WebDAV.
        if let locks = context.writeLocks,
            let held = locks.locks.protecting(
                folder.relative, changesMembership: false, includesDescendants: false
            )
            .first(where: { !locks.tokens.contains($0.token) })
        {
            throw APIError(
                .init(code: 423, reasonPhrase: "Locked"),
                "Locked by \(held.ownerName ?? "a WebDAV client") (WebDAV)", code: .locked)
        }
        let rules = try context.access.rules()
        do {
            return try rules.folder(forWriting: folder)
        } catch {
            throw APIError.fromFolder(
                error, notFound: "Destination not found", notADirectory: "Destination is not a directory")
        }
    }

    /// Runs a step that opens where a write lands, answering its failures as writes are answered.
    func writing<Value>(
        _ notFound: String, _ work: () throws(FileTreeError) -> Value
    ) throws(APIError) -> Value {
        do {
            return try work()
        } catch {
            throw Self.writeFailure(error, notFound: notFound)
        }
    }

    /// How a write's failure is answered: 404 `notFound` when its place is missing, else as
    /// ``APIError/fromWrite(_:)`` answers it.
    static func writeFailure(_ error: FileTreeError, notFound: String) -> APIError {
        if error.code == .notFound || error.code == .notADirectory {
            return APIError(.notFound, notFound, code: .notFound)
        }
        return APIError.fromWrite(error)
    }

    /// The path relative to the root of an absolute path a write produced.
    func relative(_ absolute: String) -> String {
        safePath.relativePath(of: absolute) ?? "/" + FileName.lastComponent(of: absolute)
    }

    /// Whether a name is one of the contract's text files (by extension or whole name).
    static func isText(name: String) -> Bool {
        let ext = FileName.pathExtension(of: name).map(String.init)
        return FileController.textExtensions.contains((ext ?? String(name.drop { $0 == "." })).lowercased())
    }

    /// Makes the folders above `place` that are missing, one by one inside the root.
    static func makeMissingFolders(of place: SafePath.Resolved, safePath: SafePath) throws(FileTreeError) {
        var folder = ""
        for component in place.relative.split(separator: "/").dropLast() {
            let parent = SafePath.Resolved(absolute: "", relative: folder.isEmpty ? "/" : folder)
            folder += "/" + component
            let here = SafePath.Resolved(absolute: "", relative: folder)
            if (try? safePath.folder(forWriting: here)) == nil {
                try FileOperations.makeFolder(
                    named: String(component), in: safePath.folder(forWriting: parent))
            }
        }
    }

    /// Runs blocking file work on NIO's blocking-I/O pool, answering FileTree's failures with
    /// the contract's statuses.
    func offThread<Value: Sendable>(
        _ work: @escaping @Sendable () throws(FileTreeError) -> Value
    ) async throws -> Value {
        let result: Result<Value, FileTreeError> = try await NIOThreadPool.singleton.runIfActive {
            Result { () throws(FileTreeError) in try work() }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw APIError.fromWrite(error)
        }
    }
}
