import BrowseyAPI
import FileTree
import Hummingbird
import NIOCore

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

/// One item's bytes and what is known of it: `GET|HEAD /api/file`, `GET /api/view`,
/// `GET /api/stat`, and a folder as a zip, `GET /api/archive`.
struct FileController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    /// Whether downloads go by `sendfile` (plain HTTP only: never under TLS).
    let sendsFilesBySendfile: Bool
    /// Whether answers name where things are on the server's disk (`absolutePath`); not through
    /// a share link.
    var showsFilesystemPaths = true
    /// Where the bytes of what `/api/view` describes are fetched (`url`).
    var fileEndpoint = "/api/file"
    /// What reads a video's duration for `/api/view` (`nil`: videos are described without).
    var videos: ThumbnailService? = nil

    /// Whether a download to `client` goes by `sendfile`: when downloads do, except to a client
    /// on this machine unless asked (``ServerConfiguration/sendsFilesBySendfileOnLoopback``).
    func sendsBySendfile(to client: SocketAddress?) -> Bool {
        guard sendsFilesBySendfile else { return false }
        return configuration.sendsFilesBySendfileOnLoopback || client?.isLoopback != true
    }

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/api/stat") { request, context in try stat(request, context: context) }
        group.get("/api/view") { request, context in try await view(request, context: context) }
        group.get("/api/file") { request, context in try await file(request, context: context) }
        group.head("/api/file") { request, context in try await file(request, context: context) }
        group.get("/api/archive") { request, context in try await archive(request, context: context) }
    }

    /// `GET|HEAD /api/file?path=[&download=false]`: the bytes, streamed, with ranges, validators
    /// and conditional answers.
    func file(_ request: Request, context: FileServerContext) async throws -> Response {
        let target = try resolve(request, context, required: true, notFound: "File not found")
        let name = FileName.lastComponent(of: target.absolute)
        let disposition = HTTPValidators.contentDisposition(
            name, attachment: request.uri.queryParameters.get("download") != "false")
        return try await send(target, request, context: context, disposition: disposition)
    }

    /// The bytes of the file `target` names, for `GET` or `HEAD`: what `/api/file` and WebDAV's
    /// GET answer alike (ranges, validators, conditional answers), with `disposition` as the
    /// `Content-Disposition` (none when `nil`).
    func send(
        _ target: SafePath.Resolved, _ request: Request, context: FileServerContext, disposition: String?
    ) async throws -> Response {
        let (descriptor, status) = try openForReading(target, notFound: "File not found")
        // The response's body takes the descriptor over; every other way out closes it.
        var handedOver = false
        defer { if !handedOver { close(descriptor) } }
        guard status.type != .directory else {
            throw APIError(.badRequest, "Cannot download directory", code: .isADirectory)
        }
        guard status.type == .regular else { throw APIError(.notFound, "File not found", code: .notFound) }
        let name = FileName.lastComponent(of: target.absolute)
        let size = Int(status.size)
        let etag = HTTPValidators.etag(status)
        let lastModified = HTTPValidators.httpDate(seconds: status.modified.seconds)

        let contentType = ContentTypeRegistry.standard.type(forFileName: name)
        let mime = contentType.preferredMIMEType ?? "application/octet-stream"
        var headers: HTTPFields = [
            .contentType: contentType.isText ? mime + "; charset=utf-8" : mime,
            .acceptRanges: "bytes",
            .eTag: etag,
            .lastModified: lastModified,
        ]
        if let disposition { headers[.contentDisposition] = disposition }
        InertContent.apply(to: &headers, for: request)
        if HTTPValidators.isNotModified(request.headers, etag: etag, modifiedSeconds: status.modified.seconds)
        {
            headers[.contentType] = nil
            headers[.contentDisposition] = nil
            return Response(status: .notModified, headers: headers)
        }
        var range: ClosedRange<Int>?
        if let header = request.headers[.range],
            HTTPValidators.rangeApplies(request.headers, etag: etag, lastModified: lastModified)
        {
            switch HTTPValidators.parseRange(header, size: size) {
            case .none: break
            case .some(.unsatisfiable):
                throw APIError(
                    .rangeNotSatisfiable, "Range not satisfiable", code: .rangeNotSatisfiable,
                    headers: [.contentRange: "bytes */\(size)"])
            case .some(.range(let bytes)): range = bytes
            }
        }
        let responseStatus: HTTPResponse.Status = range == nil ? .ok : .partialContent
        let bytes = range ?? 0...max(0, size - 1)
        headers[.contentLength] = String(size == 0 ? 0 : bytes.count)
        if let range { headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)" }
        if request.method == .head || size == 0 {
            return Response(status: responseStatus, headers: headers)
        }
        let body = FileBody.make(
            descriptor: descriptor, range: bytes,
            over: context.connection, bySendfile: sendsBySendfile(to: context.connection?.remoteAddress))
        handedOver = true
        return Response(status: responseStatus, headers: headers, body: body)
    }
}
