/// How long the server's trash keeps what is deleted: entries older than `days` are purged, and
/// the oldest go first once the trash holds more than `maximumBytes`.
public struct TrashRetention: Codable, Sendable, Hashable {
    /// Days an entry is kept (`--trash-days`).
    public var days: Int64
    /// The most the trash holds, in bytes (`--trash-limit`).
    public var maximumBytes: Int64

    /// Describes the trash's limits.
    public init(days: Int64, maximumBytes: Int64) {
        self.days = days
        self.maximumBytes = maximumBytes
    }
}
