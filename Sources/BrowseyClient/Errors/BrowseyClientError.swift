public import ErrorModel

/// The one error of the BrowseyClient module: talking to a Browsey server (unreachable, HTTP status with the server's message, decoding).
///
/// It carries a `code` from a closed set to switch on, a `message` for people, and the error
/// that caused it, when there is one (see `CodedError`).
public struct BrowseyClientError: CodedError {
    /// What kind of failure this is.
    ///
    /// A closed set: compare or switch on the static members; a new code is a new case of
    /// `Wrapped`. The ``description`` is the code's stable name, such as `"unreachable"`.
    public struct Code: ErrorCode {
        /// The server could not be reached (no route, refused, name not found, TLS failure).
        public static let unreachable = Code(.unreachable)
        /// No answer in time.
        public static let timedOut = Code(.timedOut)
        /// The request was cancelled.
        public static let cancelled = Code(.cancelled)
        /// The server wants a token, or refused the one given (401).
        public static let unauthorized = Code(.unauthorized)
        /// The server's access-token gate wants ``Server/accessToken``, or refused the one given
        /// (401 with `WWW-Authenticate: Browsey-Access`): told apart from ``unauthorized``, the
        /// bearer token's refusal, so an app asks for the right secret.
        public static let accessToken = Code(.accessToken)
        /// The file changed on the server since it was read (409 on a save), or the name exists.
        public static let conflict = Code(.conflict)
        /// Any other HTTP error status; ``BrowseyClientError/status`` and the server's message say which.
        public static let httpStatus = Code(.httpStatus)
        /// The answer was not what the contract says.
        public static let decoding = Code(.decoding)
        /// A host, port, URL or path that cannot name a server or a file.
        public static let invalidInput = Code(.invalidInput)
        /// A local file could not be read or written.
        public static let localFile = Code(.localFile)

        /// The code's stable name.
        public var description: String { wrapped.rawValue }
        /// Every code, in the order they are declared.
        public static var allCases: [Code] { Wrapped.allCases.map(Code.init) }

        private enum Wrapped: String, CaseIterable {
            case unreachable, timedOut, cancelled, unauthorized, accessToken, conflict, httpStatus,
                decoding, invalidInput, localFile
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
    /// The HTTP status, when the server answered with an error.
    public var status: Int?

    /// Makes an error.
    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}
