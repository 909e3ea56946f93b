#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BrowseyAPI
import FileTree
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird

extension BrowseyRoutes {
    /// `GET|HEAD /api/file?path=[&download=false]`: the bytes, streamed, with ranges, validators
    /// and conditional answers.
    func file(_ request: Request) async throws -> Response {
        let target = try resolve(request, required: true, notFound: "File not found")
        let (descriptor, status) = try openForReading(target, notFound: "File not found")
        // The response's body takes the descriptor over; every other way out closes it.
        var handedOver = false
        defer { if !handedOver { close(descriptor) } }
        guard status.type != .directory else {
            throw APIError(.badRequest, "Cannot download directory", code: "isADirectory")
        }
        guard status.type == .regular else { throw APIError(.notFound, "File not found", code: "notFound") }
        let name = PathName.last(of: target.absolute)
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
            .contentDisposition: HTTPValidators.contentDisposition(
                name, attachment: request.uri.queryParameters.get("download") != "false"),
        ]
        InertContent.apply(to: &headers, for: request)
        if HTTPValidators.isNotModified(request.headers, etag: etag, modifiedSeconds: status.modified.seconds) {
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
                    .rangeNotSatisfiable, "Range not satisfiable", code: "rangeNotSatisfiable",
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
        let body = FileBody.make(descriptor: descriptor, range: bytes, bySendfile: sendsFilesBySendfile)
        handedOver = true
        return Response(status: responseStatus, headers: headers, body: body)
    }

    /// Opens the file `target` names below the root, and its status read from the descriptor
    /// (never looked up by name again). The caller closes the descriptor.
    func openForReading(_ target: SafePath.Resolved, notFound: String) throws(APIError) -> (Int32, FileStatus) {
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
}

/// The last component of an absolute path.
enum PathName {
    static func last(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? "/"
    }
}
