/// Every error answer: `{"error": "<message>"}`, optionally with a code.
public struct ErrorResponse: Codable, Sendable, Hashable {
    /// The message, exactly as the contract words it (`"Access denied: Invalid path"`).
    public var error: String
    /// A stable code (additive), such as `invalidPath`.
    public var code: String?
    /// A longer explanation (the 401 answer's `"Valid API token required"`).
    public var message: String?

    /// Makes an error answer.
    public init(error: String, code: String? = nil, message: String? = nil) {
        self.error = error
        self.code = code
        self.message = message
    }
}
