#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Every error answer: `{"error": "<message>"}`, optionally with a code.
public struct ErrorResponse: Codable, Sendable, Hashable {
    /// The message, exactly as the contract words it (`"Access denied: Invalid path"`).
    public var error: String
    /// A stable code (additive), such as `invalidPath`.
    public var code: String?
    /// A longer explanation (the 401 answer's `"Valid API token required"`).
    public var message: String?
    /// In a conflict (409, 412): the item's current modification date (additive).
    public var modified: Date?
    /// In a conflict: the item's current size (additive).
    public var size: Int64?
    /// In a conflict over a name: the path that is taken (additive).
    public var path: String?

    /// Makes an error answer.
    public init(
        error: String, code: String? = nil, message: String? = nil, modified: Date? = nil, size: Int64? = nil,
        path: String? = nil
    ) {
        self.error = error
        self.code = code
        self.message = message
        self.modified = modified
        self.size = size
        self.path = path
    }
}
