/// How far a download has come.
public struct DownloadProgress: Sendable, Hashable {
    /// Bytes in the local file so far (a resumed download starts above 0).
    public var received: Int64
    /// The file's size, when the server said it.
    public var total: Int64?

    /// Describes a point of a download.
    public init(received: Int64, total: Int64?) {
        self.received = received
        self.total = total
    }

    /// From 0 to 1, when the total is known.
    public var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return Double(received) / Double(total)
    }
}
