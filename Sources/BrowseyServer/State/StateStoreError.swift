/// Why a ``StateStore`` did not do what it was asked: for the log, never word for word in an
/// answer.
public struct StateStoreError: Error, Sendable, CustomStringConvertible {
    /// Whether asking again later may work (the database is unreachable or restarting), rather
    /// than a refusal that would repeat (a full disk, a damaged file).
    public let isTransient: Bool
    /// What the database said.
    public let message: String

    /// The database cannot be reached now: answered 503 `stateUnavailable` with `Retry-After`.
    public static func unavailable(_ message: String) -> Self { Self(isTransient: true, message: message) }
    /// The database refused the change: answered 500.
    public static func refused(_ message: String) -> Self { Self(isTransient: false, message: message) }

    /// What the database said.
    public var description: String { message }
}
