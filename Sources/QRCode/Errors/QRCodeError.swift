/// The one error of the QRCode module: encoding text as a QR code.
///
/// It carries a stable `code` to switch on, a `message` for people, and the underlying error
/// that caused it, when there is one.
public struct QRCodeError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Makes a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The input is longer than the largest supported version holds.
        public static let tooLong = Code(rawValue: "tooLong")
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
