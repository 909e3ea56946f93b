import Hummingbird
import NIOCore

/// The plain page a share link shows: no script, no style, nothing from elsewhere, and no
/// `Referer` that would carry the link on.
enum SharePage {
    static func response(title: String, body: String, status: HTTPResponse.Status = .ok) -> Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="robots" content="noindex">
            <title>\(escape(title))</title></head>
            <body>
            \(body)
            </body></html>
            """
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
                .referrerPolicy: "no-referrer", .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// Text made safe inside HTML.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
