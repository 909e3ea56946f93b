/// A qualified XML name as WebDAV reads it: a namespace URI and a local name (`DAV:` and
/// `getetag`). Properties, elements of request bodies and lock scopes are named this way; a
/// prefix is only how one document spelled it.
struct DAVName: Hashable, Sendable, CustomStringConvertible {
    /// The namespace URI; empty for a name in no namespace.
    let namespace: String
    /// The local name.
    let local: String

    init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    /// A name in the `DAV:` namespace.
    static func dav(_ local: String) -> DAVName { DAVName("DAV:", local) }

    var isDAV: Bool { namespace == "DAV:" }

    var description: String { "{\(namespace)}\(local)" }
}
