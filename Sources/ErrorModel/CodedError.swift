/// A failure every Browsey module reports the same way: a ``code`` from a closed set to switch on,
/// a ``message`` for people, and the ``cause`` underneath, when there is one.
///
/// Each module has one error type that adopts this protocol, and that type's `Code` lists every
/// failure the module can report (see ``ErrorCode``):
///
/// ```swift
/// do {
///     try FileOperations.createFile(bytes, at: path)
/// } catch {
///     switch error.code {
///     case .alreadyExists: showNameTaken()
///     default: show(error.message)
///     }
/// }
/// ```
///
/// An error that is also an HTTP answer keeps its status beside the code: the server's answer
/// adopts this protocol and Hummingbird's `HTTPResponseError`, which carries the status, so this
/// module stays free of any HTTP types.
public protocol CodedError: Error, CustomStringConvertible {
    /// The closed set of codes this error uses.
    associatedtype Code: ErrorCode

    /// What kind of failure this is.
    var code: Code { get }
    /// A sentence for people, such as `"No such file or folder"`.
    var message: String { get }
    /// The error that caused this one, if any.
    var cause: (any Error)? { get }
}

extension CodedError {
    /// No cause, for errors that never wrap another.
    public var cause: (any Error)? { nil }

    /// The code and the message, then the cause in parentheses: `notFound: No such file (…)`.
    public var description: String {
        guard let cause else { return "\(code): \(message)" }
        return "\(code): \(message) (\(cause))"
    }
}
