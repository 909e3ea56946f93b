/// One WebDAV write lock: who holds it (its token), what it covers, and until when.
struct DAVLock: Sendable, Equatable {
    /// `opaquelocktoken:` and a random UUID.
    let token: String
    /// The locked resource's path below the root (`/docs/a.txt`).
    let root: String
    /// Whether it covers everything below a folder (`Depth: infinity`) or the resource alone.
    let coversDescendants: Bool
    /// Exclusive, or shared with other shared locks.
    let isExclusive: Bool
    /// The client's `<D:owner>` content, kept as XML and shown back in `lockdiscovery`.
    let owner: String
    /// Who took it, as the table counts locks: `user:NAME`, or `address:IP` for someone not
    /// signed in.
    var holder: String = ""
    /// The timeout granted, in seconds.
    var seconds: Int
    /// When it lapses, in milliseconds since 1970.
    var expires: Int64

    /// A name to show for who holds it: the owner's text without its XML (an `href`'s address,
    /// a name), at most 80 characters; `nil` when the owner says nothing readable.
    var ownerName: String? {
        var text = ""
        var inTag = false
        for character in owner {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        let trimmed = text.trimmingSpaces()
        return trimmed.isEmpty ? nil : String(trimmed.prefix(80))
    }

    /// The lock as the store keeps it.
    var record: StoredLock {
        StoredLock(
            token: token, root: root, deep: coversDescendants, exclusive: isExclusive, owner: owner,
            holder: holder,
            seconds: seconds, expires: expires)
    }

    /// The lock a store kept.
    init(_ record: StoredLock) {
        self.init(
            token: record.token, root: record.root, coversDescendants: record.deep,
            isExclusive: record.exclusive,
            owner: record.owner, holder: record.holder, seconds: record.seconds, expires: record.expires)
    }

    /// A lock as ``DAVController`` grants it.
    init(
        token: String, root: String, coversDescendants: Bool, isExclusive: Bool, owner: String,
        holder: String = "", seconds: Int, expires: Int64
    ) {
        self.token = token
        self.root = root
        self.coversDescendants = coversDescendants
        self.isExclusive = isExclusive
        self.owner = owner
        self.holder = holder
        self.seconds = seconds
        self.expires = expires
    }

    /// Whether the lock applies to `path`: its root, or below it for a deep lock.
    func covers(_ path: String) -> Bool {
        path == root || (coversDescendants && DAVLock.isBelow(path, root))
    }

    /// Whether `path` lies strictly below `folder`.
    static func isBelow(_ path: String, _ folder: String) -> Bool {
        folder == "/" ? path != "/" : path.hasPrefix(folder + "/")
    }

    /// The `<D:activelock>` element for `lockdiscovery` and the LOCK answer.
    var activeLockXML: String {
        let scope = isExclusive ? "<D:exclusive/>" : "<D:shared/>"
        let depth = coversDescendants ? "infinity" : "0"
        let remaining = max(0, Int((expires - DAVLockTable.now()) / 1000))
        return "<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope>\(scope)</D:lockscope>"
            + "<D:depth>\(depth)</D:depth>" + (owner.isEmpty ? "" : "<D:owner>\(owner)</D:owner>")
            + "<D:timeout>Second-\(remaining)</D:timeout>"
            + "<D:locktoken><D:href>\(DAVXMLWriter.escape(token))</D:href></D:locktoken>"
            + "<D:lockroot><D:href>\(DAVXMLWriter.escape(DAVPath.href(root, isFolder: false)))</D:href></D:lockroot>"
            + "</D:activelock>"
    }

    /// A new token: `opaquelocktoken:` and a version-4 UUID from the system's secure random source.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map {
            String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
        }
        let groups = [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }
        return "opaquelocktoken:" + groups.joined(separator: "-")
    }
}
