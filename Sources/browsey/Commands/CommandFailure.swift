import ErrorModel

/// A failure the CLI reports as one line, `Error: …`, with exit status 1 (no usage text: the
/// command was typed right, the world was not).
struct CommandFailure: CodedError {
    /// Why the command could not go on.
    struct Code: ErrorCode {
        /// The folder to serve cannot be read.
        static let cannotServe = Code(.cannotServe)
        /// Options that each parse but do not fit together (a trash inside the served folder).
        static let conflictingOptions = Code(.conflictingOptions)
        /// The server could not start as configured (an unreadable certificate or key).
        static let serverSetup = Code(.serverSetup)
        /// No mDNS responder to ask.
        static let discoveryUnavailable = Code(.discoveryUnavailable)
        /// The `--web-root` folder cannot be read or holds no web UI.
        static let webRootUnreadable = Code(.webRootUnreadable)
        static let accountsUnreadable = Code(.accountsUnreadable)
        /// The access token's file cannot be read, is empty, or cannot be made.
        static let accessTokenUnreadable = Code(.accessTokenUnreadable)
        /// No registered server matches what `browsey stop` was given, or one did not stop.
        static let noSuchServer = Code(.noSuchServer)

        /// The code's stable name.
        var description: String { wrapped.rawValue }
        /// Every code, in the order they are declared.
        static var allCases: [Code] { Wrapped.allCases.map(Code.init) }

        private enum Wrapped: String, CaseIterable {
            case cannotServe, conflictingOptions, serverSetup, discoveryUnavailable, webRootUnreadable
            case accountsUnreadable, accessTokenUnreadable, noSuchServer
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }
    }

    let code: Code
    let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message alone: what follows `Error: ` on the terminal.
    var description: String { message }
}
