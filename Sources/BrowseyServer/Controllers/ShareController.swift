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
/// named, and never more than the owner may do there. Paths in a link's requests are relative to
/// the shared item (`/s/ID?path=sub/folder`), so the item's place in the tree is never shown. A
/// link's page is a plain HTML page of the item (a folder's list, its zip; a file's download;
/// an upload share's form); its downloads and zips are the server's own endpoints, run on the
/// narrowed access.
struct ShareController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    let accounts: Accounts?
    let shares: ShareStore?
    let files: FileController
    let uploads: UploadController
    let audit: AuditLog?

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.post("/api/share") { request, context in try await share(request, context: context) }
        group.get("/api/shares") { request, context in try list(request, context: context) }
        group.post("/api/unshare") { request, context in try await unshare(request, context: context) }
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
        let made = shares.make(
            owner: user, path: target.relative, upload: upload, password: password, expires: expires, now: now
        )
        _ = accounts
        record("share", made.path, context, detail: made.id)
        return JSONBody.response(info(made), status: .created)
    }

    func list(_ request: Request, context: FileServerContext) throws -> Response {
        let (accounts, shares, user) = try signedIn(context)
        let mine = shares.all().filter { mayManage($0, user: user, accounts: accounts) }
        return JSONBody.response(SharesResponse(shares: mine.map(info)))
    }

    func unshare(_ request: Request, context: FileServerContext) async throws -> Response {
        let (accounts, shares, user) = try signedIn(context)
        try requireJSONFromThisSite(request)
        let body = try await decode(UnshareRequest.self, from: request)
        guard let share = shares.share(body.id), mayManage(share, user: user, accounts: accounts) else {
            throw APIError(.notFound, "No such share", code: .notFound)
        }
        shares.revoke(share.id)
        record("unshare", share.path, context, detail: share.id)
        return JSONBody.response(LogoutResponse())
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
        let resolved: SafePath.Resolved
        let rules = try context.access.rules()
        do {
            resolved = try rules.resolve(raw)
        } catch {
            throw APIError.from(error, notFound: "File not found")
        }
        try context.access.check(need, resolved, notFound: "File not found")
        return resolved
    }

    // MARK: Opening a link

    /// The share a link names, checked: 404 unknown or revoked, 410 expired, 401 without its
    /// password; and the context its requests run in.
    private func opened(
        _ request: Request, _ context: FileServerContext
    ) throws(APIError) -> (Share, FileServerContext) {
        guard let accounts, let shares, let id = context.parameters.get("id"), let share = shares.share(id),
            accounts.users[share.owner] != nil
        else {
            throw APIError(.notFound, "No such share", code: .notFound)
        }
        if let expires = share.expires, expires <= configuration.clock().components.seconds {
            throw APIError(.gone, "This link has expired", code: .expired)
        }
        if share.password != nil {
            guard let password = Self.basicPassword(request.headers[.authorization]),
                shares.unlocks(share, with: password)
            else {
                throw APIError(
                    .unauthorized, "This link asks for a password", code: .signInRequired,
                    headers: [.wwwAuthenticate: "Basic realm=\"Shared link\", charset=\"UTF-8\""])
            }
        }
        var inner = context
        inner.identity = .anyone
        inner.access = RequestAccess(
            paths: safePath, mayWrite: !configuration.readOnly, policy: accounts.policy, user: share.owner
        ).scoped(to: share.path, rights: share.upload ? .upload : .read)
        return (share, inner)
    }

    /// The item a link's `path` names, relative to the shared item.
    private func place(_ request: Request, in share: Share) -> String {
        let sub = request.uri.queryParameters.get("path") ?? ""
        let parts = sub.replacing("\\", with: "/").split(separator: "/").filter { $0 != "." }
        return parts.isEmpty
            ? share.path : (share.path == "/" ? "" : share.path) + "/" + parts.joined(separator: "/")
    }

    func download(_ request: Request, context: FileServerContext, zip: Bool) async throws -> Response {
        let (share, inner) = try opened(request, context)
        guard !share.upload else { throw APIError(.notFound, "No such share", code: .notFound) }
        let forwarded = Self.request(
            request, to: zip ? "/api/archive" : "/api/file", path: place(request, in: share))
        let response =
            zip
            ? try await files.archive(forwarded, context: inner)
            : try await files.file(forwarded, context: inner)
        if response.status == .ok || response.status == .partialContent, request.method == .get {
            shares?.countDownload(share.id)
        }
        return response
    }

    func upload(_ request: Request, context: FileServerContext) async throws -> Response {
        let (share, inner) = try opened(request, context)
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
        let (share, inner) = try opened(request, context)
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
        let here = place(request, in: share)
        let target: SafePath.Resolved
        do {
            target = try safePath.resolve(here)
        } catch {
            throw APIError(.notFound, "Not found", code: .notFound)
        }
        try inner.access.check(.read, target, notFound: "Not found")
        let sub = String(here.dropFirst(share.path == "/" ? 1 : share.path.count + 1))
        func link(_ kind: String, _ path: String) -> String {
            "/s/\(id)\(kind)?path=\(PercentEncoding.queryValue(path))"
        }
        guard let folder = try? safePath.folder(target) else {
            guard Paths.type(at: target.absolute) != nil else {
                throw APIError(.notFound, "Not found", code: .notFound)
            }
            return SharePage.response(
                title: FileName.lastComponent(of: here),
                body:
                    "<h1>\(HTMLText.escaped(FileName.lastComponent(of: here)))</h1><p><a href=\"\(link("/file", sub))\">Download</a></p>"
            )
        }
        let reader = DirectoryReader(
            filter: EntryFilter(includesHidden: false, excludedNames: safePath.ignored), order: .browsey)
        let listing = try await reader.listing(in: folder)
        var rows = ""
        if !sub.isEmpty {
            let parent = sub.split(separator: "/").dropLast().joined(separator: "/")
            rows += "<li><a href=\"\(link("", parent))\">..</a></li>\n"
        }
        for item in listing.items {
            let itemName = listing.name(of: item)
            let relative = Paths.join(here, itemName)
            guard inner.access.mayRead(relative) else { continue }
            let resolved = SafePath.Resolved(absolute: listing.path(of: item), relative: relative)
            guard let real = safePath.realRelative(of: resolved), inner.access.mayRead(real) else { continue }
            let inside = sub.isEmpty ? itemName : sub + "/" + itemName
            if item.type == .directory {
                rows += "<li><a href=\"\(link("", inside))\">\(HTMLText.escaped(itemName))/</a></li>\n"
            } else {
                rows +=
                    "<li><a href=\"\(link("/file", inside))\">\(HTMLText.escaped(itemName))</a> \(item.size) bytes</li>\n"
            }
        }
        let title = sub.isEmpty ? name : FileName.lastComponent(of: here)
        return SharePage.response(
            title: title,
            body: """
                <h1>\(HTMLText.escaped(title))</h1>
                <p><a href="\(link("/zip", sub))">Download all as a zip</a></p>
                <ul>
                \(rows)</ul>
                """)
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
