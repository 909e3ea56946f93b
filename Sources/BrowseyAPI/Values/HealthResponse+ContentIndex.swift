extension HealthResponse {
    /// How far the content index is: `/api/health`'s `contentIndex`.
    public struct ContentIndex: Codable, Sendable, Hashable {
        /// `waiting` (for the name index), `building`, `ready` or `stopped`.
        public var phase: String
        /// Files read so far by the current build.
        public var filesRead: Int
        /// Files the current build reads in all (those new or changed since the last run).
        public var filesToRead: Int
        /// Files whose text is searchable.
        public var textFiles: Int
        /// The index file's size on disk, in bytes.
        public var bytesOnDisk: Int64

        /// Describes the content index.
        public init(phase: String, filesRead: Int, filesToRead: Int, textFiles: Int, bytesOnDisk: Int64) {
            self.phase = phase
            self.filesRead = filesRead
            self.filesToRead = filesToRead
            self.textFiles = textFiles
            self.bytesOnDisk = bytesOnDisk
        }
    }
}
