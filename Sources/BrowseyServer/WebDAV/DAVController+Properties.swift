import FileTree
import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension DAVController {
    /// `PROPPATCH`: sets and removes dead properties, in the body's order and all or nothing
    /// (RFC 4918, 9.2): a protected (live) property in the request fails with 403 and every
    /// other with 424, and nothing is stored. Answers a multistatus with each property's fate.
    func proppatch(_ request: Request, context: FileServerContext, path: String) async throws -> Response {
        try requireWritable(request, context, needsJSON: false)
        let rules = try context.access.rules()
        guard let body = try await Self.xmlBody(request), body.name == .dav("propertyupdate") else {
            throw APIError(
                .badRequest, "A PROPPATCH body is a DAV:propertyupdate element", code: .invalidBody)
        }
        let target = try resolveForWriting(path, context, notFound: "Not found")
        try await checkLocks(request, rules: rules, path: target.relative)
        // Through links to a target inside the root, as a save writes.
        let (folder, name) = try writing("Not found") { () throws(FileTreeError) in
            try rules.finalTarget(forWriting: target)
        }
        let descriptor = openat(folder.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw APIError.notFound }
        defer { close(descriptor) }
        var changes: [(name: DAVName, value: String?)] = []
        for instruction in body.elements {
            let isSet = instruction.name == .dav("set")
            guard isSet || instruction.name == .dav("remove") else { continue }
            for prop in instruction.elements where prop.name == .dav("prop") {
                for property in prop.elements {
                    changes.append((property.name, isSet ? property.innerXML : nil))
                }
            }
        }
        let refused = changes.filter { DAVPropertyWriter.protectedNames.contains($0.name) }
        var failure: HTTPResponse.Status? = refused.isEmpty ? nil : .forbidden
        if failure == nil {
            var properties = DAVDeadProperties.read(descriptor: descriptor)
            for change in changes { properties[change.name] = change.value }
            do throws(FileTreeError) {
                try DAVDeadProperties.write(properties, descriptor: descriptor)
            } catch {
                failure =
                    error.code == .noSpace
                    ? .init(code: 507, reasonPhrase: "Insufficient Storage") : .forbidden
            }
        }
        var output = DAVPropertyWriter.header + "<D:response><D:href>"
        output += DAVXMLWriter.escape(
            DAVPath.href(target.relative, isFolder: folder.status(of: name)?.type == .directory))
        output += "</D:href>"
        func propstat(_ names: [DAVName], _ status: String) {
            guard !names.isEmpty else { return }
            output += "<D:propstat><D:prop>" + names.map(DAVXMLWriter.emptyElement).joined()
            output += "</D:prop><D:status>HTTP/1.1 \(status)</D:status></D:propstat>"
        }
        let names = changes.map(\.name)
        switch failure {
        case nil: propstat(names, "200 OK")
        case .some(let status) where !refused.isEmpty:
            _ = status
            propstat(refused.map(\.name), "403 Forbidden")
            propstat(names.filter { !DAVPropertyWriter.protectedNames.contains($0) }, "424 Failed Dependency")
        case .some(let status):
            propstat(names, "\(status.code) \(status.reasonPhrase)")
        }
        output += "</D:response>" + DAVPropertyWriter.footer
        return Self.xml(Self.multiStatus, output)
    }
}
