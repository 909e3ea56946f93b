import AssetFormat
import Hummingbird
import NIOCore

/// A web file ready to answer with: its bytes, its type, a strong `ETag`, and a gzip variant
/// when there is one. The page gets the content security policy; every file revalidates with
/// one small request (`Cache-Control: no-cache`) and gets a 304 while it has not changed.
struct ServedAsset: Sendable {
    /// The `Content-Type`.
    let contentType: String
    /// The bytes as they are, and their strong `ETag`.
    let identity: (etag: String, bytes: AssetBytes)
    /// The bytes gzipped, and the `ETag` of that variant (the identity tag with `-gz`).
    let gzip: (etag: String, bytes: AssetBytes)?

    /// The policy the page runs under: its own module scripts and styles only (`'self'`), no
    /// inline script or style; images and media from this server; no worker (a service worker
    /// would outlive the page), no plugin, and no other site may frame it.
    static let pagePolicy =
        "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; object-src 'none'; frame-src 'self'; "
        + "worker-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    /// An asset the build embedded.
    init(_ embedded: EmbeddedAsset) {
        contentType = embedded.contentType
        identity = (embedded.etag, AssetBytes(embedded.identity))
        gzip = embedded.gzip.map { (WebAssetFormat.gzipTag(of: embedded.etag), AssetBytes($0)) }
    }

    /// A file read from disk (`--web-root`): tagged here, never compressed.
    init(bytes: ByteBuffer, contentType: String) {
        self.contentType = contentType
        identity = (WebAssetFormat.etag(of: bytes.readableBytesView), AssetBytes(bytes))
        gzip = nil
    }

    /// The answer to `request`: the gzip variant when the client accepts it, 304 when the
    /// client holds either variant already. `HEAD` is the router's: this without the body.
    func response(to request: Request) -> Response {
        let chosen =
            gzip.flatMap { Self.acceptsGzip(request.headers[.acceptEncoding]) ? $0 : nil } ?? identity
        var headers: HTTPFields = [
            .contentType: contentType, .cacheControl: "no-cache", .eTag: chosen.etag,
            .vary: "Accept-Encoding",
            .xContentTypeOptions: "nosniff",
            // Only our own pages may load these, and no address of ours leaves in a Referer.
            .crossOriginResourcePolicy: "same-origin", .referrerPolicy: "no-referrer",
        ]
        if chosen.etag != identity.etag { headers[.contentEncoding] = "gzip" }
        if contentType.hasPrefix("text/html") { headers[.contentSecurityPolicy] = Self.pagePolicy }
        if let held = request.headers[.ifNoneMatch],
            HTTPValidators.listContains(held, etag: identity.etag, weak: true)
                || gzip.map({ HTTPValidators.listContains(held, etag: $0.etag, weak: true) }) == true
        {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: chosen.bytes.buffer))
    }

    /// Whether an `Accept-Encoding` value allows gzip: `gzip` (or `x-gzip`, or `*` when gzip is
    /// not named) with a quality above 0.
    static func acceptsGzip(_ value: String?) -> Bool {
        guard let value else { return false }
        var gzip: Double?
        var any: Double?
        for item in value.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let name = parts.first?.trimmingSpaces().lowercased() else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingSpaces()
                if pair.hasPrefix("q=") || pair.hasPrefix("Q=") { quality = Double(pair.dropFirst(2)) ?? 0 }
            }
            if name == "gzip" || name == "x-gzip" { gzip = quality } else if name == "*" { any = quality }
        }
        return (gzip ?? any ?? 0) > 0
    }
}
