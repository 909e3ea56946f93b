public import Hummingbird

/// What keeps a file from the served folder inert on the server's origin: whatever it holds, a
/// browser never runs it as Browsey's page, never renders it as a document with the page's
/// rights, and never loads it as a script, style or worker of ours.
///
/// Every answer that carries a file's bytes (`/api/file` in both forms, `/api/archive`) gets:
/// - `X-Content-Type-Options: nosniff`, so the declared type is the only one a browser uses (an
///   HTML file named `.png` or `.txt` stays an image or text);
/// - `Referrer-Policy: no-referrer`, so a link inside a file leaks no address of ours;
/// - `Content-Security-Policy: sandbox; default-src 'none'` unless the type is on a short list of
///   types a browser can only display: raster images, audio, video and `text/plain`. HTML, XHTML,
///   XML, SVG, PDF, scripts, styles, JSON, archives and unknown types all get it, in both the
///   inline and the attachment form. A sandboxed document has an opaque origin, runs no script,
///   submits no form, opens no window and loads nothing. Media stay off it on purpose: a media
///   document loads its own address as media, which `default-src 'none'` would block. PDF is on
///   the sandboxed side because Chromium's viewer shows a sandboxed PDF all the same (checked,
///   framed and top level), and a PDF's own scripts then get no origin of ours.
/// - When a browser of our own origin asks for the file as a script, style, worker or similar
///   (`Sec-Fetch-Dest`), the type becomes `text/plain`: with `nosniff` the browser refuses to run
///   or apply it, so a file from the folder can never become script that the page's own
///   `script-src 'self'` would allow.
public enum InertContent {
    /// The policy for a file's bytes that a browser could run or render as a document.
    public static let sandbox = "sandbox; default-src 'none'"

    /// Whether a type (`image/png`, `text/plain; charset=utf-8`) is only ever displayed, never run
    /// or rendered as a document, so that it may go inline without a sandbox.
    public static func isDisplayOnly(_ contentType: String) -> Bool {
        let essence = essence(of: contentType)
        if essence == "text/plain" { return true }
        if essence.hasPrefix("audio/") || essence.hasPrefix("video/") { return true }
        if essence.hasPrefix("image/") {
            // SVG is a document with script when opened on its own; so is any XML image.
            return !essence.contains("svg") && !essence.contains("xml")
        }
        return false
    }

    /// The headers a file's bytes go out with, given its `Content-Type`.
    public static func headers(forContentType contentType: String) -> HTTPFields {
        var fields: HTTPFields = [.xContentTypeOptions: "nosniff", .referrerPolicy: "no-referrer"]
        if !isDisplayOnly(contentType) { fields[.contentSecurityPolicy] = sandbox }
        return fields
    }

    /// Adds the headers to an answer whose `Content-Type` is already set; turns that type into
    /// `text/plain` when the request loads the file as a script, style or worker of our origin.
    public static func apply(to headers: inout HTTPFields, for request: Request) {
        if isSubresourceThatRuns(request.headers), headers[.contentType] != nil {
            headers[.contentType] = "text/plain; charset=utf-8"
        }
        for field in Self.headers(forContentType: headers[.contentType] ?? "application/octet-stream") {
            headers[field.name] = field.value
        }
    }

    /// `Sec-Fetch-Dest` values whose load runs or applies what it gets (scripts, styles,
    /// workers, worklets, XSLT, manifests).
    static let runningDestinations: Set<String> = [
        "script", "style", "worker", "sharedworker", "serviceworker", "audioworklet", "paintworklet", "xslt",
        "manifest", "json",
    ]

    /// Whether a browser loads the file for a page of this origin as something it runs or applies.
    /// A load from another site is that site's concern (it runs there, with its rights).
    static func isSubresourceThatRuns(_ headers: HTTPFields) -> Bool {
        guard let destination = headers[.secFetchDest]?.lowercased(),
            runningDestinations.contains(destination)
        else {
            return false
        }
        let site = headers[.secFetchSite]?.lowercased()
        return site == nil || site == "same-origin"
    }

    /// `text/html; charset=utf-8` → `text/html`.
    static func essence(of contentType: String) -> String {
        let main = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType
        return main.trimmingSpaces().lowercased()
    }
}
