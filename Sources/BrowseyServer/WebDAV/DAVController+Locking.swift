import FileTree
import Hummingbird

extension DAVController {
    /// `LOCK`: a new write lock (exclusive or shared, depth 0 or infinity, the timeout asked
    /// for up to an hour, an owner of at most 4 KiB: 413 beyond; a holder's 257th lock is 423
    /// and the table's 4,097th 503, both `tooManyLocks`), or, with no body, a refresh of the lock whose token the `If` header
    /// names. A lock on a name where nothing is makes an empty file (201), as RFC 4918 asks.
    /// A read-only server grants none (403): a client then knows it cannot write.
    func lock(_ request: Request, context: FileServerContext, path: String) async throws -> Response {
        try requireWritable(request, context, needsJSON: false)
        let rules = try context.access.rules()
        let seconds = Self.timeout(request.headers[.timeout])
        guard let body = try await Self.xmlBody(request) else {
            return try await refresh(request, rules: rules, path: path, seconds: seconds)
        }
        guard body.name == .dav("lockinfo"), let scope = body.child(.dav("lockscope"))?.elements.first?.name,
            scope == .dav("exclusive") || scope == .dav("shared")
        else {
            throw APIError(.badRequest, "A LOCK body is a DAV:lockinfo with a lockscope", code: .invalidBody)
        }
        if let type = body.child(.dav("locktype"))?.elements.first?.name, type != .dav("write") {
            throw APIError(.badRequest, "Only write locks exist", code: .invalidBody)
        }
        let depth = request.headers[.depth]?.trimmingSpaces().lowercased() ?? "infinity"
        guard depth == "0" || depth == "infinity" else {
            throw APIError(.badRequest, "A lock's depth is 0 or infinity", code: .invalidBody)
        }
        var relative: String
        var created = false
        if !rules.showsHidden, Self.isFinderMetadata(FileName.lastComponent(of: path)) {
            // Finder locks its `._` files before writing them: the lock is granted, nothing is made.
            relative = Paths.join(
                try resolveForWriting(Paths.parent(of: path), context, notFound: "Not found").relative,
                FileName.lastComponent(of: path))
        } else {
            let target = try resolveForWriting(path, context, notFound: "Not found")
            relative = target.relative
            let (folder, name) = try parentFolder(target, rules: rules)
            if !folder.contains(name) {
                try await checkLocks(request, rules: rules, path: relative, changesMembership: true)
                do throws(FileTreeError) {
                    let writer = try AtomicFileWriter(named: name, in: folder)
                    _ = try writer.commit(replacing: false)
                    created = true
                } catch {
                    // Made by someone else meanwhile: the lock is on it now.
                    if error.code != .alreadyExists { throw APIError.fromWrite(error) }
                }
            }
        }
        let owner = body.child(.dav("owner"))?.innerXML ?? ""
        guard owner.utf8.count <= DAVLockTable.maximumOwnerBytes else {
            throw APIError(
                .contentTooLarge, "A lock's owner is at most \(DAVLockTable.maximumOwnerBytes / 1024) KiB",
                code: .tooLarge)
        }
        var lock = DAVLock(
            token: DAVLock.newToken(), root: relative, coversDescendants: depth == "infinity",
            isExclusive: scope == .dav("exclusive"), owner: owner,
            seconds: seconds, expires: DAVLockTable.now() + Int64(seconds) * 1000)
        lock.holder =
            context.identity.user.map { "user:" + $0 } ?? "address:" + context.clientAddress
        do throws(DAVLockTable.Refusal) {
            try await locks.grant(lock)
        } catch {
            switch error {
            case .unavailable(let failure):
                throw APIError.state(failure, "The lock was not taken")
            case .tooManyForHolder:
                throw APIError(
                    .init(code: 423, reasonPhrase: "Locked"),
                    "Too many locks: \(locks.limits.perHolder) held already; unlock some first",
                    code: .tooManyLocks)
            case .full:
                throw APIError(
                    .serviceUnavailable,
                    "Too many locks on this server (\(locks.limits.total)); try again later",
                    code: .tooManyLocks, headers: [.retryAfter: "60"])
            case .conflict, .unknownToken:
                throw Self.locked(lock)
            }
        }
        return Self.xml(
            created ? .created : .ok, Self.lockDiscovery(lock), headers: [.lockToken: "<\(lock.token)>"])
    }

    /// A LOCK without a body: the lock whose token the `If` header names gets a new timeout.
    private func refresh(
        _ request: Request, rules: SafePath, path: String, seconds: Int
    ) async throws(APIError) -> Response {
        guard let header = request.headers[.davIf], let parsed = DAVIfHeader(header) else {
            throw APIError(.badRequest, "A lock refresh names its token in an If header", code: .invalidBody)
        }
        let relative = (try? rules.lexical(path))?.relative ?? path
        for token in parsed.submittedTokens {
            if let lock = try? await locks.refresh(token: token, on: relative, seconds: seconds) {
                return Self.xml(.ok, Self.lockDiscovery(lock))
            }
        }
        throw APIError(.preconditionFailed, "No such lock on this resource", code: .conflict)
    }

    /// `UNLOCK` with the `Lock-Token` of a lock on the resource: 204; any other token 409.
    func unlock(
        _ request: Request, context: FileServerContext, path: String
    ) async throws(APIError) -> Response {
        try requireWritable(request, context, needsJSON: false)
        let rules = try context.access.rules()
        guard let header = request.headers[.lockToken]?.trimmingSpaces(), header.hasPrefix("<"),
            header.hasSuffix(">")
        else {
            throw APIError(.badRequest, "Lock-Token required", code: .invalidBody)
        }
        let relative = (try? rules.lexical(path))?.relative ?? path
        do throws(DAVLockTable.Refusal) {
            try await locks.release(token: String(header.dropFirst().dropLast()), on: relative)
        } catch {
            if case .unavailable(let failure) = error {
                throw APIError.state(failure, "The lock was not released")
            }
            throw APIError(.conflict, "No such lock on this resource", code: .conflict)
        }
        return Response(status: .noContent)
    }

    /// The LOCK answer's body.
    static func lockDiscovery(_ lock: DAVLock) -> String {
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:prop xmlns:D=\"DAV:\"><D:lockdiscovery>"
            + lock.activeLockXML + "</D:lockdiscovery></D:prop>\n"
    }

    /// The seconds a `Timeout` header asks for (`Second-N` or `Infinite`, the first that is
    /// understood), bounded by ``DAVLockTable/maximumSeconds``.
    static func timeout(_ header: String?) -> Int {
        guard let header else { return DAVLockTable.defaultSeconds }
        for choice in header.split(separator: ",") {
            let text = choice.trimmingSpaces()
            if text.lowercased() == "infinite" { return DAVLockTable.maximumSeconds }
            if text.lowercased().hasPrefix("second-"), let seconds = Int(text.dropFirst(7)), seconds > 0 {
                return min(seconds, DAVLockTable.maximumSeconds)
            }
        }
        return DAVLockTable.defaultSeconds
    }
}
