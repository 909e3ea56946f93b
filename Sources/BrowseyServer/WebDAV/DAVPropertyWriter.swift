import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes the `<D:response>` of one resource in a multistatus: the live properties the server
/// computes from the file's status, the dead ones from ``DAVDeadProperties``, each requested
/// name found (200) or not (404).
struct DAVPropertyWriter: Sendable {
    /// What a PROPFIND asks for.
    enum Request: Sendable {
        /// Every live property (but the quotas, RFC 4331) and every dead one.
        case all
        /// The names only.
        case names
        /// These properties.
        case some([DAVName])
    }

    let request: Request
    let locks: DAVLockTable
    /// The served file system's figures, read once per PROPFIND when a quota is asked.
    let quota: (available: Int64, used: Int64)?
    /// Values already written in this answer, by what they are made of: a folder's files share
    /// a few dates and a few extensions, and formatting them is most of an entry's cost.
    var httpDates: [Int64: String] = [:]
    var isoDates: [Int64: String] = [:]
    var mimeTypes: [Substring: String] = [:]

    /// The live properties this server computes.
    static let liveNames: [DAVName] = [
        "resourcetype", "getcontentlength", "getlastmodified", "getetag", "getcontenttype", "creationdate",
        "displayname", "supportedlock", "lockdiscovery", "quota-available-bytes", "quota-used-bytes",
    ].map(DAVName.dav)

    /// Names that are protected: a PROPPATCH may not set or remove them.
    static let protectedNames = Set(liveNames)

    /// Whether the request asks for a quota (so the caller reads the file system's figures).
    var needsQuota: Bool {
        if case .some(let names) = request {
            return names.contains(.dav("quota-available-bytes")) || names.contains(.dav("quota-used-bytes"))
        }
        return false
    }

    /// The multistatus's opening.
    static let header =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\">"
    /// Its end.
    static let footer = "</D:multistatus>\n"

    /// Appends the `<D:response>` for `resource` to `output`.
    mutating func write(_ resource: DAVResource, into output: inout String) {
        output += "<D:response><D:href>"
        output += DAVXMLWriter.escape(DAVPath.href(resource.path, isFolder: resource.isFolder))
        output += "</D:href>"
        var found = ""
        var missing = ""
        switch request {
        case .names:
            for name in Self.liveNames where live(name, resource) != nil {
                found += DAVXMLWriter.emptyElement(name)
            }
            for name in (resource.deadProperties?() ?? [:]).keys { found += DAVXMLWriter.emptyElement(name) }
        case .all:
            for name in Self.liveNames where !name.local.hasPrefix("quota") {
                if let value = live(name, resource) { found += DAVXMLWriter.element(name, innerXML: value) }
            }
            for (name, value) in resource.deadProperties?() ?? [:] {
                found += DAVXMLWriter.element(name, innerXML: value)
            }
        case .some(let names):
            var dead: [DAVName: String]?
            for name in names {
                if Self.protectedNames.contains(name) {
                    if let value = live(name, resource) {
                        found += DAVXMLWriter.element(name, innerXML: value)
                    } else {
                        missing += DAVXMLWriter.emptyElement(name)
                    }
                    continue
                }
                if dead == nil { dead = resource.deadProperties?() ?? [:] }
                if let value = dead?[name] {
                    found += DAVXMLWriter.element(name, innerXML: value)
                } else {
                    missing += DAVXMLWriter.emptyElement(name)
                }
            }
        }
        if !found.isEmpty || missing.isEmpty {
            output +=
                "<D:propstat><D:prop>" + found + "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>"
        }
        if !missing.isEmpty {
            output +=
                "<D:propstat><D:prop>" + missing
                + "</D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>"
        }
        output += "</D:response>"
    }

    /// A live property's value as XML, `nil` when the resource has none.
    mutating func live(_ name: DAVName, _ resource: DAVResource) -> String? {
        switch name.local {
        case "resourcetype": return resource.isFolder ? "<D:collection/>" : ""
        case "getcontentlength": return resource.isFolder ? nil : String(resource.status.size)
        case "getlastmodified":
            let seconds = resource.status.modified.seconds
            if let known = httpDates[seconds] { return known }
            let date = HTTPValidators.httpDate(seconds: seconds)
            httpDates[seconds] = date
            return date
        case "getetag":
            return resource.isFolder ? nil : DAVXMLWriter.escape(HTTPValidators.etag(resource.status))
        case "getcontenttype":
            guard !resource.isFolder else { return nil }
            let name = FileName.lastComponent(of: resource.path)
            // By extension (the registry's own key); a name without one is looked up whole.
            let key = name.lastIndex(of: ".").map { name[$0...] } ?? Substring("/" + name)
            if let known = mimeTypes[key] { return known }
            let type = ContentTypeRegistry.standard.type(forFileName: name)
            let mime = DAVXMLWriter.escape(type.preferredMIMEType ?? "application/octet-stream")
            mimeTypes[key] = mime
            return mime
        case "creationdate":
            let seconds = (resource.status.created ?? resource.status.modified).seconds
            if let known = isoDates[seconds] { return known }
            let date = Self.iso8601(seconds)
            isoDates[seconds] = date
            return date
        case "displayname":
            return resource.path == "/" ? "" : DAVXMLWriter.escape(FileName.lastComponent(of: resource.path))
        case "supportedlock":
            return
                "<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>"
                + "<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>"
        case "lockdiscovery":
            return locks.locks(covering: resource.path).map(\.activeLockXML).joined()
        case "quota-available-bytes": return quota.map { String($0.available) }
        case "quota-used-bytes": return quota.map { String($0.used) }
        default: return nil
        }
    }

    /// `1994-11-06T08:49:37Z`.
    static func iso8601(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// The served file system's free bytes (for this user) and used bytes.
    static func quota(of path: String) -> (available: Int64, used: Int64)? {
        var figures = statvfs()
        guard statvfs(path, &figures) == 0 else { return nil }
        let unit = Int64(figures.f_frsize)
        return (Int64(figures.f_bavail) * unit, Int64(figures.f_blocks - figures.f_bfree) * unit)
    }
}
