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
public struct FileTreeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is, stable enough to switch on.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, such as `"notFound"`.
        public let rawValue: String
        /// Makes a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// Nothing exists at the path.
        public static let notFound = Code(rawValue: "notFound")
        /// The system refused access.
        public static let permissionDenied = Code(rawValue: "permissionDenied")
        /// A folder was expected.
        public static let notADirectory = Code(rawValue: "notADirectory")
        /// A file was expected, but the path is a folder.
        public static let isADirectory = Code(rawValue: "isADirectory")
        /// The destination exists and FileTree never replaces it unless asked.
        public static let alreadyExists = Code(rawValue: "alreadyExists")
        /// The name is not a single valid path component.
        public static let invalidName = Code(rawValue: "invalidName")
        /// A folder cannot be moved or copied into itself.
        public static let intoItself = Code(rawValue: "intoItself")
        /// The path has too many symbolic links (a loop) or is too long.
        public static let symlinkLoop = Code(rawValue: "symlinkLoop")
        /// The process ran out of file descriptors.
        public static let tooManyOpenFiles = Code(rawValue: "tooManyOpenFiles")
        /// The disk is full or a quota ran out.
        public static let noSpace = Code(rawValue: "noSpace")
        /// An argument is not acceptable, such as a content type whose parent is unknown.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// The system cannot do this operation here.
        public static let unsupported = Code(rawValue: "unsupported")
        /// A read or write failed.
        public static let ioError = Code(rawValue: "ioError")
        /// The task that asked for the work was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// The path leads out of a ``ContainedRoot`` (a `..` or a symlink that points outside).
        public static let outsideRoot = Code(rawValue: "outsideRoot")
        /// Any other failure; `errno` says which.
        public static let other = Code(rawValue: "other")
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

    /// The code, the message and the path in one line.
    public var description: String {
        var text = "\(code): \(message)"
        if let path { text += " (\(path))" }
        return text
    }
}
