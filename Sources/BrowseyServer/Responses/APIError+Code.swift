extension APIError {
    /// The stable code an error answer carries in its body's `code` (additive to the contract's
    /// message). The set is closed: every code the server can send is one of these, each is
    /// listed in Docs/API.md (a test holds the two together), and a new one is a deliberate
    /// change here.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, CaseIterable, Sendable {
            case accessTokenInvalid, accessTokenRequired
            case alreadyExists, badFilter, basesRequired, conflict, crossSite, expired, gitMissing,
                gitTimeout,
                hiddenName, hostNotAllowed
            case internalError = "internal"
            case imageTooLarge
            case intoItself, invalidBody, invalidCommit, invalidFilePath, invalidMultipart, invalidName,
                invalidPath, invalidRange,
                invalidSize, isADirectory
            case isRoot, jsonRequired, lengthMismatch, locked, methodNotAllowed, multipartRequired,
                nestedRepository,
                noChanges, noIndex, noSpace
            case noTrash, notADirectory, notARepository, notAllowed, notEditable, notFound
            case notThumbnailable
            case notViewable, partInTheWay, pathRequired
            case permissionDenied, rangeNotSatisfiable, readOnly, signInRequired, sizeRequired, slowDown,
                stateUnavailable,
                symlinkLoop
            case tooLarge, tooManyLocks, unauthorized, wrongCredentials, wrongOffset
        }

        private let wrapped: Wrapped

        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The code as it is sent, such as `invalidPath`.
        public var description: String { wrapped.rawValue }

        /// Every code, for the test that holds them against the documentation.
        static var all: [Code] { Wrapped.allCases.map(Code.init) }

        /// 401: a request to a server with the access-token gate on, without the token.
        public static var accessTokenRequired: Self { Self(.accessTokenRequired) }
        /// 401: a request to a server with the access-token gate on, with another token.
        public static var accessTokenInvalid: Self { Self(.accessTokenInvalid) }
        /// 409: an item of that name exists (and the request did not ask to replace it).
        public static var alreadyExists: Self { Self(.alreadyExists) }
        /// 400: a search filter that makes no sense (`type`, `ext`, dates, sizes, `limit`).
        public static var badFilter: Self { Self(.badFilter) }
        /// 400: a save without `baseModified` and `baseSize` (or `If-Match`).
        public static var basesRequired: Self { Self(.basesRequired) }
        /// 409/412: the item changed since the client read it.
        public static var conflict: Self { Self(.conflict) }
        /// 403: a write sent by a page of another site.
        public static var crossSite: Self { Self(.crossSite) }
        /// 410: a share link past its expiry.
        public static var expired: Self { Self(.expired) }
        /// 501: the server has no `git` executable (the git routes only).
        public static var gitMissing: Self { Self(.gitMissing) }
        /// 504: git took longer than its time limit to answer a commit or diff request.
        public static var gitTimeout: Self { Self(.gitTimeout) }
        /// 400: a commit hash that is missing or not 7 to 64 hex digits.
        public static var invalidCommit: Self { Self(.invalidCommit) }
        /// 400: a path inside a repository that is absolute, empty or climbs out with `..`.
        public static var invalidFilePath: Self { Self(.invalidFilePath) }
        /// 409: a revert of an untracked folder that holds a git repository of its own.
        public static var nestedRepository: Self { Self(.nestedRepository) }
        /// 404: a revert of a file git reports no change for.
        public static var noChanges: Self { Self(.noChanges) }
        /// 404: a commit, diff or revert asked of a folder in no repository inside the root.
        public static var notARepository: Self { Self(.notARepository) }
        /// 400: a write that would create a hidden name on a server that hides them.
        public static var hiddenName: Self { Self(.hiddenName) }
        /// 403: a `Host` that is not the server's own name or address.
        public static var hostNotAllowed: Self { Self(.hostNotAllowed) }
        /// 500: anything unexpected (logged; the answer says nothing more).
        public static var internalError: Self { Self(.internalError) }
        /// 413: a picture whose header claims more pixels than the thumbnailer's limit.
        public static var imageTooLarge: Self { Self(.imageTooLarge) }
        /// 400: a folder moved or copied into itself.
        public static var intoItself: Self { Self(.intoItself) }
        /// 400: a write's body that is not the JSON it should be.
        public static var invalidBody: Self { Self(.invalidBody) }
        /// 400: a multipart form that cannot be read.
        public static var invalidMultipart: Self { Self(.invalidMultipart) }
        /// 400: a name that cannot be a file name.
        public static var invalidName: Self { Self(.invalidName) }
        /// 403: a path outside the root, or with `..` or NUL.
        public static var invalidPath: Self { Self(.invalidPath) }
        /// 400: a `Content-Range` that cannot be read.
        public static var invalidRange: Self { Self(.invalidRange) }
        /// 400: a thumbnail `size` that is not a positive number.
        public static var invalidSize: Self { Self(.invalidSize) }
        /// 400/409: a folder where a file is needed.
        public static var isADirectory: Self { Self(.isADirectory) }
        /// 400: a delete of the root folder.
        public static var isRoot: Self { Self(.isRoot) }
        /// 415: a write whose body is not JSON.
        public static var jsonRequired: Self { Self(.jsonRequired) }
        /// 400: a body shorter or longer than it said.
        public static var lengthMismatch: Self { Self(.lengthMismatch) }
        /// 405: a method the path does not take.
        public static var methodNotAllowed: Self { Self(.methodNotAllowed) }
        /// 415: a form upload that is not `multipart/form-data`.
        public static var multipartRequired: Self { Self(.multipartRequired) }
        /// 503: live events on a server running with `--no-index`.
        public static var noIndex: Self { Self(.noIndex) }
        /// 507: the disk is full.
        public static var noSpace: Self { Self(.noSpace) }
        /// 404: the trash asked of a server that deletes for good.
        public static var noTrash: Self { Self(.noTrash) }
        /// 400: a file where a folder is needed.
        public static var notADirectory: Self { Self(.notADirectory) }
        /// 403: a path the signed-in user sees but may not use this way (read, write or upload).
        public static var notAllowed: Self { Self(.notAllowed) }
        /// 400: a save of a file that is not text.
        public static var notEditable: Self { Self(.notEditable) }
        /// 404: nothing there (or hidden, or ignored).
        public static var notFound: Self { Self(.notFound) }
        /// 415: a file no thumbnail can be made of (its type, or damaged bytes).
        public static var notThumbnailable: Self { Self(.notThumbnailable) }
        /// 400: a file the viewer does not show.
        public static var notViewable: Self { Self(.notViewable) }
        /// 409: something else holds a resumable upload's hidden part name.
        public static var partInTheWay: Self { Self(.partInTheWay) }
        /// 400: a request without the `path` it needs.
        public static var pathRequired: Self { Self(.pathRequired) }
        /// 403: the system refused.
        public static var permissionDenied: Self { Self(.permissionDenied) }
        /// 416: a `Range` outside the file.
        public static var rangeNotSatisfiable: Self { Self(.rangeNotSatisfiable) }
        /// 403: a write on a read-only server.
        public static var readOnly: Self { Self(.readOnly) }
        /// 401: on a server with accounts, something that needs a signed-in user.
        public static var signInRequired: Self { Self(.signInRequired) }
        /// 400: a resumable upload's status asked without its `size`.
        public static var sizeRequired: Self { Self(.sizeRequired) }
        /// 429: too many failed logins from this address or for this user: wait `Retry-After` seconds.
        public static var slowDown: Self { Self(.slowDown) }
        /// 503: the server's database (its sessions, links and locks) cannot be reached now.
        public static var stateUnavailable: Self { Self(.stateUnavailable) }
        /// 400: too many symbolic links, or a path too long.
        public static var symlinkLoop: Self { Self(.symlinkLoop) }
        /// 400/413: a file too large to view or save, or a body too large.
        public static var tooLarge: Self { Self(.tooLarge) }
        /// 401: no valid token on a server started with `--auth`.
        public static var unauthorized: Self { Self(.unauthorized) }
        /// 423: a write to what a WebDAV lock protects, without the lock's token.
        public static var locked: Self { Self(.locked) }
        /// 423/503: a WebDAV LOCK past its holder's or the server's number of locks.
        public static var tooManyLocks: Self { Self(.tooManyLocks) }
        /// 401: a login whose user name or password is wrong (never says which).
        public static var wrongCredentials: Self { Self(.wrongCredentials) }
        /// 416: a resumable upload continued from another byte than the server holds.
        public static var wrongOffset: Self { Self(.wrongOffset) }
    }
}
