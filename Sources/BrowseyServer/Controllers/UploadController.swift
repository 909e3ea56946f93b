import BrowseyAPI
import FileTree
import Hummingbird
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Uploads: `PUT /api/file` (plain or resumable), `GET /api/upload` (how much of a resumable
/// upload has arrived) and `POST /api/upload` (a multipart form).
struct UploadController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    var audit: AuditLog?

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.put("/api/file") { request, context in try await upload(request, context: context) }
        group.get("/api/upload") { request, context in try uploadStatus(request, context: context) }
        group.post("/api/upload") { request, context in try await uploadForm(request, context: context) }
        group.delete("/api/upload") { request, context in try cancelUpload(request, context: context) }
    }

    /// `PUT /api/file?path=FILE[&overwrite=1|&onConflict=rename]`: the raw body becomes the
    /// file, streamed to disk with bounded memory.
    ///
    /// Without `Content-Range` the body goes to a hidden temporary file in the target folder,
    /// which is flushed and renamed into place only once it is complete and of the declared
    /// length: a client that goes away, or a server that is killed, leaves nothing under the
    /// real name. An existing file is never replaced unless asked (`overwrite=1`, or `If-Match`
    /// with its ETag); otherwise 409, or a free name with `onConflict=rename`.
    ///
    /// With `Content-Range: bytes START-END/TOTAL` the upload is resumable: the bytes go to a
    /// hidden part file that outlives the request; `GET /api/upload?path=&size=TOTAL` says how
    /// many bytes it holds, the next `PUT` continues from there (any other start is 416), and the
    /// request that brings the last byte puts the file in place (201). Before that: 202.
    func upload(_ request: Request, context: FileServerContext) async throws -> Response {
        try requireWritable(request, context, needsJSON: false)
        let raw = request.uri.queryParameters.get("path") ?? ""
        let target = try resolveForWriting(raw, context, notFound: "Directory not found", need: .upload)
        // Someone who may only add files never replaces one, nor learns that a name is taken.
        let mayReplace = context.access.rights(at: target.relative).contains(.write)
        let name = FileName.lastComponent(of: target.absolute)
        guard FileName.isValidComponent(name) else {
            throw APIError(.badRequest, "Invalid name", code: .invalidName)
        }
        let (folder, _) = try writing("Directory not found") { () throws(FileTreeError) in
            try safePath.parent(forWriting: target)
        }
        // If-Match names a version that must exist: against nothing it fails (412), as ever.
        if !folder.contains(name), request.headers[.ifMatch] != nil {
            throw APIError(.preconditionFailed, "File has changed since it was read", code: .conflict)
        }
        let place = try uploadPlace(
            target, in: folder,
            renames: !mayReplace || request.uri.queryParameters.get("onConflict") == "rename",
            replacing: { (place) throws(APIError) in mayReplace ? try replaces(place, request) : false })
        let declared = request.headers[.contentLength].flatMap { Int64($0) }
        if let header = request.headers[.contentRange] {
            guard let range = ContentRange(header) else {
                throw APIError(
                    .badRequest, "Content-Range must be bytes START-END/TOTAL", code: .invalidRange)
            }
            let response = try await resumableUpload(request, to: place, range: range)
            if response.status == .created { record("upload", place.path, context) }
            return response
        }

        let writer = try fileTreeCall { () throws(FileTreeError) in
            try AtomicFileWriter(named: place.name, in: place.folder)
        }
        let received = try await writer.write(body: request.body, declared: declared) {
            APIError.fromWrite($0)
        }
        try fileTreeCall { () throws(FileTreeError) in try writer.commit(replacing: place.replacing) }
        record("upload", place.path, context)
        return uploaded(place, size: received)
    }

    /// `POST /api/upload?path=FOLDER[&overwrite=1|&onConflict=rename]` with
    /// `multipart/form-data`: every file part becomes a file in the folder, each streamed to a
    /// temporary file and put in place when its part is complete, under the rules of `PUT`. A
    /// part's `filename` is reduced to its last component. Answers 201 when every file is in
    /// place, else 409 with the files refused (the others stay).
    func uploadForm(_ request: Request, context: FileServerContext) async throws -> Response {
        try requireWritable(request, context, needsJSON: false)
        guard let contentType = request.headers[.contentType],
            var parser = MultipartParser(contentType: contentType)
        else {
            throw APIError(
                .unsupportedMediaType, "Uploads need multipart/form-data with a boundary",
                code: .multipartRequired)
        }
        let folderPath = try resolve(
            request, context, required: false, notFound: "Destination not found", need: .upload)
        let folder = try destinationFolder(folderPath.relative, context, need: .upload)
        // Someone who may only add files never replaces one, nor learns that a name is taken.
        let mayReplace = context.access.rights(at: folderPath.relative).contains(.write)
        let overwrite =
            mayReplace && ["1", "true"].contains(request.uri.queryParameters.get("overwrite") ?? "")
        let renames = !mayReplace || request.uri.queryParameters.get("onConflict") == "rename"
        var files: [UploadResponse] = []
        var errors: [ErrorResponse] = []
        var current: (writer: AtomicFileWriter, target: UploadPlace, size: Int64)?
        var skipping = false
        do {
            for try await chunk in request.body {
                try parser.feed(chunk) { event in
                    switch event {
                    case .partStart(let headers):
                        guard let disposition = headers["content-disposition"],
                            let filename = MultipartParser.disposition(disposition).filename
                        else {
                            skipping = true  // a plain form field
                            return
                        }
                        do {
                            let target = try formTarget(
                                filename, in: folder, overwrite: overwrite, renames: renames, context: context
                            )
                            let writer = try fileTreeCall { () throws(FileTreeError) in
                                try AtomicFileWriter(named: target.name, in: target.folder)
                            }
                            current = (writer, target, 0)
                            skipping = false
                        } catch let refusal as APIError {
                            var body = refusal.body
                            body.path = Paths.join(
                                folderPath.relative,
                                filename.split(separator: "/").last.map(String.init) ?? filename)
                            errors.append(body)
                            skipping = true
                        }
                    case .body(let piece):
                        guard !skipping, let file = current else { return }
                        try fileTreeCall { () throws(FileTreeError) in
                            try piece.withUnsafeReadableBytes { bytes throws(FileTreeError) in
                                try file.writer.write(bytes)
                            }
                        }
                        current?.size += Int64(piece.readableBytes)
                    case .partEnd:
                        defer { current = nil }
                        guard !skipping, let file = current else { return }
                        do {
                            try fileTreeCall { () throws(FileTreeError) in
                                try file.writer.commit(replacing: overwrite)
                            }
                            files.append(
                                UploadResponse(path: file.target.path, size: file.size, received: file.size))
                            record("upload", file.target.path, context)
                        } catch let refusal as APIError {
                            var body = refusal.body
                            body.path = file.target.path
                            errors.append(body)
                        }
                    }
                }
            }
            try parser.finish()
        } catch let failure as MultipartParser.Failure {
            current?.writer.discard()
            if case .malformed(let reason) = failure {
                throw APIError(.badRequest, reason, code: .invalidMultipart)
            }
            throw failure
        } catch {
            current?.writer.discard()
            throw error
        }
        if files.isEmpty && errors.isEmpty {
            throw APIError(.badRequest, "No file in the upload", code: .invalidMultipart)
        }
        return JSONBody.response(
            UploadBatchResponse(files: files, errors: errors), status: errors.isEmpty ? .created : .conflict)
    }

    /// Where a form's file goes: its name's last component in `folder`, under the no-clobber
    /// rules (409 unless `overwrite`, or a free name with `renames`).
    private func formTarget(
        _ filename: String, in folder: OpenFolder, overwrite: Bool, renames: Bool, context: FileServerContext
    ) throws(APIError) -> UploadPlace {
        // Browsers send a bare name; some send a path (with either slash): keep the last part.
        let name = String(filename.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? "")
        guard FileName.isValidComponent(name) else {
            throw APIError(.badRequest, "Invalid name", code: .invalidName)
        }
        guard safePath.isVisible(name: name) else {
            throw APIError(.badRequest, "Name not allowed: it would be hidden", code: .hiddenName)
        }
        guard let relative = safePath.relativePath(of: folder.path) else { throw .invalidPath }
        let target = try resolveForWriting(
            Paths.join(relative, name), context, notFound: "Directory not found", need: .upload)
        return try uploadPlace(target, in: folder, renames: renames, replacing: { _ in overwrite })
    }

    /// Where an upload to `target` (in `folder`, held open) lands: `target` itself when it is
    /// free or may be replaced (`replacing` is asked only then), a free name (`name 1.ext`) with
    /// `renames`, else 409. Writing follows a link there, so its target must lie inside the root;
    /// a folder in the way is 409 `isADirectory`, before anything is written.
    private func uploadPlace(
        _ target: SafePath.Resolved, in folder: OpenFolder, renames: Bool,
        replacing: (UploadPlace) throws(APIError) -> Bool
    ) throws(APIError) -> UploadPlace {
        let name = FileName.lastComponent(of: target.absolute)
        guard folder.contains(name) else {
            return UploadPlace(folder: folder, name: name, path: target.relative)
        }
        let (final, finalName) = try writing("Directory not found") { () throws(FileTreeError) in
            try safePath.finalTarget(forWriting: target)
        }
        var place = UploadPlace(folder: final, name: finalName, path: target.relative)
        if final.status(of: finalName)?.type == .directory {
            throw APIError(
                .conflict, code: .isADirectory,
                body: ErrorResponse(error: "A folder is in the way", path: target.relative))
        }
        if try replacing(place) {
            place.replacing = true
            return place
        }
        guard renames else {
            throw APIError(
                .conflict, code: .alreadyExists,
                body: ErrorResponse(error: "File already exists", path: target.relative))
        }
        let free = UniqueName.numbered(
            String(FileName.displayName(of: name)),
            pathExtension: FileName.pathExtension(of: name).map(String.init),
            in: folder.path, isTaken: { folder.contains($0) })
        return UploadPlace(
            folder: folder, name: free, path: Paths.join(Paths.parent(of: target.relative), free))
    }

    /// `GET /api/upload?path=FILE&size=TOTAL`: how many bytes of a resumable upload the server
    /// holds (0 when none).
    func uploadStatus(_ request: Request, context: FileServerContext) throws -> Response {
        try requireWritable(request, context, needsJSON: false)
        let target = try resolveForWriting(
            request.uri.queryParameters.get("path") ?? "", context, notFound: "Directory not found",
            need: .upload)
        guard let total = request.uri.queryParameters.get("size").flatMap({ Int64($0) }), total >= 0 else {
            throw APIError(.badRequest, "size required", code: .sizeRequired)
        }
        let (folder, name) = try partPlace(of: target)
        let part = folder.status(of: Self.partName(for: name, total: total))
        let held = part?.type == .regular ? part?.size ?? 0 : 0
        return JSONBody.response(UploadResponse(path: target.relative, size: total, received: held))
    }

    /// `DELETE /api/upload?path=FILE&size=TOTAL`: gives up a resumable upload, removing its part
    /// file at once (instead of after the sweep's age limit); 404 when none is held. Whoever may
    /// continue the upload (write or upload there) may cancel it.
    func cancelUpload(_ request: Request, context: FileServerContext) throws -> Response {
        try requireWritable(request, context, needsJSON: false)
        let target = try resolveForWriting(
            request.uri.queryParameters.get("path") ?? "", context, notFound: "Directory not found",
            need: .upload)
        guard let total = request.uri.queryParameters.get("size").flatMap({ Int64($0) }), total >= 0 else {
            throw APIError(.badRequest, "size required", code: .sizeRequired)
        }
        let (folder, name) = try partPlace(of: target)
        let part = Self.partName(for: name, total: total)
        // Only a plain file under the hidden name is an upload's part: anything else stays.
        guard folder.status(of: part)?.type == .regular, unlinkat(folder.descriptor, part, 0) == 0 else {
            throw APIError(.notFound, "No upload in progress", code: .notFound)
        }
        record("uploadCancelled", target.relative, context)
        return JSONBody.response(UploadResponse(path: target.relative, size: total, received: 0))
    }

    /// The folder and name a resumable upload's part file for `target` lies beside.
    private func partPlace(of target: SafePath.Resolved) throws(APIError) -> (OpenFolder, String) {
        try writing("Directory not found") { () throws(FileTreeError) in
            let (folder, name) = try safePath.parent(forWriting: target)
            return folder.contains(name) ? try safePath.finalTarget(forWriting: target) : (folder, name)
        }
    }

    private func resumableUpload(
        _ request: Request, to place: UploadPlace, range: ContentRange
    ) async throws -> Response {
        let part = Self.partName(for: place.name, total: range.total)
        let existing = place.folder.status(of: part)
        // A part file is ours only when it is a plain file: anything else under that hidden name
        // (a link planted there, a folder) is refused, never written through.
        if let existing, existing.type != .regular {
            throw APIError(
                .conflict, code: .partInTheWay,
                body: ErrorResponse(error: "Something else holds the upload's hidden part name"))
        }
        let held = existing?.size ?? 0
        guard range.start == held else {
            throw APIError(
                .rangeNotSatisfiable,
                code: .wrongOffset,
                body: ErrorResponse(error: "Upload continues at byte \(held)", size: held),
                headers: [.range: held > 0 ? "bytes=0-\(held - 1)" : "bytes=none"])
        }
        // O_NOFOLLOW and relative to the folder held open: a link swapped in meanwhile fails.
        let descriptor = openat(
            place.folder.descriptor, part, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == ELOOP {
                throw APIError(
                    .conflict, code: .partInTheWay,
                    body: ErrorResponse(error: "Something else holds the upload's hidden part name"))
            }
            throw APIError.fromWrite(FileTreeError(errno: errno, path: place.path))
        }
        var received: Int64 = 0
        do {
            defer { close(descriptor) }
            for try await chunk in request.body {
                let room = range.length - received
                guard room > 0 else { break }
                let count = min(Int64(chunk.readableBytes), room)
                try chunk.withUnsafeReadableBytes { bytes in
                    guard let base = bytes.baseAddress else { return }
                    var offset = 0
                    while offset < Int(count) {
                        let written = write(descriptor, base + offset, Int(count) - offset)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else {
                            throw APIError.fromWrite(FileTreeError(errno: errno, path: place.path))
                        }
                        offset += written
                    }
                }
                received += count
            }
            _ = fsync(descriptor)
        }
        let now = held + received
        guard now == range.total else {
            return JSONBody.response(
                UploadResponse(path: place.path, size: range.total, received: now, complete: false),
                status: .accepted)
        }
        do throws(FileTreeError) {
            if place.replacing {
                guard renameat(place.folder.descriptor, part, place.folder.descriptor, place.name) == 0 else {
                    throw FileTreeError(errno: errno, path: place.path)
                }
            } else {
                try FileOperations.move(named: part, in: place.folder, to: place.name, in: place.folder)
            }
        } catch {
            if error.code == .alreadyExists { unlinkat(place.folder.descriptor, part, 0) }
            throw APIError.fromWrite(error)
        }
        return uploaded(place, size: now)
    }

    /// Whether an upload may replace the file at `place`: `overwrite=1`, or an `If-Match` that
    /// names its current ETag (one that does not is 412).
    private func replaces(_ place: UploadPlace, _ request: Request) throws(APIError) -> Bool {
        if let match = request.headers[.ifMatch] {
            guard let status = place.folder.status(of: place.name),
                HTTPValidators.listContains(match, etag: HTTPValidators.etag(status))
            else {
                throw APIError(.preconditionFailed, "File has changed since it was read", code: .conflict)
            }
            return true
        }
        return ["1", "true"].contains(request.uri.queryParameters.get("overwrite") ?? "")
    }

    private func uploaded(_ place: UploadPlace, size: Int64) -> Response {
        var response = JSONBody.response(
            UploadResponse(path: place.path, size: size, received: size), status: .created)
        if let status = place.folder.status(of: place.name) {
            response.headers[.eTag] = HTTPValidators.etag(status)
        }
        return response
    }

    /// The hidden part file of a resumable upload: next to the file it becomes, named after it
    /// and the total size (so a different file under the same name starts afresh).
    static func partName(for name: String, total: Int64) -> String {
        ".browsey-upload-\(StableHash.hex(name))-\(total).part"
    }

    /// Runs FileTree work, answering its failures with the contract's statuses.
    @discardableResult
    private func fileTreeCall<Value>(_ work: () throws(FileTreeError) -> Value) throws(APIError) -> Value {
        do {
            return try work()
        } catch {
            throw APIError.fromWrite(error)
        }
    }
}

/// `Content-Range: bytes START-END/TOTAL` of a resumable upload.
struct ContentRange: Equatable {
    let start: Int64
    let end: Int64
    let total: Int64
    var length: Int64 { end - start + 1 }

    init?(_ header: String) {
        let text = header.trimmingSpaces()
        guard text.hasPrefix("bytes ") else { return nil }
        let spec = text.dropFirst(6)
        let halves = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, let total = Int64(halves[1]) else { return nil }
        let bounds = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]),
            start >= 0, start <= end, end < total
        else { return nil }
        self.start = start
        self.end = end
        self.total = total
    }
}
