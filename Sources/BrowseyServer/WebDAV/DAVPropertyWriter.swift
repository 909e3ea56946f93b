import FileTree
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes the `<D:response>` of one resource in a multistatus: the live properties the server
/// computes from the file's status, the dead ones from ``DAVDeadProperties``, each requested
/// name found (200) or not (404).
///
/// It writes bytes straight into the answer's buffer: a PROPFIND of a folder of 10,000 files
/// writes some 80,000 properties, and building strings for each was most of its time. What
/// repeats across a folder (dates, content types) is formatted once per answer.
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

    /// One name of a `prop` request, resolved once.
    private enum Asked: Sendable {
        case live(DAVLiveProperty)
        case dead(DAVName)
    }

    let request: Request
    private let asked: [Asked]
    /// The locks as they stood when the answer began.
    private let locks: [DAVLock]
    /// The served file system's figures, read once per PROPFIND when a quota is asked.
    let quota: (available: Int64, used: Int64)?
    /// Values already written in this answer, by what they are made of.
    private var httpDates: [Int64: String] = [:]
    private var isoDates: [Int64: String] = [:]
    private var mimeTypes: [Substring: String] = [:]

    init(request: Request, locks: DAVLocks, quota: (available: Int64, used: Int64)?) {
        self.request = request
        if case .some(let names) = request {
            asked = names.map { name in DAVLiveProperty(name).map(Asked.live) ?? .dead(name) }
        } else {
            asked = []
        }
        self.locks = locks.all
        self.quota = quota
    }

    /// The live properties this server computes.
    static let liveNames: [DAVName] = DAVLiveProperty.allCases.map(\.name)

    /// Names that are protected: a PROPPATCH may not set or remove them.
    static let protectedNames = Set(liveNames)

    /// Whether the request asks for a quota (so the caller reads the file system's figures).
    var needsQuota: Bool {
        asked.contains {
            if case .live(let property) = $0 {
                return property == .quotaAvailableBytes || property == .quotaUsedBytes
            }
            return false
        }
    }

    /// The multistatus's opening.
    static let header =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<D:multistatus xmlns:D=\"DAV:\">"
    /// Its end.
    static let footer = "</D:multistatus>\n"

    private static let supportedLock: StaticString = """
        <D:supportedlock>\
        <D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>\
        <D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>\
        </D:supportedlock>
        """

    /// Whether an answer reads dead properties (so a caller can read them ahead).
    var readsDeadProperties: Bool {
        switch request {
        case .all, .names: true
        case .some: asked.contains { if case .dead = $0 { true } else { false } }
        }
    }

    /// Appends the `<D:response>` for `resource` to `output`; `dead` is its dead properties when
    /// the caller read them already.
    mutating func write(
        _ resource: DAVResource, dead known: [DAVName: String]?, into output: inout ByteBuffer
    ) {
        func deadProperties() -> [DAVName: String] { known ?? resource.deadProperties?() ?? [:] }
        output.writeStaticString("<D:response><D:href>")
        DAVPath.writeHref(resource.path, isFolder: resource.isFolder, into: &output)
        output.writeStaticString("</D:href>")
        switch request {
        case .names:
            output.writeStaticString("<D:propstat><D:prop>")
            for property in DAVLiveProperty.allCases where has(property, resource) {
                output.writeString(DAVXMLWriter.emptyElement(property.name))
            }
            for name in deadProperties().keys {
                output.writeString(DAVXMLWriter.emptyElement(name))
            }
            output.writeStaticString("</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>")
        case .all:
            output.writeStaticString("<D:propstat><D:prop>")
            for property in DAVLiveProperty.allProp { _ = write(property, resource, into: &output) }
            for (name, value) in deadProperties() {
                output.writeString(DAVXMLWriter.element(name, innerXML: value))
            }
            output.writeStaticString("</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>")
        case .some:
            let start = output.writerIndex
            output.writeStaticString("<D:propstat><D:prop>")
            var found = false
            var missing: [DAVName] = []
            var dead: [DAVName: String]?
            for item in asked {
                switch item {
                case .live(let property):
                    if write(property, resource, into: &output) {
                        found = true
                    } else {
                        missing.append(property.name)
                    }
                case .dead(let name):
                    if dead == nil { dead = deadProperties() }
                    if let value = dead?[name] {
                        output.writeString(DAVXMLWriter.element(name, innerXML: value))
                        found = true
                    } else {
                        missing.append(name)
                    }
                }
            }
            if found || missing.isEmpty {
                output.writeStaticString("</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>")
            } else {
                output.moveWriterIndex(to: start)
            }
            if !missing.isEmpty {
                output.writeStaticString("<D:propstat><D:prop>")
                for name in missing { output.writeString(DAVXMLWriter.emptyElement(name)) }
                output.writeStaticString("</D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>")
            }
        }
        output.writeStaticString("</D:response>")
    }

    /// Whether `resource` has `property` (what `propname` lists).
    private func has(_ property: DAVLiveProperty, _ resource: DAVResource) -> Bool {
        switch property {
        case .contentLength, .etag, .contentType: !resource.isFolder
        case .quotaAvailableBytes, .quotaUsedBytes: quota != nil
        default: true
        }
    }

    /// Writes `property` of `resource` as an element; `false`, writing nothing, when it has none.
    private mutating func write(
        _ property: DAVLiveProperty, _ resource: DAVResource, into output: inout ByteBuffer
    ) -> Bool {
        switch property {
        case .resourceType:
            if resource.isFolder {
                output.writeStaticString("<D:resourcetype><D:collection/></D:resourcetype>")
            } else {
                output.writeStaticString("<D:resourcetype/>")
            }
        case .contentLength:
            guard !resource.isFolder else { return false }
            output.writeStaticString("<D:getcontentlength>")
            output.writeString(String(resource.status.size))
            output.writeStaticString("</D:getcontentlength>")
        case .lastModified:
            let seconds = resource.status.modified.seconds
            output.writeStaticString("<D:getlastmodified>")
            if let known = httpDates[seconds] {
                output.writeString(known)
            } else {
                let date = HTTPValidators.httpDate(seconds: seconds)
                httpDates[seconds] = date
                output.writeString(date)
            }
            output.writeStaticString("</D:getlastmodified>")
        case .etag:
            guard !resource.isFolder else { return false }
            output.writeStaticString("<D:getetag>")
            HTTPValidators.writeETag(resource.status, quote: "&quot;", into: &output)
            output.writeStaticString("</D:getetag>")
        case .contentType:
            guard !resource.isFolder else { return false }
            output.writeStaticString("<D:getcontenttype>")
            output.writeString(contentType(of: resource.path))
            output.writeStaticString("</D:getcontenttype>")
        case .creationDate:
            let seconds = (resource.status.created ?? resource.status.modified).seconds
            output.writeStaticString("<D:creationdate>")
            if let known = isoDates[seconds] {
                output.writeString(known)
            } else {
                let date = Self.iso8601(seconds)
                isoDates[seconds] = date
                output.writeString(date)
            }
            output.writeStaticString("</D:creationdate>")
        case .displayName:
            output.writeStaticString("<D:displayname>")
            if resource.path != "/" { Self.writeEscaped(Self.name(of: resource.path), into: &output) }
            output.writeStaticString("</D:displayname>")
        case .supportedLock:
            output.writeStaticString(Self.supportedLock)
        case .lockDiscovery:
            let covering = locks.isEmpty ? [] : locks.filter { $0.covers(resource.path) }
            if covering.isEmpty {
                output.writeStaticString("<D:lockdiscovery/>")
            } else {
                output.writeStaticString("<D:lockdiscovery>")
                for lock in covering { output.writeString(lock.activeLockXML) }
                output.writeStaticString("</D:lockdiscovery>")
            }
        case .quotaAvailableBytes:
            guard let quota else { return false }
            output.writeStaticString("<D:quota-available-bytes>")
            output.writeString(String(quota.available))
            output.writeStaticString("</D:quota-available-bytes>")
        case .quotaUsedBytes:
            guard let quota else { return false }
            output.writeStaticString("<D:quota-used-bytes>")
            output.writeString(String(quota.used))
            output.writeStaticString("</D:quota-used-bytes>")
        }
        return true
    }

    /// The content type of the file at `path`, escaped, by extension (the registry's own key;
    /// a name without one is looked up whole).
    private mutating func contentType(of path: String) -> String {
        let name = Self.name(of: path)
        let key = name.utf8.lastIndex(of: UInt8(ascii: ".")).map { name[$0...] } ?? Substring("/" + name)
        if let known = mimeTypes[key] { return known }
        let type = ContentTypeRegistry.standard.type(forFileName: String(name))
        let mime = DAVXMLWriter.escape(type.preferredMIMEType ?? "application/octet-stream")
        mimeTypes[key] = mime
        return mime
    }

    /// The last component of a path below the root, without copying it.
    private static func name(of path: String) -> Substring {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path[...] }
        return path[path.utf8.index(after: slash)...]
    }

    /// `text` escaped for an element's content, appended to `output`.
    private static func writeEscaped(_ text: some StringProtocol, into output: inout ByteBuffer) {
        if DAVXMLWriter.needsEscaping(text) {
            output.writeString(DAVXMLWriter.escape(text))
        } else {
            output.writeBytes(text.utf8)
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
