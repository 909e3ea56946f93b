public import ErrorModel

/// The one error of the QRCode module: encoding text as a QR code.
///
/// It carries a `code` from a closed set to switch on, a `message` for people, and the error
/// that caused it, when there is one (see `CodedError`).
public struct QRCodeError: CodedError {
    /// What kind of failure this is.
    ///
    /// A closed set: compare or switch on the static members; a new code is a new case of
    /// `Wrapped`. The ``description`` is the code's stable name, such as `"tooLong"`.
    public struct Code: ErrorCode {
        /// The input is longer than the largest supported version holds.
        public static let tooLong = Code(.tooLong)

        /// The code's stable name.
        public var description: String { wrapped.rawValue }
        /// Every code, in the order they are declared.
        public static var allCases: [Code] { Wrapped.allCases.map(Code.init) }

        private enum Wrapped: String, CaseIterable {
            case tooLong
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
