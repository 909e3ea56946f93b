/// How a web file is typed and tagged, in one place for the two that serve them: the build-time
/// embedder (`EmbedAssetsTool`) and the server reading the same files from disk
/// (`browsey serve --web-root`), so a file gets the same `Content-Type` and `ETag` either way.
///
/// It depends on nothing, so the build tool can link it without the server.
public enum WebAssetFormat {
    /// The content type a web file is served with, by its extension, and whether compressing it
    /// is worth it (text is; images and fonts are compressed already).
    public static func contentType(ofPath path: some StringProtocol) -> (name: String, compresses: Bool) {
        switch path.split(separator: ".").last?.lowercased() ?? "" {
        case "html", "htm": ("text/html; charset=utf-8", true)
        case "css": ("text/css; charset=utf-8", true)
        case "js", "mjs": ("text/javascript; charset=utf-8", true)
        case "json", "map": ("application/json", true)
        case "webmanifest": ("application/manifest+json", true)
        case "svg": ("image/svg+xml", true)
        case "txt", "md": ("text/plain; charset=utf-8", true)
        case "yaml", "yml": ("application/yaml", true)
        case "xml": ("application/xml", true)
        case "ico": ("image/x-icon", true)
        case "png": ("image/png", false)
        case "jpg", "jpeg": ("image/jpeg", false)
        case "gif": ("image/gif", false)
        case "webp": ("image/webp", false)
        case "woff2": ("font/woff2", false)
        case "woff": ("font/woff", false)
        default: ("application/octet-stream", false)
        }
    }

    /// A strong entity tag of `bytes`: their 64-bit FNV-1a hash and their length, in hex
    /// (`"0123456789abcdef-1f4"`).
    public static func etag(of bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var count = 0
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            count += 1
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "-" + String(count, radix: 16)
            + "\""
    }

    /// The tag of a file's gzip variant: its own tag with `-gz` (a variant is another
    /// representation, so it needs a tag of its own).
    public static func gzipTag(of etag: String) -> String {
        String(etag.dropLast()) + "-gz\""
    }
}
