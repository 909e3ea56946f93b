/// A share link: one file or folder, opened read-only (or, for an upload share, as a file
/// request into that folder only) by whoever holds `/s/ID`, until it expires or is revoked.
public struct Share: Sendable, Hashable {
    /// 128 bits from the system's secure generator, in hex: the link's only secret.
    public let id: String
    /// Who made it: what it opens is never more than they may do there.
    public let owner: String
    /// The item, as a path from the served root.
    public let path: String
    /// Whether it is a file request (add files, see nothing) rather than a read-only view.
    public let upload: Bool
    /// Its password's hash, when it has one (never returned by any API).
    public let password: PasswordHash?
    /// When it stops working (410 afterwards), in seconds since 1970.
    public let expires: Int64?
    /// When it was made, in seconds since 1970.
    public let created: Int64
    /// How many downloads it served.
    public var downloads: Int

    /// A fresh 128-bit id.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.encode((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Whether `text` has the shape of an id (32 lowercase hex digits).
    static func isID(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 32
            && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
