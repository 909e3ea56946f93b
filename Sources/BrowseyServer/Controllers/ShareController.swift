import BrowseyAPI
import FileTree
import Hummingbird
import NIOCore
import NIOPosix
import Preview

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Share links, on a server with accounts: `POST /api/share`, `GET /api/shares`,
/// `POST /api/unshare`, and the links themselves, `/s/ID`.
///
/// A link opens exactly its item: every request through it runs on the owner's access narrowed
/// to that item (``RequestAccess/scoped(to:rights:)``), so nothing outside it is reachable or even
/// named, and never more than the owner may do there.
///
/// A link opens in the web UI (`/s/ID`, a folder inside it `/s/ID?path=/sub`), which asks
/// `/api/shared/ID/…` (list, view, stat, file, thumb, archive): the server's own controllers with
/// their path rules rooted at the shared folder (at a shared file's folder, with only that file
/// in reach), so the paths in requests and answers are the link's own and the item's place in
/// the tree is never shown. `/s/ID/file` and `/s/ID/zip` download directly; an upload share's
/// page is a plain form.
struct ShareController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    let accounts: Accounts?
    let shares: ShareStore?
    let files: FileController
    let uploads: UploadController
    let audit: AuditLog?
    /// The thumbnails a link's grid shows, when the server makes them.
    var thumbnails: ThumbnailService? = nil
    /// The extensions whose files are marked `"thumbnail": true` in listings.
    var marked = ThumbnailExtensions.none
    /// The web UI, which a link opens in.
    var web: WebAssets? = nil
    /// Slows wrong passwords of a link down, per address and per link (its own: a link's
    /// tries and the logins' do not count against each other).
    var unlockThrottle: LoginThrottle? = nil

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.post("/api/share") { request, context in try await share(request, context: context) }
        group.get("/api/shares") { request, context in try await list(request, context: context) }
        group.post("/api/unshare") { request, context in try await unshare(request, context: context) }
        group.get("/api/shared/:id") { request, context in try await item(request, context: context) }
        group.get("/api/shared/:id/list") { request, context in
            let (_, inner, served) = try await rooted(request, context)
            return try await served.listing.list(request, context: inner)
        }
        group.get("/api/shared/:id/view") { request, context in
            let (_, inner, served) = try await rooted(request, context)
            return try await served.files.view(request, context: inner)
        }
        group.get("/api/shared/:id/stat") { request, context in
            let (_, inner, served) = try await rooted(request, context)
            return try served.files.stat(request, context: inner)
        }
        group.get("/api/shared/:id/file") { request, context in
            let (share, inner, served) = try await rooted(request, context)
            return await counted(try await served.files.file(request, context: inner), share, request)
        }
        group.get("/api/shared/:id/archive") { request, context in
            let (share, inner, served) = try await rooted(request, context)
            return await counted(try await served.files.archive(request, context: inner), share, request)
        }
        group.get("/api/shared/:id/thumb") { request, context in
            let (_, inner, served) = try await rooted(request, context)
            guard let thumbnails = served.thumbnails else {
                throw APIError(.notFound, "This server makes no thumbnails", code: .notFound)
            }
            return try await thumbnails.thumbnail(request, context: inner)
        }
    }

    /// The links themselves, beside the web UI's pages rather than among the API's routes.
    func addLinkRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/s/:id") { request, context in try await page(request, context: context) }
        group.get("/s/:id/file") { request, context in
            try await download(request, context: context, zip: false)
        }
        group.get("/s/:id/zip") { request, context in try await download(request, context: context, zip: true)
        }
        group.post("/s/:id/upload") { request, context in try await upload(request, context: context) }
    }

    // MARK: Managing shares

    func share(_ request: Request, context: FileServerContext) async throws -> Response {
        let (accounts, shares, user) = try signedIn(context)
        try requireJSONFromThisSite(request)
        let body = try await decode(ShareRequest.self, from: request)
        let upload = body.upload ?? false
        if upload, configuration.readOnly { throw APIError.readOnly }
        let target = try resolve(request, path: body.path, context, need: upload ? .upload : .read)
        if upload, (try? safePath.folder(target)) == nil {
            throw APIError(.badRequest, "An upload share is a folder", code: .notADirectory)
        }
        let now = configuration.clock().components.seconds
        var expires: Int64?
        if let date = body.expires {
            expires = Int64(date.timeIntervalSince1970.rounded(.down))
            guard let expires, expires > now else {
                throw APIError(.badRequest, "expires must lie in the future", code: .invalidBody)
            }
        }
        var password: PasswordHash?
        if let text = body.password, !text.isEmpty {
            password = try await NIOThreadPool.singleton.runIfActive { try PasswordHash.make(password: text) }
        }
        let made: Share
        do {
            made = try await shares.make(
                // The item where it really is: a link's requests are held to that place, so a path
                // through a link inside the root is shared as the folder or file it leads to.
                owner: user, path: safePath.realRelative(of: target) ?? target.relative, upload: upload,
                password: password, expires: expires, now: now
            )
        } catch {
            throw APIError.state(error, "The share link was not saved")
        }
        _ = accounts
        record("share", made.path, context, detail: made.id)
        return JSONBody.response(info(made), status: .created)
    }

    func list(_ request: Request, context: FileServerContext) async throws -> Response {
        let (accounts, shares, user) = try signedIn(context)
        let all: [Share]
        do {
            all = try await shares.all()
        } catch {
            throw APIError.state(error, "The share links cannot be listed")
        }
        let mine = all.filter { mayManage($0, user: user, accounts: accounts) }
        return JSONBody.response(SharesResponse(shares: mine.map(info)))
    }

    func unshare(_ request: Request, context: FileServerContext) async throws -> Response {
        let (accounts, shares, user) = try signedIn(context)
        try requireJSONFromThisSite(request)
        let body = try await decode(UnshareRequest.self, from: request)
        guard let share = try await Self.share(body.id, in: shares),
            mayManage(share, user: user, accounts: accounts)
        else {
            throw APIError(.notFound, "No such share", code: .notFound)
        }
        do {
            try await shares.revoke(share.id)
        } catch {
            throw APIError.state(error, "The share link was not revoked")
        }
        record("unshare", share.path, context, detail: share.id)
        return JSONBody.response(LogoutResponse())
    }

    /// The share of `id`; 503 when the store cannot say.
    private static func share(_ id: String, in shares: ShareStore) async throws(APIError) -> Share? {
        do {
            return try await shares.share(id)
        } catch {
            throw APIError.state(error, "This link cannot be opened")
        }
    }

    /// How long `address` waits before trying `key`'s password again; 503 when the store cannot say.
    private static func wait(
        _ throttle: LoginThrottle, _ address: String, _ key: String
    ) async throws(APIError) -> Duration? {
        do {
            return try await throttle.wait(address: address, user: key)
        } catch {
            throw APIError.state(error, "This link's password cannot be checked")
        }
    }

    /// Whether `user` may see and revoke `share`: theirs, or they administer the server or its folder.
    private func mayManage(_ share: Share, user: String, accounts: Accounts) -> Bool {
        share.owner == user || accounts.users[user]?.isAdministrator == true
            || accounts.policy.rights(of: user, at: share.path).contains(.admin)
    }

    private func signedIn(_ context: FileServerContext) throws(APIError) -> (Accounts, ShareStore, String) {
        guard let accounts, let shares else {
            throw APIError(.notFound, "This server has no accounts", code: .notFound)
        }
        guard let user = context.identity.user else { throw .signInRequired }
        return (accounts, shares, user)
    }

    private func info(_ share: Share) -> ShareInfo {
        ShareInfo(
            id: share.id, url: "/s/\(share.id)", path: share.path, owner: share.owner, upload: share.upload,
            hasPassword: share.password != nil,
            expires: share.expires.map { Date(timeIntervalSince1970: Double($0)) },
            created: Date(timeIntervalSince1970: Double(share.created)), downloads: share.downloads)
    }

    private func resolve(
        _ request: Request, path raw: String, _ context: FileServerContext, need: RequestAccess.Need
    ) throws(APIError) -> SafePath.Resolved {
        guard !raw.isEmpty else { throw .pathRequired }
        return try resolve(path: raw, context, notFound: "File not found", need: need)
    }

    // MARK: Opening a link

    /// The share a link names, checked: 404 unknown or revoked, 410 expired, 401 without its
    /// password; and the context its requests run in.
    private func opened(
        _ request: Request, _ context: FileServerContext
    ) async throws(APIError) -> (Share, FileServerContext) {
        guard let accounts, let shares, let id = context.parameters.get("id"),
            let share = try await Self.share(id, in: shares),
            accounts.users[share.owner] != nil
        else {
            throw APIError(.notFound, "No such share", code: .notFound)
        }
        if let expires = share.expires, expires <= configuration.clock().components.seconds {
            throw APIError(.gone, "This link has expired", code: .expired)
        }
        if share.password != nil {
            let asks = APIError(
                .unauthorized, "This link asks for a password", code: .signInRequired,
                headers: [.wwwAuthenticate: "Basic realm=\"Shared link\", charset=\"UTF-8\""])
            guard let password = Self.basicPassword(request.headers[.authorization]) else { throw asks }
            if !shares.remembers(share, password) {
                // A password not seen to open this link is hashed only when its address and
                // the link have waited out their failures (as logins are: each wrong try would
                // otherwise cost a scrypt, a lever on the server's CPU).
                let address = context.clientAddress
                let key = "share " + share.id
                if let throttle = unlockThrottle, let wait = try await Self.wait(throttle, address, key) {
                    audit?.record(
                        "shareThrottled", user: nil, address: address, path: share.path, detail: share.id)
                    throw APIError.slowDown("Too many wrong passwords", wait: wait)
                }
                guard shares.unlocks(share, with: password) else {
                    do {
                        try await unlockThrottle?.failed(address: address, user: key)
                    } catch {
                        throw APIError.state(error, "This link's password cannot be checked")
                    }
                    audit?.record(
                        "sharePasswordFailed", user: nil, address: address, path: share.path, detail: share.id
                    )
                    throw asks
                }
            }
        }
        var inner = context
        inner.identity = .anyone
        inner.access = RequestAccess(
            paths: safePath, mayWrite: !configuration.readOnly, policy: accounts.policy, user: share.owner
        ).scoped(to: share.path, rights: share.upload ? .upload : .read)
        return (share, inner)
    }

    /// The item a link's `path` names, relative to the shared item; 404 for a hidden name
    /// inside it (a link shows none, even where the server shows them to its users).
    private func place(_ request: Request, in share: Share) throws(APIError) -> String {
        let sub = request.uri.queryParameters.get("path") ?? ""
        let parts = sub.replacing("\\", with: "/").split(separator: "/").filter { $0 != "." }
        if parts.contains(where: { $0 != ".." && FileName.isHidden($0) }) {
            throw APIError(.notFound, "File not found", code: .notFound)
        }
        return parts.isEmpty
            ? share.path : (share.path == "/" ? "" : share.path) + "/" + parts.joined(separator: "/")
    }

    func download(_ request: Request, context: FileServerContext, zip: Bool) async throws -> Response {
        let (share, inner) = try await opened(request, context)
        guard !share.upload else { throw APIError(.notFound, "No such share", code: .notFound) }
        let forwarded = Self.request(
            request, to: zip ? "/api/archive" : "/api/file", path: try place(request, in: share))
        return await counted(
            zip
                ? try await files.archive(forwarded, context: inner)
                : try await files.file(forwarded, context: inner), share, request)
    }

    /// `response`, counted as one of the link's downloads when it sends the bytes.
    private func counted(_ response: Response, _ share: Share, _ request: Request) async -> Response {
        if response.status == .ok || response.status == .partialContent, request.method == .get {
            await shares?.countDownload(share.id)
        }
        return response
    }

    // MARK: A link's requests to the API

    /// The controllers a link's requests run on, rooted where the link opens.
    struct Served {
        let listing: ListingController
        let files: FileController
        let thumbnails: ThumbnailController?
    }

    /// A link's request to the API (`/api/shared/ID/…`): the share, checked as ``opened(_:_:)``
    /// does, the context it runs in and the controllers that answer it, all rooted at the
    /// shared folder, or for a file at its folder with only the file in reach. Nothing through
    /// a link writes, shows hidden names or follows a link out of the shared folder.
    private func rooted(
        _ request: Request, _ context: FileServerContext
    ) async throws(APIError) -> (Share, FileServerContext, Served) {
        let (share, inner, item, isFolder) = try await sharedItem(request, context)
        let rootPath = isFolder ? item.relative : Paths.parent(of: item.relative)
        let root: SafePath.Resolved
        do {
            root = try safePath.resolve(rootPath)
        } catch {
            throw APIError(.notFound, "No such share", code: .notFound)
        }
        // Rooted at the folder opened below the server's root (a link that leads out is refused
        // there, at the moment it is opened, unless links may lead out) and held: a folder
        // swapped for a link afterwards does not move it. Its real path is where the folder
        // really is.
        guard let folder = try? safePath.folder(root) else {
            throw APIError(.notFound, "No such share", code: .notFound)
        }
        let paths = SafePath(holding: ContainedRoot(holding: folder), ignored: safePath.ignored)
        var rooted = inner
        rooted.access = RequestAccess(
            paths: paths, mayWrite: false, policy: inner.access.policy, user: share.owner,
            scope: (isFolder ? "/" : "/" + FileName.lastComponent(of: item.relative), .read),
            // Where the root really is: the rules deeper down are asked about the real places,
            // as every other request's are (a share through a link to a folder meets them too).
            base: safePath.realRelative(of: root) ?? root.relative)
        var listing = ListingController(
            configuration: configuration, safePath: paths, listingCache: nil, thumbnails: marked)
        listing.showsFilesystemPaths = false
        var files = FileController(
            configuration: configuration, safePath: paths,
            sendsFilesBySendfile: self.files.sendsFilesBySendfile)
        files.showsFilesystemPaths = false
        files.fileEndpoint = "/api/shared/\(share.id)/file"
        files.videos = self.thumbnails
        let thumbnails = self.thumbnails.map {
            ThumbnailController(configuration: configuration, safePath: paths, thumbnails: $0)
        }
        return (share, rooted, Served(listing: listing, files: files, thumbnails: thumbnails))
    }

    /// The share a link names (not an upload share), checked, and its item: resolved, still
    /// readable by its owner, and whether it is a folder.
    private func sharedItem(
        _ request: Request, _ context: FileServerContext
    ) async throws(APIError) -> (Share, FileServerContext, SafePath.Resolved, Bool) {
        let (share, inner) = try await opened(request, context)
        guard !share.upload, let item = try? safePath.resolve(share.path), inner.access.mayRead(item.relative)
        else {
            throw APIError(.notFound, "No such share", code: .notFound)
        }
        try inner.access.check(.read, item, notFound: "No such share")
        guard Paths.type(at: item.absolute) != nil else {
            throw APIError(.notFound, "No such share", code: .notFound)
        }
        // A folder, or a link inside the root to one: opened as the routes open it.
        return (share, inner, item, (try? safePath.folder(item)) != nil)
    }

    /// `GET /api/shared/ID`: what a link opens, in its own terms: its name, whether it is a
    /// folder, and its path inside the link (`/` for a folder, `/NAME` for a file).
    func item(_ request: Request, context: FileServerContext) async throws -> Response {
        let (_, _, item, isFolder) = try await sharedItem(request, context)
        let name = FileName.lastComponent(of: item.relative)
        return JSONBody.response(
            SharedItemResponse(name: name, folder: isFolder, path: isFolder ? "/" : "/" + name))
    }

    func upload(_ request: Request, context: FileServerContext) async throws -> Response {
        let (share, inner) = try await opened(request, context)
        guard share.upload else { throw APIError(.notFound, "No such share", code: .notFound) }
        let forwarded = Self.request(request, to: "/api/upload", path: share.path)
        let response = try await uploads.uploadForm(forwarded, context: inner)
        record("upload", share.path, context, detail: "share \(share.id)")
        // The answer names where the files landed; through a link only that they did.
        let done = response.status == .created
        return SharePage.response(
            title: done ? "Received" : "Not all received",
            body: done
                ? "<p>Thank you: your files were received.</p>"
                : "<p>Some files could not be received (a name in the way, or too large).</p>",
            status: response.status)
    }

    func page(_ request: Request, context: FileServerContext) async throws -> Response {
        let (share, _) = try await opened(request, context)
        let id = share.id
        let name = FileName.lastComponent(of: share.path)
        if share.upload {
            return SharePage.response(
                title: "Send files to \(name)",
                body: """
                    <h1>Send files to \(HTMLText.escaped(name))</h1>
                    <form method="post" action="/s/\(id)/upload" enctype="multipart/form-data">
                    <input type="file" name="files" multiple required> <button>Send</button></form>
                    <p>You can add files here; you cannot see what is there.</p>
                    """)
        }
        _ = try await sharedItem(request, context)
        // The web UI, which asks `/api/shared/ID/…` for the rest; no referrer carries the link on.
        guard let web else { throw APIError(.notFound, "No such share", code: .notFound) }
        var response = web.response(to: request)
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `request` sent on to one of the server's own endpoints with `path` as its path parameter.
    static func request(_ request: Request, to endpoint: String, path: String) -> Request {
        var head = request.head
        var query = "path=" + PercentEncoding.queryValue(path)
        for (key, value) in request.uri.queryParameters where key != "path" {
            query +=
                "&" + PercentEncoding.queryValue(String(key)) + "="
                + PercentEncoding.queryValue(String(value))
        }
        head.path = endpoint + "?" + query
        return Request(head: head, body: request.body)
    }

    /// The password of an `Authorization: Basic` header (any user name).
    static func basicPassword(_ header: String?) -> String? {
        guard let header, header.count > 6, header.prefix(6).lowercased() == "basic ",
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingSpaces()),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return String(text[text.index(after: colon)...])
    }
}
