import CompressNIO
import Hummingbird
import NIOCore

/// Compresses the server's JSON and text answers with gzip when the request accepts it: a
/// 10,000-entry listing is 1.7 MB of JSON, about a tenth of that compressed, which on a phone's
/// Wi-Fi is most of the wait for the first rows.
///
/// Only whole `200` answers of a known length over ``threshold`` bytes whose type is JSON or text
/// are compressed, never a file (it offers byte ranges), and only when nothing compressed them already (the web UI's files carry
/// their gzip variants made at build time). Such answers say `Vary: Accept-Encoding` either way;
/// a compressed one loses its `Content-Length` (it is sent chunked) and its `ETag` gets a `-gz`
/// suffix, so a cache never mixes the two. A request that does not accept gzip costs one header
/// look-up and goes on untouched.
struct ResponseCompression<Context: RequestContext>: RouterMiddleware {
    /// Answers this size or smaller are sent as they are: compressing them gains nothing.
    static var threshold: Int { 1024 }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method != .head, Self.acceptsGzip(request.headers[values: .acceptEncoding]) else {
            return try await next(request, context)
        }
        var response = try await next(request, context)
        // Files (downloads, thumbnails) offer byte ranges, which must count the bytes on disk.
        guard response.status == .ok, response.headers[.contentEncoding] == nil,
            response.headers[.acceptRanges] == nil, response.headers[.contentRange] == nil,
            let length = response.headers[.contentLength].flatMap({ Int($0) }), length > Self.threshold,
            Self.isCompressible(response.headers[.contentType])
        else {
            return response
        }
        let original = response.body
        response.headers[.contentLength] = nil
        response.headers[.contentEncoding] = "gzip"
        response.headers[.vary] =
            response.headers[.vary].map { $0 + ", Accept-Encoding" } ?? "Accept-Encoding"
        if let tag = response.headers[.eTag], tag.hasSuffix("\"") {
            response.headers[.eTag] = String(tag.dropLast()) + "-gz\""
        }
        response.body = ResponseBody { writer in
            let collected = CollectedBytes()
            try await original.write(CollectingWriter(into: collected))
            let compressed = try collected.buffer.compress(
                with: .gzip(configuration: .init(compressionLevel: 4)))
            try await writer.write(compressed)
            try await writer.finish(nil)
        }
        return response
    }

    /// Whether an `Accept-Encoding` list allows gzip (`gzip`, `x-gzip` or `*`, without `q=0`).
    static func acceptsGzip(_ values: [String]) -> Bool {
        for value in values {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingSpaces() }
                guard let coding = parts.first?.lowercased(),
                    coding == "gzip" || coding == "x-gzip" || coding == "*"
                else { continue }
                let refused = parts.dropFirst().contains { parameter in
                    let pair = parameter.split(separator: "=").map { $0.trimmingSpaces() }
                    return pair.count == 2 && pair[0].lowercased() == "q" && (Double(pair[1]) ?? 1) == 0
                }
                if !refused { return true }
            }
        }
        return false
    }

    /// Whether a content type is worth compressing: JSON (and `+json`), text, JavaScript, XML, SVG.
    static func isCompressible(_ contentType: String?) -> Bool {
        guard let type = contentType?.split(separator: ";").first?.trimmingSpaces().lowercased() else {
            return false
        }
        return type.hasPrefix("text/") || type == "application/json" || type.hasSuffix("+json")
            || type == "application/javascript" || type == "application/xml" || type == "image/svg+xml"
    }
}

/// A body's bytes, gathered so they can be compressed whole.
private final class CollectedBytes {
    var buffer = ByteBuffer()
}

/// Writes a body into ``CollectedBytes``.
private struct CollectingWriter: ResponseBodyWriter {
    let into: CollectedBytes

    mutating func write(_ part: ByteBuffer) async throws {
        var part = part
        into.buffer.writeBuffer(&part)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return String(text)
    }
}
