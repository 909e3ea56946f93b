/// A property the server computes from a resource (RFC 4918, 15; the quotas, RFC 4331): what a
/// PROPFIND's names resolve to once per request, so writing an entry compares no strings.
enum DAVLiveProperty: CaseIterable, Sendable {
    case resourceType, contentLength, lastModified, etag, contentType, creationDate, displayName
    case supportedLock, lockDiscovery, quotaAvailableBytes, quotaUsedBytes

    /// Its name in the `DAV:` namespace.
    var name: DAVName { .dav(local) }

    /// Its local name.
    var local: String {
        switch self {
        case .resourceType: "resourcetype"
        case .contentLength: "getcontentlength"
        case .lastModified: "getlastmodified"
        case .etag: "getetag"
        case .contentType: "getcontenttype"
        case .creationDate: "creationdate"
        case .displayName: "displayname"
        case .supportedLock: "supportedlock"
        case .lockDiscovery: "lockdiscovery"
        case .quotaAvailableBytes: "quota-available-bytes"
        case .quotaUsedBytes: "quota-used-bytes"
        }
    }

    /// The live property `name` is, if any.
    init?(_ name: DAVName) {
        guard name.isDAV, let property = Self.byLocalName[name.local] else { return nil }
        self = property
    }

    /// What `allprop` sends: every live property but the quotas, which RFC 4331 leaves out.
    static let allProp: [DAVLiveProperty] = allCases.filter {
        $0 != .quotaAvailableBytes && $0 != .quotaUsedBytes
    }

    private static let byLocalName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.local, $0) })
}
