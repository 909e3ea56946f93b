/// The answer to a write that leaves an item somewhere: rename, move, copy, mkdir, restore.
public struct ChangeResponse: Codable, Sendable, Hashable {
    /// Always `true`.
    public var ok: Bool
    /// Where the item is now, relative to the served root.
    public var newPath: String

    /// Makes the answer.
    public init(ok: Bool = true, newPath: String) {
        self.ok = ok
        self.newPath = newPath
    }
}
