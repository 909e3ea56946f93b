/// The one error of the ServiceDiscovery module: Bonjour registration, browsing and resolution through the system's DNS-SD responder.
///
/// It carries a stable `code` to switch on, a `message` for people, and the underlying error
/// that caused it, when there is one.
public struct ServiceDiscoveryError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Makes a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The DNS-SD library is not on this machine.
        public static let libraryMissing = Code(rawValue: "libraryMissing")
        /// The library is there but no mDNS responder answers (Avahi's daemon not running).
        public static let responderUnavailable = Code(rawValue: "responderUnavailable")
        /// The responder turned the request down or failed while serving it.
        public static let failed = Code(rawValue: "failed")
        /// No answer came in time.
        public static let timedOut = Code(rawValue: "timedOut")
        /// The name is already announced by another service on the network.
        public static let nameConflict = Code(rawValue: "nameConflict")
        /// The task waiting for the answer was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// A name, type or TXT record the DNS-SD rules do not allow.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for people.
    public var message: String
    /// The error that caused this one, if any.
    public var underlying: (any Error & Sendable)?

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
