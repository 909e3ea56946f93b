/// A change the sessions and shares file refused (a full disk, a locked or damaged file), with
/// SQLite's own message: for the log, never for an answer.
public struct AccountsStorageError: Error, Sendable, CustomStringConvertible {
    /// SQLite's message.
    public let message: String

    /// SQLite's message, as it said it.
    public var description: String { message }
}
