public import ErrorModel

/// The one error of the ServiceDiscovery module: Bonjour registration, browsing and resolution through the system's DNS-SD responder.
///
/// It carries a `code` from a closed set to switch on, a `message` for people, and the error
/// that caused it, when there is one (see `CodedError`).
public struct ServiceDiscoveryError: CodedError {
    /// What kind of failure this is.
    ///
    /// A closed set: compare or switch on the static members; a new code is a new case of
    /// `Wrapped`. The ``description`` is the code's stable name, such as `"libraryMissing"`.
    public struct Code: ErrorCode {
        /// The DNS-SD library is not on this machine.
        public static let libraryMissing = Code(.libraryMissing)
        /// The library is there but no mDNS responder answers (Avahi's daemon not running).
        public static let responderUnavailable = Code(.responderUnavailable)
        /// The responder turned the request down or failed while serving it.
        public static let failed = Code(.failed)
        /// No answer came in time.
        public static let timedOut = Code(.timedOut)
        /// The name is already announced by another service on the network.
        public static let nameConflict = Code(.nameConflict)
        /// The task waiting for the answer was cancelled.
        public static let cancelled = Code(.cancelled)
        /// A name, type or TXT record the DNS-SD rules do not allow.
        public static let invalidArgument = Code(.invalidArgument)

        /// The code's stable name.
        public var description: String { wrapped.rawValue }
        /// Every code, in the order they are declared.
        public static var allCases: [Code] { Wrapped.allCases.map(Code.init) }

        private enum Wrapped: String, CaseIterable {
            case libraryMissing, responderUnavailable, failed, timedOut, nameConflict, cancelled,
                invalidArgument
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for people.
    public var message: String
    /// The error that caused this one, if any.
    public var cause: (any Error)?

    /// Makes an error.
    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}
