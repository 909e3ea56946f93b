public import ErrorModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one error FileTree throws or reports: what went wrong (a ``Code`` and a message for people),
/// on which path, and the system's `errno` when a system call failed.
///
/// A deep read never throws for one bad entry: the error is attached to that entry
/// (``FileEntry/error``) or to the folder that could not be read (``FileNode/readError``), and the
/// walk goes on.
public struct FileTreeError: CodedError, Hashable {
    /// What kind of failure this is, stable enough to switch on.
    ///
    /// A closed set: compare or switch on the static members; a new code is a new case of
    /// `Wrapped`. The ``description`` is the code's stable name, such as `"notFound"`.
    public struct Code: ErrorCode {
        /// Nothing exists at the path.
        public static let notFound = Code(.notFound)
        /// The system refused access.
        public static let permissionDenied = Code(.permissionDenied)
        /// A folder was expected.
        public static let notADirectory = Code(.notADirectory)
        /// A file was expected, but the path is a folder.
        public static let isADirectory = Code(.isADirectory)
        /// The destination exists and FileTree never replaces it unless asked.
        public static let alreadyExists = Code(.alreadyExists)
        /// The name is not a single valid path component.
        public static let invalidName = Code(.invalidName)
        /// A folder cannot be moved or copied into itself.
        public static let intoItself = Code(.intoItself)
        /// The path has too many symbolic links (a loop) or is too long.
        public static let symlinkLoop = Code(.symlinkLoop)
        /// The process ran out of file descriptors.
        public static let tooManyOpenFiles = Code(.tooManyOpenFiles)
        /// The disk is full or a quota ran out.
        public static let noSpace = Code(.noSpace)
        /// An argument is not acceptable, such as a content type whose parent is unknown.
        public static let invalidArgument = Code(.invalidArgument)
        /// The system cannot do this operation here.
        public static let unsupported = Code(.unsupported)
        /// A read or write failed.
        public static let ioError = Code(.ioError)
        /// The task that asked for the work was cancelled.
        public static let cancelled = Code(.cancelled)
        /// The path leads out of a ``ContainedRoot`` (a `..` or a symlink that points outside).
        public static let outsideRoot = Code(.outsideRoot)
        /// Any other failure; `errno` says which.
        public static let other = Code(.other)

        /// The code's stable name.
        public var description: String { wrapped.rawValue }
        /// Every code, in the order they are declared.
        public static var allCases: [Code] { Wrapped.allCases.map(Code.init) }

        private enum Wrapped: String, CaseIterable {
            case notFound, permissionDenied, notADirectory, isADirectory, alreadyExists, invalidName,
                intoItself, symlinkLoop, tooManyOpenFiles, noSpace, invalidArgument, unsupported, ioError,
                cancelled, outsideRoot, other
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for people, such as `"No such file or folder"`.
    public var message: String
    /// The path the failure is about, when there is one.
    public var path: String?
    /// The system's error number, when a system call failed.
    public var errno: Int32?

    /// Makes an error from its parts.
    public init(_ code: Code, _ message: String, path: String? = nil, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.errno = errno
    }

    /// Makes the error that a failed system call's `errno` stands for.
    public init(errno number: Int32, path: String?, operation: String? = nil) {
        let code: Code
        switch number {
        case ENOENT: code = .notFound
        case EACCES, EPERM: code = .permissionDenied
        case ENOTDIR: code = .notADirectory
        case EISDIR: code = .isADirectory
        case EEXIST, ENOTEMPTY: code = .alreadyExists
        case ELOOP, ENAMETOOLONG: code = .symlinkLoop
        case EMFILE, ENFILE: code = .tooManyOpenFiles
        case ENOSPC, EDQUOT: code = .noSpace
        case ENOSYS, EXDEV, EOPNOTSUPP: code = .unsupported
        case EIO: code = .ioError
        default: code = .other
        }
        var message = String(cString: strerror(number))
        if let operation { message = "\(operation): \(message)" }
        self.init(code, message, path: path, errno: number)
    }

    /// The code, the message and the path in one line (FileTree errors wrap no other error: the
    /// ``errno`` is their cause).
    public var description: String {
        var text = "\(code): \(message)"
        if let path { text += " (\(path))" }
        return text
    }
}
