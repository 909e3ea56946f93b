public import FileTree

/// The one error of the DocumentBrowser module: the document browser and document model (scanning, naming, saving).
///
/// It carries a stable `code` to switch on, a `message` for people, and the underlying error
/// that caused it, when there is one.
public struct DocumentBrowserError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Makes a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The document, group or folder is not there (any more).
        public static let notFound = Code(rawValue: "notFound")
        /// The name is taken in that folder; nothing was replaced.
        public static let nameTaken = Code(rawValue: "nameTaken")
        /// The name is empty, holds a `/`, is `.` or `..`, or starts with a dot.
        public static let invalidName = Code(rawValue: "invalidName")
        /// The file's extension is not one the app registered.
        public static let notADocument = Code(rawValue: "notADocument")
        /// The document or its folder cannot be written.
        public static let readOnly = Code(rawValue: "readOnly")
        /// The system refused access (permissions) to read or change a file or folder.
        public static let accessDenied = Code(rawValue: "accessDenied")
        /// The file changed on disk since it was opened or last saved; it was not overwritten.
        public static let changedOnDisk = Code(rawValue: "changedOnDisk")
        /// The host's new-document action returned, but no document appeared under the name given.
        public static let notCreated = Code(rawValue: "notCreated")
        /// The document's contents could not be read into the document type, or the document type
        /// could not write itself.
        public static let unreadable = Code(rawValue: "unreadable")
        /// A file-system operation failed (see the underlying error).
        public static let fileSystem = Code(rawValue: "fileSystem")
        /// The work was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
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

    /// Wraps a file-system failure, keeping its sentence: `nameTaken` for a name in use,
    /// `notFound` for something gone, `accessDenied` for permissions, `fileSystem` otherwise.
    public init(_ error: FileTreeError, _ doing: String) {
        let code: Code
        switch error.code {
        case .alreadyExists: code = .nameTaken
        case .notFound: code = .notFound
        case .permissionDenied: code = .accessDenied
        case .invalidName: code = .invalidName
        case .cancelled: code = .cancelled
        default: code = .fileSystem
        }
        self.init(code, "\(doing) failed: \(error.message)", underlying: error)
    }

    /// The code and the message, then the cause.
    public var description: String {
        var text = "\(code): \(message)"
        if let underlying { text += " (\(underlying))" }
        return text
    }
}
