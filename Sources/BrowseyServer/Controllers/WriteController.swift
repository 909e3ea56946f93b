import BrowseyAPI
import FileTree
import Hummingbird
import NIOCore
import NIOPosix

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The writes of a writable server: `POST /api/save`, `/api/rename`, `/api/move`, `/api/copy`,
/// `/api/delete`, `/api/mkdir`.
struct WriteController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    /// Where deletes go; `nil` deletes for good.
    let trash: Trash?
    var audit: AuditLog?

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.post("/api/save") { request, context in try await save(request, context: context) }
        group.post("/api/rename") { request, context in try await rename(request, context: context) }
        group.post("/api/move") { request, context in try await move(request, context: context) }
        group.post("/api/copy") { request, context in try await copy(request, context: context) }
        group.post("/api/delete") { request, context in try await delete(request, context: context) }
        group.post("/api/mkdir") { request, context in try await makeFolder(request, context: context) }
    }

    /// The largest JSON body a write accepts: a 5 MiB text escaped for JSON, with room to spare.
    static let writeBodyLimit = 32 * 1024 * 1024

    /// `POST /api/save {path, content, baseModified, baseSize}`: replaces a text file, atomically
    /// and with its permissions kept, if it is still the version the client read.
    func save(_ request: Request, context: FileServerContext) async throws -> Response {
        try requireWritable(request, context)
        let body = try await decode(SaveRequest.self, from: request)
        let bytes = Array(body.content.utf8)
        guard Int64(bytes.count) <= FileController.textLimit else {
            throw APIError(.contentTooLarge, "File too large to save", code: .tooLarge)
        }
        let target = try resolveForWriting(body.path, context, notFound: "File not found")
        // A save writes through a link to its target: the target must lie inside the root. The
        // folder it lands in is held open from here to the rename.
        let (folder, name) = try writing("File not found") { () throws(FileTreeError) in
            try safePath.finalTarget(forWriting: target)
        }
        guard let status = folder.status(of: name) else {
            throw APIError(.notFound, "File not found", code: .notFound)
        }
        guard status.type != .directory else {
            throw APIError(.badRequest, "Cannot save directory", code: .isADirectory)
        }
        guard status.type == .regular, Self.isText(name: FileName.lastComponent(of: target.absolute)) else {
            throw APIError(.badRequest, "File type not editable", code: .notEditable)
        }
        if let match = request.headers[.ifMatch] {
            let etag = HTTPValidators.etag(status)
            guard HTTPValidators.listContains(match, etag: etag) else {
                throw APIError(
                    .preconditionFailed,
                    code: .conflict,
                    body: ErrorResponse(
                        error: "File has changed since it was read",
                        modified: status.modified.date, size: status.size),
                    headers: [.eTag: etag])
            }
        } else {
            guard let baseModified = body.baseModified, let baseSize = body.baseSize else {
                throw APIError(.badRequest, "baseModified and baseSize required", code: .basesRequired)
            }
            let baseMilliseconds = Int64((baseModified.timeIntervalSince1970 * 1000).rounded())
            guard baseMilliseconds == status.modified.milliseconds, baseSize == status.size else {
                throw APIError(
                    .conflict,
                    code: .conflict,
                    body: ErrorResponse(
                        error: "File has changed since it was read",
                        modified: status.modified.date, size: status.size))
            }
        }
        try await offThread { () throws(FileTreeError) in
            let writer = try AtomicFileWriter(named: name, in: folder)
            try writer.write(bytes)
            try writer.commit(replacing: true)
        }
        guard let saved = folder.status(of: name) else { throw APIError.internalError }
        record("save", target.relative, context)
        var response = JSONBody.response(SaveResponse(modified: saved.modified.date, size: saved.size))
        response.headers[.eTag] = HTTPValidators.etag(saved)
        return response
    }

    /// `POST /api/rename {path, newName}`: a new name in the same folder; 409 when it is taken.
    func rename(_ request: Request, context: FileServerContext) async throws -> Response {
        try requireWritable(request, context)
        let body = try await decode(RenameRequest.self, from: request)
        let target = try resolveForWriting(body.path, context, notFound: "File not found")
        try context.access.checkWhole(target)
        guard FileName.isValidComponent(body.newName), !body.newName.contains("\\") else {
            throw APIError(.badRequest, "Invalid name", code: .invalidName)
        }
        guard safePath.isVisible(name: body.newName) else {
            throw APIError(.badRequest, "Name not allowed: it would be hidden", code: .hiddenName)
        }
        // The new name must be writable too: a rule may name it.
        _ = try resolveForWriting(
            Paths.join(Paths.parent(of: target.relative), body.newName), context, notFound: "File not found")
        let renamed = try await offThread { () throws(FileTreeError) in
            let (folder, name) = try safePath.parent(forWriting: target)
            // A name that is not UTF-8, as the listing spelled it: renamed by its bytes.
            if let bytes = folder.systemName(readingAs: name) {
                return try FileOperations.rename(systemName: bytes, in: folder, to: body.newName)
            }
            return try FileOperations.rename(named: name, in: folder, to: body.newName)
        }
        record("rename", target.relative, context, detail: relative(renamed))
        return JSONBody.response(ChangeResponse(newPath: relative(renamed)))
    }

    /// `POST /api/move {path, destination}`: into another folder, never over an item there.
    func move(_ request: Request, context: FileServerContext) async throws -> Response {
        try await transfer(request, context, source: .write) { source, name, folder throws(FileTreeError) in
            try FileOperations.move(named: name, in: source, into: folder)
        }
    }

    /// `POST /api/copy {path, destination}`: a copy in a folder, under a free name.
    func copy(_ request: Request, context: FileServerContext) async throws -> Response {
        try await transfer(request, context, source: .read) { source, name, folder throws(FileTreeError) in
            try FileOperations.copy(named: name, in: source, into: folder)
        }
    }

    /// A move or a copy: the item's folder and the destination held open, then `operation`
    /// (which answers the new absolute path) off the request's thread.
    private func transfer(
        _ request: Request, _ context: FileServerContext, source need: RequestAccess.Need,
        _ operation: @escaping @Sendable (OpenFolder, String, OpenFolder) throws(FileTreeError) -> String
    ) async throws -> Response {
        try requireWritable(request, context)
        let body = try await decode(TransferRequest.self, from: request)
        let source = try resolveForWriting(body.path, context, notFound: "File not found", need: need)
        try context.access.checkWhole(source)
        let folder = try destinationFolder(body.destination, context)
        let safePath = self.safePath
        let placed = try await offThread { () throws(FileTreeError) in
            let (from, name) = try safePath.parent(forWriting: source)
            return try operation(from, name, folder)
        }
        record(need == .write ? "move" : "copy", source.relative, context, detail: relative(placed))
        return JSONBody.response(ChangeResponse(newPath: relative(placed)))
    }

    /// `POST /api/delete {path}`: into the trash (or for good with `--no-trash`); never the root.
    func delete(_ request: Request, context: FileServerContext) async throws -> Response {
        try requireWritable(request, context)
        let body = try await decode(PathRequest.self, from: request)
        let raw = body.path.isEmpty ? "/" : body.path
        if (try? safePath.resolve(raw))?.relative == "/" {
            throw APIError(.badRequest, "Cannot delete the root folder", code: .isRoot)
        }
        let target = try resolveForWriting(raw, context, notFound: "File not found")
        try context.access.checkWhole(target)
        // The item itself (a link, never its target), named in its folder held open.
        let (folder, name) = try writing("File not found") { () throws(FileTreeError) in
            try safePath.parent(forWriting: target)
        }
        guard folder.contains(name) else { throw APIError(.notFound, "File not found", code: .notFound) }
        if let trash {
            let item = try await offThread { () throws(FileTreeError) in
                try trash.put(named: name, in: folder, originalPath: target.relative)
            }
            record("delete", target.relative, context, detail: "trash \(item.id)")
            return JSONBody.response(DeleteResponse(trashId: item.id))
        }
        try await offThread { () throws(FileTreeError) in try FileOperations.remove(named: name, in: folder) }
        record("delete", target.relative, context)
        return JSONBody.response(DeleteResponse())
    }

    /// `POST /api/mkdir {path}`: a new folder; 409 when the name is taken.
    func makeFolder(_ request: Request, context: FileServerContext) async throws -> Response {
        try requireWritable(request, context)
        let body = try await decode(PathRequest.self, from: request)
        let target = try resolveForWriting(body.path, context, notFound: "Directory not found")
        let safePath = self.safePath
        try await offThread { () throws(FileTreeError) in
            let (folder, name) = try safePath.parent(forWriting: target)
            try FileOperations.makeFolder(named: name, in: folder)
        }
        record("mkdir", target.relative, context)
        return JSONBody.response(ChangeResponse(newPath: target.relative))
    }

}
