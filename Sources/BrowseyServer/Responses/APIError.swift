public import BrowseyAPI
import FileTree
public import Hummingbird

/// An answer that is an error: a status, a ``Code`` from a closed set, and the contract's JSON
/// body `{"error": …, "code": …}`.
///
/// Routes throw these; Hummingbird turns them into responses. Any other error that reaches the
/// router is logged and answered with a bare 500 "Internal server error": never a stack trace,
/// never a path.
public struct APIError: HTTPResponseError, Sendable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// What went wrong, as a stable code (the body's `code`).
    public let code: Code
    /// The body.
    public let body: ErrorResponse
    /// Extra headers (the 401's `WWW-Authenticate`, the 416's `Content-Range`).
    public let headers: HTTPFields

    /// Makes an error answer.
    public init(_ status: HTTPResponse.Status, _ message: String, code: Code, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.body = ErrorResponse(error: message, code: code.description)
        self.headers = headers
    }

    /// Makes an error answer with a body of its own (a conflict's current `modified` and `size`);
    /// its `code` is `code`'s.
    public init(_ status: HTTPResponse.Status, code: Code, body: ErrorResponse, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        var body = body
        body.code = code.description
        self.body = body
        self.headers = headers
    }

    /// What went wrong, for a person: the contract's message (the body's `error`).
    public var message: String { body.error }

    /// The JSON response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = JSONBody.response(body, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    // The contract's errors, worded exactly.
    static let pathRequired = APIError(.badRequest, "Path required", code: .pathRequired)
    static let invalidPath = APIError(.forbidden, "Access denied: Invalid path", code: .invalidPath)
    static let permissionDenied = APIError(.forbidden, "Permission denied", code: .permissionDenied)
    static let internalError = APIError(.internalServerError, "Internal server error", code: .internalError)
    static let notFound = APIError(.notFound, "Not found", code: .notFound)
    static let readOnly = APIError(.forbidden, "Server is in read-only mode", code: .readOnly)
    static let notAllowed = APIError(.forbidden, "You may not do this here", code: .notAllowed)
    static let signInRequired = APIError(
        .unauthorized, "Sign in to reach this", code: .signInRequired,
        headers: [.wwwAuthenticate: "Bearer realm=\"Browsey\""])

    /// The state store did not do what a request needs: 503 `stateUnavailable` with
    /// `Retry-After` while it cannot be reached, else 500 with `message`; what the database
    /// said is in the log, not the answer.
    static func state(_ error: StateStoreError, _ message: String) -> APIError {
        guard error.isTransient else { return APIError(.internalServerError, message, code: .internalError) }
        return APIError(
            .serviceUnavailable, "\(message): the server's database cannot be reached now",
            code: .stateUnavailable,
            headers: [.retryAfter: "5"])
    }

    /// Maps a FileTree failure: missing → the route's 404 message, permission → 403, else 500.
    static func from(_ error: FileTreeError, notFound message: String) -> APIError {
        switch error.code {
        case .notFound, .notADirectory, .symlinkLoop: APIError(.notFound, message, code: .notFound)
        case .permissionDenied: .permissionDenied
        case .outsideRoot: .invalidPath
        default: .internalError
        }
    }

    /// Maps a failure to open a requested folder: a file where a folder was asked for → 400 with
    /// `notADirectory`, else as ``from(_:notFound:)``.
    static func fromFolder(
        _ error: FileTreeError, notFound: String = "Directory not found",
        notADirectory: String = "Path is not a directory"
    ) -> APIError {
        error.code == .notADirectory
            ? APIError(.badRequest, notADirectory, code: .notADirectory) : from(error, notFound: notFound)
    }

    /// Maps a failed write: a taken name → 409, a folder into itself → 400, missing → 404,
    /// permission → 403, a full disk → 507, else 500.
    static func fromWrite(_ error: FileTreeError) -> APIError {
        switch error.code {
        case .alreadyExists:
            APIError(.conflict, "An item with that name already exists", code: .alreadyExists)
        case .intoItself: APIError(.badRequest, "Cannot move or copy a folder into itself", code: .intoItself)
        case .notFound: APIError(.notFound, "File not found", code: .notFound)
        case .isADirectory: APIError(.conflict, "A folder is in the way", code: .isADirectory)
        case .outsideRoot: .invalidPath
        case .symlinkLoop:
            APIError(.badRequest, "Too many symbolic links, or a path too long", code: .symlinkLoop)
        case .notADirectory: APIError(.badRequest, "Path is not a directory", code: .notADirectory)
        case .invalidName: APIError(.badRequest, "Invalid name", code: .invalidName)
        case .permissionDenied: .permissionDenied
        case .noSpace:
            APIError(
                .init(code: 507, reasonPhrase: "Insufficient Storage"), "Not enough space on the disk",
                code: .noSpace)
        default: .internalError
        }
    }

    /// Maps a refusal of ``SafePath``.
    static func from(_ refusal: SafePath.Refusal, notFound message: String) -> APIError {
        switch refusal {
        case .invalid: .invalidPath
        case .notFound: APIError(.notFound, message, code: .notFound)
        }
    }
}
