import Hummingbird

/// The header fields the server reads or sends that HTTPTypes does not name, in one place.
extension HTTPFields.Element.Name {
    // swift-format-ignore: NeverForceUnwrap
    // A literal field name that is a valid token never fails.
    /// `Referrer-Policy`, sent with every file and page.
    static let referrerPolicy = HTTPFields.Element.Name("Referrer-Policy")!
    // swift-format-ignore: NeverForceUnwrap
    /// `Sec-Fetch-Dest`: what the browser will do with the answer.
    static let secFetchDest = HTTPFields.Element.Name("Sec-Fetch-Dest")!
    // swift-format-ignore: NeverForceUnwrap
    /// `Sec-Fetch-Site`: where the request came from.
    static let secFetchSite = HTTPFields.Element.Name("Sec-Fetch-Site")!
    // swift-format-ignore: NeverForceUnwrap
    /// `X-Browsey-Access-Token`: the newest Browsey's access token (``AccessTokenGate``).
    static let browseyAccessToken = HTTPFields.Element.Name("X-Browsey-Access-Token")!
    // swift-format-ignore: NeverForceUnwrap
    /// `X-Forwarded-For`: the client addresses proxies append (`--trusted-proxy`).
    static let xForwardedFor = HTTPFields.Element.Name("X-Forwarded-For")!
    // swift-format-ignore: NeverForceUnwrap
    /// `Last-Event-ID`: where a reconnecting event stream resumes.
    static let lastEventID = HTTPFields.Element.Name("Last-Event-ID")!
    // swift-format-ignore: NeverForceUnwrap
    /// `X-Accel-Buffering`: tells a proxy in front not to buffer the event stream.
    static let xAccelBuffering = HTTPFields.Element.Name("X-Accel-Buffering")!
}

extension HTTPFields.Element.Name {
    // swift-format-ignore: NeverForceUnwrap
    /// WebDAV's `DAV` (the classes a server speaks).
    static let dav = HTTPFields.Element.Name("DAV")!
    // swift-format-ignore: NeverForceUnwrap
    /// `MS-Author-Via: DAV`, which Microsoft's clients look for before they write.
    static let msAuthorVia = HTTPFields.Element.Name("MS-Author-Via")!
    // swift-format-ignore: NeverForceUnwrap
    /// WebDAV's `Depth`.
    static let depth = HTTPFields.Element.Name("Depth")!
    // swift-format-ignore: NeverForceUnwrap
    /// WebDAV's `Destination` (COPY, MOVE).
    static let destination = HTTPFields.Element.Name("Destination")!
    // swift-format-ignore: NeverForceUnwrap
    /// WebDAV's `Overwrite` (COPY, MOVE).
    static let overwrite = HTTPFields.Element.Name("Overwrite")!
    // swift-format-ignore: NeverForceUnwrap
    /// WebDAV's `If` (lock tokens and entity tags).
    static let davIf = HTTPFields.Element.Name("If")!
    // swift-format-ignore: NeverForceUnwrap
    /// WebDAV's `Lock-Token` (LOCK's answer, UNLOCK).
    static let lockToken = HTTPFields.Element.Name("Lock-Token")!
    // swift-format-ignore: NeverForceUnwrap
    /// WebDAV's `Timeout` (LOCK).
    static let timeout = HTTPFields.Element.Name("Timeout")!
    // swift-format-ignore: NeverForceUnwrap
    /// What Finder sends in place of `Content-Length` with a chunked PUT.
    static let expectedEntityLength = HTTPFields.Element.Name("X-Expected-Entity-Length")!
}
