import FileTree
import Hummingbird
import NIOCore

extension DAVController {
    /// `PUT`: the body becomes the file, streamed to a hidden temporary file beside it and
    /// renamed into place only once complete (a client that goes away leaves nothing under the
    /// name). Unlike the JSON API's upload, PUT replaces an existing file: that is what WebDAV
    /// clients save with; the replacement is atomic, so a reader sees the old bytes or the new.
    /// A body without `Content-Length` (chunked, as Finder sends) is taken as it comes; Finder's
    /// `X-Expected-Entity-Length` is checked when present.
    func put(_ request: Request, context: FileServerContext, path: String) async throws -> Response {
        try requireWritable(request, context, needsJSON: false)
        let rules = try context.access.rules()
        if let sink = try await finderMetadata(request, rules: rules, path: path) { return sink }
        let target = try resolveForWriting(path, context, notFound: "Not found")
        let (folder, name) = try parentFolder(target, rules: rules)
        let exists = folder.contains(name)
        if exists,
            folder.status(of: name)?.type == .directory
                || Self.status(of: target, rules: rules)?.type == .directory
        {
            throw APIError(
                .methodNotAllowed, "A folder is in the way", code: .isADirectory,
                headers: [.allow: Self.allowHeader])
        }
        try await checkLocks(request, rules: rules, path: target.relative, changesMembership: !exists)
        // Through a link at the name to its target, which must lie inside the root.
        var (place, placeName) = (folder, name)
        if exists {
            (place, placeName) = try writing("Not found") { () throws(FileTreeError) in
                try rules.finalTarget(forWriting: target)
            }
        }
        let declared = (request.headers[.contentLength] ?? request.headers[.expectedEntityLength]).flatMap {
            Int64($0)
        }
        let writer = try writing("Not found") { () throws(FileTreeError) in
            try AtomicFileWriter(named: placeName, in: place)
        }
        _ = try await writer.write(body: request.body, declared: declared) { error in
            Self.writeFailure(error, notFound: "Not found")
        }
        _ = try writing("Not found") { () throws(FileTreeError) in try writer.commit(replacing: true) }
        var headers: HTTPFields = [.contentLength: "0"]
        if let status = place.status(of: placeName) { headers[.eTag] = HTTPValidators.etag(status) }
        return Response(status: exists ? .noContent : .created, headers: headers)
    }

    /// `MKCOL`: a new folder; 405 when the name is taken, 409 when its parent is missing, 415
    /// with a body (RFC 4918 defines none).
    func makeCollection(_ request: Request, context: FileServerContext, path: String) async throws -> Response
    {
        try requireWritable(request, context, needsJSON: false)
        let rules = try context.access.rules()
        let body = try await request.body.collect(upTo: 1024)
        guard body.readableBytes == 0 else {
            throw APIError(.unsupportedMediaType, "MKCOL takes no body", code: .invalidBody)
        }
        let target = try resolveForWriting(path, context, notFound: "Not found")
        let (folder, name) = try parentFolder(target, rules: rules)
        guard !folder.contains(name) else {
            throw APIError(
                .methodNotAllowed, "The name is taken", code: .alreadyExists,
                headers: [.allow: Self.allowHeader])
        }
        try await checkLocks(request, rules: rules, path: target.relative, changesMembership: true)
        do throws(FileTreeError) {
            try FileOperations.makeFolder(named: name, in: folder)
        } catch {
            if error.code == .alreadyExists {
                throw APIError(
                    .methodNotAllowed, "The name is taken", code: .alreadyExists,
                    headers: [.allow: Self.allowHeader])
            }
            throw APIError.fromWrite(error)
        }
        return Response(status: .created, headers: [.contentLength: "0"])
    }

    /// `DELETE`: into the trash when it is on (a folder with everything in it), else for good;
    /// never the root. Locks on what is gone are forgotten.
    func delete(_ request: Request, context: FileServerContext, path: String) async throws -> Response {
        try requireWritable(request, context, needsJSON: false)
        let rules = try context.access.rules()
        if let sink = try await finderMetadata(request, rules: rules, path: path) { return sink }
        if (try? rules.lexical(path))?.relative == "/" {
            throw APIError(.forbidden, "Cannot delete the root folder", code: .isRoot)
        }
        let target = try resolveForWriting(path, context, notFound: "Not found")
        try context.access.checkWhole(target)
        let (folder, name) = try parentFolder(target, rules: rules, missing: .notFound)
        guard folder.contains(name) else { throw APIError.notFound }
        try await checkLocks(
            request, rules: rules, path: target.relative, changesMembership: true, includesDescendants: true)
        try await remove(name, in: folder, path: target.relative)
        await locks.removeAll(at: target.relative)
        return Response(status: .noContent)
    }

    /// Removes `name` from `folder`: into the trash when it is on, else for good.
    func remove(_ name: String, in folder: OpenFolder, path: String) async throws {
        let trash = self.trash
        try await offThread { () throws(FileTreeError) in
            if let trash {
                _ = try trash.put(named: name, in: folder, originalPath: path)
            } else {
                try FileOperations.remove(named: name, in: folder)
            }
        }
    }

    /// The folder that holds `target`, held open inside the root, and the name in it. A
    /// missing folder is 409 (RFC 4918: the parent of what a PUT, MKCOL, COPY or MOVE makes
    /// must exist) or 404 where `missing` says so.
    func parentFolder(
        _ target: SafePath.Resolved, rules: SafePath, missing: HTTPResponse.Status = .conflict
    ) throws(APIError) -> (OpenFolder, String) {
        do {
            return try rules.parent(forWriting: target)
        } catch {
            if error.code == .notFound || error.code == .notADirectory || error.code == .symlinkLoop {
                throw APIError(
                    missing, missing == .conflict ? "The parent folder is missing" : "Not found",
                    code: .notFound)
            }
            throw APIError.fromWrite(error)
        }
    }
}
