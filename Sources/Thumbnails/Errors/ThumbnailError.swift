public import ErrorModel

/// The one error of the Thumbnails module: a file that cannot be made into a thumbnail.
///
/// It carries a `code` from a closed set to switch on, a `message` for people, and the error
/// that caused it, when there is one (see `CodedError`).
public struct ThumbnailError: CodedError {
    /// What kind of failure this is.
    ///
    /// A closed set: compare or switch on the static members; a new code is a new case of
    /// `Wrapped`. The ``description`` is the code's stable name, such as `"notThumbnailable"`.
    public struct Code: ErrorCode {
        /// The type is not one this machine makes thumbnails of, or the bytes are damaged past
        /// decoding.
        public static let notThumbnailable = Code(.notThumbnailable)
        /// The picture's header claims more pixels than the limit (nothing was allocated for them).
        public static let imageTooLarge = Code(.imageTooLarge)
        /// The file could not be read.
        public static let unreadable = Code(.unreadable)
        /// A helper program (ffmpeg, pdftoppm) failed, ran out of time or wrote too much.
        public static let posterFailed = Code(.posterFailed)
        /// Memory for the decode could not be had.
        public static let outOfMemory = Code(.outOfMemory)

        /// The code's stable name.
        public var description: String { wrapped.rawValue }
        /// Every code, in the order they are declared.
        public static var allCases: [Code] { Wrapped.allCases.map(Code.init) }

        private enum Wrapped: String, CaseIterable {
            case notThumbnailable, imageTooLarge, unreadable, posterFailed, outOfMemory
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
