public import ErrorModel

/// The server's answers take part in the one error model: a closed code, a message, no cause
/// (the HTTP status rides along as Hummingbird's `HTTPResponseError` wants it).
extension APIError: CodedError {}

extension APIError.Code: ErrorCode {
    /// Every code the server can send.
    public static var allCases: [Self] { all }
}
