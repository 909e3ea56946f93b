import Hummingbird
import NIOCore
import Preview

/// The plain page a share link shows (Assets/share.html, filled): no script, no style, nothing
/// from elsewhere, and no `Referer` that would carry the link on.
enum SharePage {
    /// The page's frame (Assets/share.html), with `{{title}}` and `{{body}}` to fill.
    static let frame: String = {
        guard let asset = EmbeddedAsset.named("share.html") else { return "{{body}}" }
        var buffer = asset.identity.buffer
        return buffer.readString(length: buffer.readableBytes) ?? "{{body}}"
    }()

    static func response(title: String, body: String, status: HTTPResponse.Status = .ok) -> Response {
        let html = frame.replacing("{{title}}", with: HTMLText.escaped(title)).replacing(
            "{{body}}", with: body)
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy:
                    "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
                .referrerPolicy: "no-referrer", .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
