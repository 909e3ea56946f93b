public import ErrorModel

/// The one error of the SearchIndex module: the SQLite search index (opening, migrating, querying).
///
/// It carries a `code` from a closed set to switch on, a `message` for people, and the error
/// that caused it, when there is one (see `CodedError`).
public struct SearchIndexError: CodedError {
    /// What kind of failure this is.
    ///
    /// A closed set: compare or switch on the static members; a new code is a new case of
    /// `Wrapped`. The ``description`` is the code's stable name, such as `"cannotOpen"`.
    public struct Code: ErrorCode {
        /// The index file cannot be opened or created.
        public static let cannotOpen = Code(.cannotOpen)
        /// The index file is not a database, or a damaged one.
        public static let corrupt = Code(.corrupt)
        /// The disk is full or failing.
        public static let storage = Code(.storage)
        /// A statement failed.
        public static let query = Code(.query)
        /// The index file was written by a newer Browsey.
        public static let newerVersion = Code(.newerVersion)
        /// The index file has a schema too old to migrate; it is a cache, and is made anew.
        public static let olderVersion = Code(.olderVersion)
        /// A content search's pattern cannot be used (too short to narrow, or not a valid regular expression).
        public static let badPattern = Code(.badPattern)

        /// The code's stable name.
        public var description: String { wrapped.rawValue }
        /// Every code, in the order they are declared.
        public static var allCases: [Code] { Wrapped.allCases.map(Code.init) }

        private enum Wrapped: String, CaseIterable {
            case cannotOpen, corrupt, storage, query, newerVersion, olderVersion, badPattern
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
}
