public import ErrorModel
public import FileTree

/// The one error of the DocumentBrowser module: the document browser and document model (scanning, naming, saving).
///
/// It carries a `code` from a closed set to switch on, a `message` for people, and the error
/// that caused it, when there is one (see `CodedError`).
public struct DocumentBrowserError: CodedError {
    /// What kind of failure this is.
    ///
    /// A closed set: compare or switch on the static members; a new code is a new case of
    /// `Wrapped`. The ``description`` is the code's stable name, such as `"notFound"`.
    public struct Code: ErrorCode {
        /// The document, group or folder is not there (any more).
        public static let notFound = Code(.notFound)
        /// The name is taken in that folder; nothing was replaced.
        public static let nameTaken = Code(.nameTaken)
        /// The name is empty, holds a `/`, is `.` or `..`, or starts with a dot.
        public static let invalidName = Code(.invalidName)
        /// The file's extension is not one the app registered.
        public static let notADocument = Code(.notADocument)
        /// The document or its folder cannot be written.
        public static let readOnly = Code(.readOnly)
        /// The system refused access (permissions) to read or change a file or folder.
        public static let accessDenied = Code(.accessDenied)
        /// The file changed on disk since it was opened or last saved; it was not overwritten.
        public static let changedOnDisk = Code(.changedOnDisk)
        /// The host's new-document action returned, but no document appeared under the name given.
        public static let notCreated = Code(.notCreated)
        /// The document's contents could not be read into the document type, or the document type
        /// could not write itself.
        public static let unreadable = Code(.unreadable)
        /// A file-system operation failed (see the underlying error).
        public static let fileSystem = Code(.fileSystem)
        /// The work was cancelled.
        public static let cancelled = Code(.cancelled)

        /// The code's stable name.
        public var description: String { wrapped.rawValue }
        /// Every code, in the order they are declared.
        public static var allCases: [Code] { Wrapped.allCases.map(Code.init) }

        private enum Wrapped: String, CaseIterable {
            case notFound, nameTaken, invalidName, notADocument, readOnly, accessDenied, changedOnDisk,
                notCreated, unreadable, fileSystem, cancelled
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
        self.init(code, "\(doing) failed: \(error.message)", cause: error)
    }
}
