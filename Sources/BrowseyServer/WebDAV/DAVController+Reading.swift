import FileTree
import Hummingbird
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension DAVController {
    /// `GET|HEAD`: a file's bytes exactly as `/api/file` sends them (ranges, validators,
    /// conditional answers); a folder sends a person who opened its address in a browser to the
    /// web UI's page of it (303: DAV clients list folders with `PROPFIND`, never `GET`).
    func get(_ request: Request, context: FileServerContext, path: String) async throws -> Response {
        let rules = try context.access.rules()
        let target = try Self.resolve(path, rules)
        // The same rights as /api/file and /api/list: a file is read, a folder seen.
        guard let status = Self.status(of: target, rules: rules) else { throw APIError.notFound }
        try context.access.check(status.type == .directory ? .see : .read, target, notFound: "Not found")
        guard status.type == .directory else {
            return try await files.send(target, request, context: context, disposition: nil)
        }
        // A folder opened in a browser: the web UI shows it (its address is the folder's path).
        var location = ""
        for component in target.relative.split(separator: "/") {
            location += "/"
            DAVPath.encode(component, into: &location)
        }
        location += "/"
        if let query = request.uri.query, !query.isEmpty { location += "?" + query }
        return Response(status: .seeOther, headers: [.location: location, .contentLength: "0"])
    }

    /// A resource's path resolved inside the root, a failure answered as DAV's 404. The right
    /// to it is checked once its type is known (a file is read, a folder seen).
    static func resolve(_ path: String, _ rules: SafePath) throws(APIError) -> SafePath.Resolved {
        do {
            return try rules.resolve(path)
        } catch {
            throw APIError.from(error, notFound: "Not found")
        }
    }

    /// `PROPFIND` with `Depth: 0` or `1`: the resource (and its members), the properties asked
    /// for, as a multistatus streamed in pieces (a folder of 10,000 entries is never held as one
    /// string). `Depth: infinity`, or none (which means infinity), is refused with the standard
    /// `propfind-finite-depth` precondition (403): a walk of a whole tree per request is what a
    /// client should not be able to ask.
    func propfind(_ request: Request, context: FileServerContext, path: String) async throws -> Response {
        let rules = try context.access.rules()
        let depth = request.headers[.depth]?.trimmingSpaces().lowercased()
        guard depth == "0" || depth == "1" else {
            return Self.xml(
                .forbidden,
                "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                    + "<D:error xmlns:D=\"DAV:\"><D:propfind-finite-depth/></D:error>\n")
        }
        let asked = try await Self.propertyRequest(Self.xmlBody(request))
        let target = try Self.resolve(path, rules)
        guard let status = Self.status(of: target, rules: rules) else { throw APIError.notFound }
        try context.access.check(.see, target, notFound: "Not found")
        let live: DAVLocks
        do {
            live = try await locks.snapshot()
        } catch {
            throw APIError.state(error, "The WebDAV locks cannot be read")
        }
        var writer = DAVPropertyWriter(request: asked, locks: live, quota: nil)
        if writer.needsQuota {
            writer = DAVPropertyWriter(
                request: asked, locks: live, quota: DAVPropertyWriter.quota(of: rules.root))
        }
        let isFolder = status.type == .directory
        let top = DAVResource(
            path: target.relative, isFolder: isFolder, status: status,
            deadProperties: Self.deadProperties(of: target, rules: rules))
        let access = context.access
        let members =
            depth == "1" && isFolder
            ? try await members(of: target, rules: rules).filter { access.maySee($0.path) } : []
        let finished = writer
        let readsDead = writer.readsDeadProperties
        let body = ResponseBody { bodyWriter in
            var encoder = finished
            var buffer = ByteBuffer(string: DAVPropertyWriter.header)
            encoder.write(top, dead: nil, into: &buffer)
            // The dead properties are a system call a member: those of the next 512 members are
            // read on the blocking pool while this part of the answer is written.
            func deadProperties(from start: Int) -> Task<[[DAVName: String]], any Error>? {
                guard readsDead, start < members.count else { return nil }
                let part = members[start..<min(members.count, start + 512)]
                return Task {
                    try await NIOThreadPool.singleton.runIfActive { part.map { $0.deadProperties?() ?? [:] } }
                }
            }
            var pending = deadProperties(from: 0)
            defer { pending?.cancel() }
            var start = 0
            repeat {
                let end = min(members.count, start + 512)
                let dead = try await pending?.value
                pending = deadProperties(from: end)
                for (offset, member) in members[start..<end].enumerated() {
                    encoder.write(member, dead: dead?[offset], into: &buffer)
                }
                if end == members.count { buffer.writeString(DAVPropertyWriter.footer) }
                try await bodyWriter.write(buffer)
                buffer = ByteBuffer()
                buffer.reserveCapacity(512 * 400)
                start = end
            } while start < members.count
            try await bodyWriter.finish(nil)
        }
        return Response(
            status: Self.multiStatus, headers: [.contentType: "application/xml; charset=utf-8"], body: body)
    }

    /// What a PROPFIND body asks for: no body or `<allprop/>` is everything, `<propname/>` the
    /// names, `<prop>` the names inside it; anything else is 400.
    static func propertyRequest(_ body: DAVXMLElement?) throws(APIError) -> DAVPropertyWriter.Request {
        guard let body else { return .all }
        guard body.name == .dav("propfind") else {
            throw APIError(.badRequest, "A PROPFIND body is a DAV:propfind element", code: .invalidBody)
        }
        if body.child(.dav("allprop")) != nil { return .all }
        if body.child(.dav("propname")) != nil { return .names }
        if let prop = body.child(.dav("prop")) { return .some(prop.elements.map(\.name)) }
        throw APIError(.badRequest, "A PROPFIND body asks for allprop, propname or prop", code: .invalidBody)
    }

    /// The members of a folder as resources, under the request's rules: hidden names only when
    /// the server shows them, ignored names never, links by their target when it may be shown
    /// (a link leading out, or broken, is left out).
    func members(of target: SafePath.Resolved, rules: SafePath) async throws -> [DAVResource] {
        try await offThread { () throws(FileTreeError) -> [DAVResource] in
            try Self.readMembers(of: target, rules: rules)
        }
    }

    /// ``members(of:rules:)``, on the calling thread.
    static func readMembers(
        of target: SafePath.Resolved, rules: SafePath
    ) throws(FileTreeError) -> [DAVResource] {
        let folder = try rules.folder(target)
        let filter = EntryFilter(includesHidden: rules.showsHidden, excludedNames: rules.ignored)
        let listing = try DirectoryReader(filter: filter).listing(in: folder)
        var resources: [DAVResource] = []
        resources.reserveCapacity(listing.items.count)
        for item in listing.items {
            let name = listing.name(of: item)
            let path = target.relative == "/" ? "/" + name : target.relative + "/" + name
            var status: FileStatus? = item.status
            var type: EntryType = item.type
            if item.type == .symlink {
                guard let entry = try? listing.entry(of: item), let link = entry.symlink,
                    rules.mayReveal(link)
                else { continue }
                if rules.allowsSymlinks {
                    guard let targetType = link.targetType else { continue }
                    (status, type) = (link.targetStatus, targetType)
                } else {
                    // What it leads to, reached again below the root held open: a link pointed
                    // out since it was read is left out, its target's details never sent.
                    guard let reached = try? rules.contained?.status(of: path) else { continue }
                    (status, type) = (reached, reached.type)
                }
            }
            guard let status, type == .directory || type == .regular else { continue }
            var dead: (@Sendable () -> [DAVName: String])?
            if item.type != .symlink {
                dead = { @Sendable in Self.deadProperties(named: name, in: folder) }
            }
            resources.append(
                DAVResource(path: path, isFolder: type == .directory, status: status, deadProperties: dead))
        }
        return resources
    }

    /// The dead properties of `name` in `folder` (never through a link).
    static func deadProperties(named name: String, in folder: OpenFolder) -> [DAVName: String] {
        DAVDeadProperties.read(named: name, in: folder.descriptor)
    }

    /// Reads the dead properties of `target` when asked.
    static func deadProperties(
        of target: SafePath.Resolved, rules: SafePath
    ) -> @Sendable () -> [DAVName: String] {
        {
            guard let descriptor = try? rules.openForReading(target) else { return [:] }
            defer { close(descriptor) }
            return DAVDeadProperties.read(descriptor: descriptor)
        }
    }
}
