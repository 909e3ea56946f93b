/// The answer to `POST /api/upload` (`multipart/form-data`, several files as a browser sends
/// them): one entry per file put in place, one error per file refused.
public struct UploadBatchResponse: Codable, Sendable, Hashable {
    /// Whether every file was put in place.
    public var ok: Bool
    /// The files in place, in the order they came.
    public var files: [UploadResponse]
    /// The files refused (a taken name without `overwrite=1` or `onConflict=rename`, an invalid
    /// name), each with its `path`.
    public var errors: [ErrorResponse]

    /// Makes the answer.
    public init(files: [UploadResponse], errors: [ErrorResponse]) {
        self.ok = errors.isEmpty
        self.files = files
        self.errors = errors
    }
}
