import BrowseyAPI
import FileTree
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import NIOCore
import NIOPosix

extension BrowseyRoutes {
    /// The largest JSON body a write accepts: a 5 MiB text escaped for JSON, with room to spare.
    static let writeBodyLimit = 32 * 1024 * 1024

    /// `POST /api/save {path, content, baseModified, baseSize}`: replaces a text file, atomically
    /// and with its permissions kept, if it is still the version the client read.
    func save(_ request: Request) async throws -> Response {
        try requireWritable(request)
        let body = try await decode(SaveRequest.self, from: request)
        let bytes = Array(body.content.utf8)
        guard Int64(bytes.count) <= Self.textLimit else {
            throw APIError(.contentTooLarge, "File too large to save", code: "tooLarge")
        }
        let target = try resolveForWriting(body.path, notFound: "File not found")
        // A save writes through a link to its target: the target must lie inside the root. The
        // folder it lands in is held open from here to the rename.
        let (folder, name) = try writing("File not found") { () throws(FileTreeError) in
            try safePath.finalTarget(forWriting: target)
        }
        guard let status = folder.status(of: name) else {
            throw APIError(.notFound, "File not found", code: "notFound")
        }
        guard status.type != .directory else {
            throw APIError(.badRequest, "Cannot save directory", code: "isADirectory")
        }
        guard status.type == .regular, Self.isText(name: PathName.last(of: target.absolute)) else {
            throw APIError(.badRequest, "File type not editable", code: "notEditable")
        }
        if let match = request.headers[.ifMatch] {
            let etag = HTTPValidators.etag(status)
            guard HTTPValidators.listContains(match, etag: etag) else {
                throw APIError(
                    .preconditionFailed,
                    body: ErrorResponse(
                        error: "File has changed since it was read", code: "conflict",
                        modified: status.modified.date, size: status.size),
                    headers: [.eTag: etag])
            }
        } else {
            guard let baseModified = body.baseModified, let baseSize = body.baseSize else {
                throw APIError(.badRequest, "baseModified and baseSize required", code: "basesRequired")
            }
            let baseMilliseconds = Int64((baseModified.timeIntervalSince1970 * 1000).rounded())
            guard baseMilliseconds == status.modified.milliseconds, baseSize == status.size else {
                throw APIError(
                    .conflict,
                    body: ErrorResponse(
                        error: "File has changed since it was read", code: "conflict",
                        modified: status.modified.date, size: status.size))
            }
        }
        try await offThread { () throws(FileTreeError) in
            let writer = try AtomicFileWriter(named: name, in: folder)
            try writer.write(bytes)
            try writer.commit(replacing: true)
        }
        guard let saved = folder.status(of: name) else { throw APIError.internalError }
        var response = JSONBody.response(SaveResponse(modified: saved.modified.date, size: saved.size))
        response.headers[.eTag] = HTTPValidators.etag(saved)
        return response
    }

    /// `POST /api/rename {path, newName}`: a new name in the same folder; 409 when it is taken.
    func rename(_ request: Request) async throws -> Response {
        try requireWritable(request)
        let body = try await decode(RenameRequest.self, from: request)
        let target = try resolveForWriting(body.path, notFound: "File not found")
        guard FileName.isValidComponent(body.newName), !body.newName.contains("\\") else {
            throw APIError(.badRequest, "Invalid name", code: "invalidName")
        }
        guard safePath.isVisible(name: body.newName) else {
            throw APIError(.badRequest, "Name not allowed: it would be hidden", code: "hiddenName")
        }
        let renamed = try await offThread { () throws(FileTreeError) in
            let (folder, name) = try safePath.parent(forWriting: target)
            return try FileOperations.rename(named: name, in: folder, to: body.newName)
        }
        return JSONBody.response(ChangeResponse(newPath: relative(renamed)))
    }

    /// `POST /api/move {path, destination}`: into another folder, never over an item there.
    func move(_ request: Request) async throws -> Response {
        try await transfer(request) { source, name, folder throws(FileTreeError) in
            try FileOperations.move(named: name, in: source, into: folder)
        }
    }

    /// `POST /api/copy {path, destination}`: a copy in a folder, under a free name.
    func copy(_ request: Request) async throws -> Response {
        try await transfer(request) { source, name, folder throws(FileTreeError) in
            try FileOperations.copy(named: name, in: source, into: folder)
        }
    }

    /// A move or a copy: the item's folder and the destination held open, then `operation`
    /// (which answers the new absolute path) off the request's thread.
    private func transfer(
        _ request: Request,
        _ operation: @escaping @Sendable (OpenFolder, String, OpenFolder) throws(FileTreeError) -> String
    ) async throws -> Response {
        try requireWritable(request)
        let body = try await decode(TransferRequest.self, from: request)
        let source = try resolveForWriting(body.path, notFound: "File not found")
        let folder = try destinationFolder(body.destination)
        let safePath = self.safePath
        let placed = try await offThread { () throws(FileTreeError) in
            let (from, name) = try safePath.parent(forWriting: source)
            return try operation(from, name, folder)
        }
        return JSONBody.response(ChangeResponse(newPath: relative(placed)))
    }

    /// `POST /api/delete {path}`: into the trash (or for good with `--no-trash`); never the root.
    func delete(_ request: Request) async throws -> Response {
        try requireWritable(request)
        let body = try await decode(PathRequest.self, from: request)
        let raw = body.path.isEmpty ? "/" : body.path
        if (try? safePath.resolve(raw))?.relative == "/" {
            throw APIError(.badRequest, "Cannot delete the root folder", code: "isRoot")
        }
        let target = try resolveForWriting(raw, notFound: "File not found")
        // The item itself (a link, never its target), named in its folder held open.
        let (folder, name) = try writing("File not found") { () throws(FileTreeError) in
            try safePath.parent(forWriting: target)
        }
        guard folder.contains(name) else { throw APIError(.notFound, "File not found", code: "notFound") }
        if let trash {
            let item = try await offThread { () throws(FileTreeError) in
                try trash.put(named: name, in: folder, originalPath: target.relative)
            }
            return JSONBody.response(DeleteResponse(trashId: item.id))
        }
        try await offThread { () throws(FileTreeError) in try FileOperations.remove(named: name, in: folder) }
        return JSONBody.response(DeleteResponse())
    }

    /// `POST /api/mkdir {path}`: a new folder; 409 when the name is taken.
    func makeFolder(_ request: Request) async throws -> Response {
        try requireWritable(request)
        let body = try await decode(PathRequest.self, from: request)
        let target = try resolveForWriting(body.path, notFound: "Directory not found")
        let safePath = self.safePath
        try await offThread { () throws(FileTreeError) in
            let (folder, name) = try safePath.parent(forWriting: target)
            try FileOperations.makeFolder(named: name, in: folder)
        }
        return JSONBody.response(ChangeResponse(newPath: target.relative))
    }

    /// `POST /api/restore {id}`: a deleted item back where it was; 409 when the place is taken.
    func restore(_ request: Request) async throws -> Response {
        try requireWritable(request)
        let body = try await decode(RestoreRequest.self, from: request)
        guard let trash else { throw APIError(.notFound, "Trash is off", code: "noTrash") }
        let safePath = self.safePath
        let restored = try await offThread { () throws(FileTreeError) in
            try trash.restore(id: body.id) { item throws(FileTreeError) in
                // The original place, under today's rules; its missing folders are made again.
                guard let place = try? safePath.resolveForWriting(item.originalPath) else {
                    throw FileTreeError(.permissionDenied, "The original place is not allowed", path: item.originalPath)
                }
                try Self.makeMissingFolders(of: place, safePath: safePath)
                return try safePath.parent(forWriting: place)
            }
        }
        return JSONBody.response(ChangeResponse(newPath: relative(restored.restoredAt)))
    }

    /// `GET /api/trash`: the deleted items that can be restored, newest first.
    func trashItems(_ request: Request) throws -> Response {
        try requireWritable(request, needsJSON: false)
        return JSONBody.response(TrashResponse(items: trash?.items() ?? []))
    }

    // MARK: - Shared rules

    /// Refuses writes on a read-only server (403) and bodies that a cross-site HTML form could
    /// send (415): a write's body is JSON, which a browser sends elsewhere only after a CORS
    /// preflight this server does not grant.
    func requireWritable(_ request: Request, needsJSON: Bool = true) throws(APIError) {
        if configuration.readOnly { throw .readOnly }
        // A browser names the page that sent a write; a page of another site may not write here
        // (a multipart form needs no preflight). Clients that are not browsers send no Origin.
        if let origin = request.headers[.origin], !Self.isSameOrigin(origin, authority: request.head.authority),
            !configuration.corsOrigins.contains(origin)
        {
            throw APIError(.forbidden, "Cross-site request refused", code: "crossSite")
        }
        guard needsJSON else { return }
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type == "application/json" || type.hasPrefix("application/json;") else {
            throw APIError(.unsupportedMediaType, "Writes need a JSON body (Content-Type: application/json)", code: "jsonRequired")
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
            return lowered.contains("]:") || (!lowered.hasPrefix("[") && lowered.contains(":")) ? lowered : lowered + defaultPort
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
            throw APIError(.contentTooLarge, "Request body too large", code: "tooLarge")
        }  // A body that breaks its framing (a bad chunk size) is the channel's 400, and the connection closes.
        do {
            return try JSONDecoder.browsey().decode(Value.self, from: Data(buffer.readableBytesView))
        } catch {
            throw APIError(.badRequest, "Invalid JSON body", code: "invalidBody")
        }
    }

    /// A path a write changes or creates, with the contract's refusals.
    func resolveForWriting(_ raw: String, notFound: String) throws(APIError) -> SafePath.Resolved {
        guard !raw.isEmpty else { throw .pathRequired }
        do {
            return try safePath.resolveForWriting(raw)
        } catch {
            throw APIError.from(error, notFound: notFound)
        }
    }

    /// The folder a move or copy goes into: it must exist, be a folder, and lie inside the root.
    func destinationFolder(_ raw: String) throws(APIError) -> OpenFolder {
        let folder: SafePath.Resolved
        do {
            folder = try safePath.resolve(raw.isEmpty ? "/" : raw)
        } catch {
            throw APIError.from(error, notFound: "Destination not found")
        }
        do {
            return try safePath.folder(forWriting: folder)
        } catch {
            if error.code == .notADirectory {
                throw APIError(.badRequest, "Destination is not a directory", code: "notADirectory")
            }
            throw APIError.from(error, notFound: "Destination not found")
        }
    }

    /// Runs a step that opens where a write lands, answering its failures as writes are answered.
    func writing<Value>(_ notFound: String, _ work: () throws(FileTreeError) -> Value) throws(APIError) -> Value {
        do {
            return try work()
        } catch {
            if error.code == .notFound || error.code == .notADirectory {
                throw APIError(.notFound, notFound, code: "notFound")
            }
            throw APIError.fromWrite(error)
        }
    }

    /// The path relative to the root of an absolute path a write produced.
    func relative(_ absolute: String) -> String {
        safePath.relativePath(of: absolute) ?? "/" + PathName.last(of: absolute)
    }

    /// Whether a name is one of the contract's text files (by extension or whole name).
    static func isText(name: String) -> Bool {
        let ext = FileName.pathExtension(of: name).map(String.init)
        return textExtensions.contains((ext ?? String(name.drop { $0 == "." })).lowercased())
    }

    /// Makes the folders above `place` that are missing, one by one inside the root.
    static func makeMissingFolders(of place: SafePath.Resolved, safePath: SafePath) throws(FileTreeError) {
        var folder = ""
        for component in place.relative.split(separator: "/").dropLast() {
            let parent = SafePath.Resolved(absolute: "", relative: folder.isEmpty ? "/" : folder)
            folder += "/" + component
            let here = SafePath.Resolved(absolute: "", relative: folder)
            if (try? safePath.folder(forWriting: here)) == nil {
                try FileOperations.makeFolder(named: String(component), in: safePath.folder(forWriting: parent))
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
