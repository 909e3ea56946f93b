public import ErrorModel

/// A server that cannot start takes part in the one error model; its description stays the bare
/// message, which the command line prints after `Error:`.
extension ServerSetupError: CodedError {}

extension ServerSetupError.Code: ErrorCode {
    /// Every way a setup can fail.
    public static var allCases: [Self] { [.certificate, .key, .accounts, .identity, .database] }
}
