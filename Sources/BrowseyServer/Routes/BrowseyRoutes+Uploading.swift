#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BrowseyAPI
import FileTree
import Hummingbird
import NIOCore

extension BrowseyRoutes {
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
    func upload(_ request: Request) async throws -> Response {
        try requireWritable(request, needsJSON: false)
        let raw = request.uri.queryParameters.get("path") ?? ""
        var target = try resolveForWriting(raw, notFound: "Directory not found")
        let folder = Paths.parent(of: target.absolute)
        guard SafePath.status(following: folder)?.type == .directory else {
            throw APIError(.notFound, "Directory not found", code: "notFound")
        }
        let name = PathName.last(of: target.absolute)
        guard FileName.isValidComponent(name) else { throw APIError(.badRequest, "Invalid name", code: "invalidName") }
        // If-Match names a version that must exist: against nothing it fails (412), as ever.
        if !Paths.exists(target.absolute), request.headers[.ifMatch] != nil { _ = try replaces(target, request) }
        var replacing = false
        target = try uploadPlace(
            target, renames: request.uri.queryParameters.get("onConflict") == "rename",
            replacing: { () throws(APIError) in
                replacing = try replaces(target, request)
                return replacing
            })
        let declared = request.headers[.contentLength].flatMap { Int64($0) }
        if let header = request.headers[.contentRange] {
            guard let range = ContentRange(header) else {
                throw APIError(.badRequest, "Content-Range must be bytes START-END/TOTAL", code: "invalidRange")
            }
            return try await resumableUpload(request, to: target, range: range, replacing: replacing)
        }

        let writer = try fileTreeCall { () throws(FileTreeError) in try AtomicFileWriter(destination: target.absolute) }
        var received: Int64 = 0
        do {
            for try await chunk in request.body {
                received += Int64(chunk.readableBytes)
                if let declared, received > declared { break }
                try fileTreeCall { () throws(FileTreeError) in
                    try chunk.withUnsafeReadableBytes { bytes throws(FileTreeError) in try writer.write(bytes) }
                }
            }
        } catch {
            writer.discard()
            throw error
        }
        if let declared, received != declared {
            writer.discard()
            throw APIError(.badRequest, "Body length differs from Content-Length", code: "lengthMismatch")
        }
        try fileTreeCall { () throws(FileTreeError) in try writer.commit(replacing: replacing) }
        return uploaded(target, size: received)
    }

    /// `POST /api/upload?path=FOLDER[&overwrite=1|&onConflict=rename]` with
    /// `multipart/form-data`: every file part becomes a file in the folder, each streamed to a
    /// temporary file and put in place when its part is complete, under the rules of `PUT`. A
    /// part's `filename` is reduced to its last component. Answers 201 when every file is in
    /// place, else 409 with the files refused (the others stay).
    func uploadForm(_ request: Request) async throws -> Response {
        try requireWritable(request, needsJSON: false)
        guard let contentType = request.headers[.contentType], var parser = MultipartParser(contentType: contentType)
        else {
            throw APIError(.unsupportedMediaType, "Uploads need multipart/form-data with a boundary", code: "multipartRequired")
        }
        let folder = try destinationFolder(request.uri.queryParameters.get("path") ?? "/")
        let overwrite = ["1", "true"].contains(request.uri.queryParameters.get("overwrite") ?? "")
        let renames = request.uri.queryParameters.get("onConflict") == "rename"
        var files: [UploadResponse] = []
        var errors: [ErrorResponse] = []
        var current: (writer: AtomicFileWriter, target: SafePath.Resolved, size: Int64)?
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
                            let target = try formTarget(filename, in: folder, overwrite: overwrite, renames: renames)
                            let writer = try fileTreeCall { () throws(FileTreeError) in
                                try AtomicFileWriter(destination: target.absolute)
                            }
                            current = (writer, target, 0)
                            skipping = false
                        } catch let refusal as APIError {
                            var body = refusal.body
                            body.path = Paths.join(folder.relative, filename.split(separator: "/").last.map(String.init) ?? filename)
                            errors.append(body)
                            skipping = true
                        }
                    case .body(let piece):
                        guard !skipping, let file = current else { return }
                        try fileTreeCall { () throws(FileTreeError) in
                            try piece.withUnsafeReadableBytes { bytes throws(FileTreeError) in try file.writer.write(bytes) }
                        }
                        current?.size += Int64(piece.readableBytes)
                    case .partEnd:
                        defer { current = nil }
                        guard !skipping, let file = current else { return }
                        do {
                            try fileTreeCall { () throws(FileTreeError) in try file.writer.commit(replacing: overwrite) }
                            files.append(UploadResponse(path: file.target.relative, size: file.size, received: file.size))
                        } catch let refusal as APIError {
                            var body = refusal.body
                            body.path = file.target.relative
                            errors.append(body)
                        }
                    }
                }
            }
            try parser.finish()
        } catch let failure as MultipartParser.Failure {
            current?.writer.discard()
            if case .malformed(let reason) = failure { throw APIError(.badRequest, reason, code: "invalidMultipart") }
            throw failure
        } catch {
            current?.writer.discard()
            throw error
        }
        if files.isEmpty && errors.isEmpty { throw APIError(.badRequest, "No file in the upload", code: "invalidMultipart") }
        return JSONBody.response(
            UploadBatchResponse(files: files, errors: errors), status: errors.isEmpty ? .created : .conflict)
    }

    /// Where a form's file goes: its name's last component in `folder`, under the no-clobber
    /// rules (409 unless `overwrite`, or a free name with `renames`).
    private func formTarget(
        _ filename: String, in folder: SafePath.Resolved, overwrite: Bool, renames: Bool
    ) throws(APIError) -> SafePath.Resolved {
        // Browsers send a bare name; some send a path (with either slash): keep the last part.
        let name = String(filename.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? "")
        guard FileName.isValidComponent(name) else { throw APIError(.badRequest, "Invalid name", code: "invalidName") }
        guard safePath.isVisible(name: name) else {
            throw APIError(.badRequest, "Name not allowed: it would be hidden", code: "hiddenName")
        }
        let target = try resolveForWriting(Paths.join(folder.relative, name), notFound: "Directory not found")
        return try uploadPlace(target, renames: renames, replacing: { overwrite })
    }

    /// Where an upload to `target` lands: `target` itself when it is free or may be replaced
    /// (`replacing` is asked only then), a free name (`name 1.ext`) with `renames`, else 409. A
    /// link there must lead inside the root, since writing follows it (a dangling one, whose
    /// target cannot be checked, is refused).
    private func uploadPlace(
        _ target: SafePath.Resolved, renames: Bool, replacing: () throws(APIError) -> Bool
    ) throws(APIError) -> SafePath.Resolved {
        guard Paths.exists(target.absolute) else { return target }
        guard safePath.writesStayInside(target.absolute) else { throw .invalidPath }
        if try replacing() { return target }
        guard renames else {
            throw APIError(
                .conflict, body: ErrorResponse(error: "File already exists", code: "alreadyExists", path: target.relative))
        }
        let name = PathName.last(of: target.absolute)
        let free = UniqueName.numbered(
            String(FileName.displayName(of: name)), pathExtension: FileName.pathExtension(of: name).map(String.init),
            in: Paths.parent(of: target.absolute))
        return try resolveForWriting(Paths.join(Paths.parent(of: target.relative), free), notFound: "Directory not found")
    }

    /// `GET /api/upload?path=FILE&size=TOTAL`: how many bytes of a resumable upload the server
    /// holds (0 when none).
    func uploadStatus(_ request: Request) throws -> Response {
        try requireWritable(request, needsJSON: false)
        let target = try resolveForWriting(request.uri.queryParameters.get("path") ?? "", notFound: "Directory not found")
        guard let total = request.uri.queryParameters.get("size").flatMap({ Int64($0) }), total >= 0 else {
            throw APIError(.badRequest, "size required", code: "sizeRequired")
        }
        let held = Paths.size(of: Self.partPath(for: target.absolute, total: total)) ?? 0
        return JSONBody.response(UploadResponse(path: target.relative, size: total, received: held))
    }

    private func resumableUpload(
        _ request: Request, to target: SafePath.Resolved, range: ContentRange, replacing: Bool
    ) async throws -> Response {
        let part = Self.partPath(for: target.absolute, total: range.total)
        let held = Paths.size(of: part) ?? 0
        guard range.start == held else {
            throw APIError(
                .rangeNotSatisfiable,
                body: ErrorResponse(error: "Upload continues at byte \(held)", code: "wrongOffset", size: held),
                headers: [.range: held > 0 ? "bytes=0-\(held - 1)" : "bytes=none"])
        }
        let descriptor = open(part, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw APIError.fromWrite(FileTreeError(errno: errno, path: part)) }
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
                        guard written > 0 else { throw APIError.fromWrite(FileTreeError(errno: errno, path: part)) }
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
                UploadResponse(path: target.relative, size: range.total, received: now, complete: false), status: .accepted)
        }
        do throws(FileTreeError) {
            if replacing {
                #if canImport(Glibc)
                let renamed = Glibc.rename(part, target.absolute)
                #else
                let renamed = Darwin.rename(part, target.absolute)
                #endif
                guard renamed == 0 else { throw FileTreeError(errno: errno, path: target.absolute) }
            } else {
                try FileOperations.move(part, to: target.absolute)
            }
        } catch {
            if error.code == .alreadyExists { unlink(part) }
            throw APIError.fromWrite(error)
        }
        return uploaded(target, size: now)
    }

    /// Whether an upload may replace the file at `target`: `overwrite=1`, or an `If-Match` that
    /// names its current ETag (one that does not is 412).
    private func replaces(_ target: SafePath.Resolved, _ request: Request) throws(APIError) -> Bool {
        if let match = request.headers[.ifMatch] {
            guard let status = SafePath.status(following: target.absolute),
                HTTPValidators.listContains(match, etag: HTTPValidators.etag(status))
            else {
                throw APIError(.preconditionFailed, "File has changed since it was read", code: "conflict")
            }
            return true
        }
        return ["1", "true"].contains(request.uri.queryParameters.get("overwrite") ?? "")
    }

    private func uploaded(_ target: SafePath.Resolved, size: Int64) -> Response {
        var response = JSONBody.response(
            UploadResponse(path: target.relative, size: size, received: size), status: .created)
        if let status = SafePath.status(following: target.absolute) {
            response.headers[.eTag] = HTTPValidators.etag(status)
        }
        return response
    }

    /// The hidden part file of a resumable upload: next to the target, named after it and the
    /// total size (so a different file under the same name starts afresh).
    static func partPath(for target: String, total: Int64) -> String {
        return Paths.join(Paths.parent(of: target), ".browsey-upload-\(StableHash.hex(PathName.last(of: target)))-\(total).part")
    }

    /// Runs FileTree work, answering its failures with the contract's statuses.
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
