/// The answer to an upload (`PUT /api/file`), and to `GET /api/upload` for a resumable one.
public struct UploadResponse: Codable, Sendable, Hashable {
    /// Always `true`.
    public var ok: Bool
    /// Where the file is (or will be), relative to the served root; with `onConflict=rename`,
    /// the free name that was taken.
    public var path: String
    /// The file's full size.
    public var size: Int64
    /// The bytes the server holds so far.
    public var received: Int64
    /// Whether the file is in place (`false` while a resumable upload waits for more).
    public var complete: Bool

    /// Makes the answer.
    public init(ok: Bool = true, path: String, size: Int64, received: Int64, complete: Bool? = nil) {
        self.ok = ok
        self.path = path
        self.size = size
        self.received = received
        self.complete = complete ?? (received == size)
    }
}
