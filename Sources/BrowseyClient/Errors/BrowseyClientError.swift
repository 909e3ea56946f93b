/// The one error of the BrowseyClient module: talking to a Browsey server (unreachable, HTTP status with the server's message, decoding).
///
/// It carries a stable `code` to switch on, a `message` for people, and the underlying error
/// that caused it, when there is one.
public struct BrowseyClientError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Makes a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The server could not be reached (no route, refused, name not found, TLS failure).
        public static let unreachable = Code(rawValue: "unreachable")
        /// No answer in time.
        public static let timedOut = Code(rawValue: "timedOut")
        /// The request was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// The server wants a token, or refused the one given (401).
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// The file changed on the server since it was read (409 on a save), or the name exists.
        public static let conflict = Code(rawValue: "conflict")
        /// Any other HTTP error status; ``BrowseyClientError/status`` and the server's message say which.
        public static let httpStatus = Code(rawValue: "httpStatus")
        /// The answer was not what the contract says.
        public static let decoding = Code(rawValue: "decoding")
        /// A host, port, URL or path that cannot name a server or a file.
        public static let invalidInput = Code(rawValue: "invalidInput")
        /// A local file could not be read or written.
        public static let localFile = Code(rawValue: "localFile")
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for people.
    public var message: String
    /// The error that caused this one, if any.
    public var underlying: (any Error & Sendable)?
    /// The HTTP status, when the server answered with an error.
    public var status: Int?

    /// Makes an error.
    public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The code and the message, then the cause.
    public var description: String {
        var text = "\(code): \(message)"
        if let underlying { text += " (\(underlying))" }
        return text
    }
}
