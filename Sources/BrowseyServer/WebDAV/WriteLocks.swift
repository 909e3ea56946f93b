import Hummingbird

/// WebDAV's locks as every other door sees them: the JSON API's writes, uploads, the web UI's
/// saves, git's revert and the trash's restore all resolve their paths through
/// `resolveForWriting`, which asks these before writing. A locked resource answers 423 unless
/// the request submits the lock's token, in an `If: (<token>)` header as WebDAV clients do, or
/// in `Lock-Token: <token>`.
struct WriteLocks: Sendable {
    /// The server's live locks as the request began.
    let locks: DAVLocks
    /// The tokens the request submitted.
    let tokens: Set<String>

    /// Refuses a write at `path` (a resolved path below the root) that a lock protects and whose
    /// token the request did not submit: the resource itself, a new or removed name in a locked
    /// folder, and, for a whole folder, any lock below it.
    func check(_ path: String) throws(APIError) {
        let held = locks.protecting(path, changesMembership: true, includesDescendants: true)
        if let lock = held.first(where: { !tokens.contains($0.token) }) {
            throw APIError(
                .init(code: 423, reasonPhrase: "Locked"),
                "Locked by \(lock.ownerName ?? "a WebDAV client") (WebDAV)", code: .locked)
        }
    }
}

/// Gives each write outside `/dav/` the server's WebDAV locks and the tokens it submitted (``WriteLocks``).
struct WriteLocksMiddleware: RouterMiddleware {
    typealias Context = FileServerContext

    let table: DAVLockTable

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // WebDAV's own methods check their locks by RFC 4918's finer rules (shared locks, If's
        // tagged lists); every other door checks them here.
        guard !DAVPath.isDAV(request.uri.path), request.method != .get, request.method != .head else {
            return try await next(request, context)
        }
        var tokens = Set<String>()
        if let header = request.headers[.davIf], let parsed = DAVIfHeader(header) {
            tokens.formUnion(parsed.submittedTokens)
        }
        if let header = request.headers[.lockToken]?.trimmingSpaces() {
            tokens.insert(
                header.hasPrefix("<") && header.hasSuffix(">")
                    ? String(header.dropFirst().dropLast()) : header)
        }
        let live: DAVLocks
        do {
            live = try await table.snapshot()
        } catch {
            // A write whose locks cannot be known waits, rather than risk a WebDAV client's work.
            throw APIError.state(error, "The WebDAV locks cannot be checked")
        }
        var locked = context
        locked.writeLocks = WriteLocks(locks: live, tokens: tokens)
        return try await next(request, locked)
    }
}
