import Hummingbird

/// The web UI's files: plain HTML, CSS and JavaScript, kept in Swift string literals so that the
/// server needs no resource bundle (SwiftPM's bundle accessor would link all of Foundation into
/// the server, whose idle memory is measured) and nothing is fetched from anywhere at run time.
///
/// Each is served with a strong `ETag` (a CRC-32 of its bytes) and `Cache-Control: no-cache`,
/// so a browser revalidates with one small request and gets a 304 until the server changes.
struct WebAsset: Sendable {
    let bytes: [UInt8]
    let contentType: String
    let etag: String

    init(_ text: String, contentType: String) {
        bytes = Array(text.utf8)
        self.contentType = contentType
        etag = "\"w-" + String(CRC32.of(bytes), radix: 16) + "-" + String(bytes.count, radix: 16) + "\""
    }

    /// The page every non-API address answers with: the URL path is the folder.
    static let page = WebAsset(WebPageSource.html, contentType: "text/html; charset=utf-8")
    /// The application.
    static let script = WebAsset(WebScriptSource.javascript, contentType: "text/javascript; charset=utf-8")
    /// The styles.
    static let style = WebAsset(WebStyleSource.css, contentType: "text/css; charset=utf-8")

    /// The asset, or 304 when the browser holds this very version.
    func response(to request: Request) -> Response {
        var headers: HTTPFields = [
            .contentType: contentType, .cacheControl: "no-cache", .eTag: etag,
            .xContentTypeOptions: "nosniff",
            // Only our own pages may load these, and no address of ours leaves in a Referer.
            .crossOriginResourcePolicy: "same-origin", InertContent.referrerPolicy: "no-referrer",
        ]
        if contentType.hasPrefix("text/html") {
            // The page runs only its own script and styles; images and media come from this server;
            // no worker (a service worker would outlive the page), and no other site may frame it.
            headers[.contentSecurityPolicy] =
                "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; object-src 'none'; frame-src 'self'; "
                + "worker-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        }
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingSpaces() == etag || $0.trimmingSpaces() == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        var buffer = ByteBuffer()
        buffer.writeBytes(bytes)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: buffer))
    }
}
