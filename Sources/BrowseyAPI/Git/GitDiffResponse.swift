/// The answer to `GET /api/git/diff` (this server's own, additive): one file's change, as
/// hunks of lines, either in a commit (against its first parent) or in the working tree.
public struct GitDiffResponse: Codable, Sendable, Hashable {
    /// The file's path relative to the repository's root.
    public var path: String
    /// For a rename, the path it had.
    public var originalPath: String?
    /// Whether the file is binary: then `hunks` is empty.
    public var binary: Bool
    /// Whether the diff was cut short past the server's limit: the hunks are the first part.
    public var truncated: Bool
    /// The changed regions.
    public var hunks: [GitDiffHunk]

    /// Makes the answer.
    public init(
        path: String, originalPath: String? = nil, binary: Bool = false, truncated: Bool = false,
        hunks: [GitDiffHunk] = []
    ) {
        self.path = path
        self.originalPath = originalPath
        self.binary = binary
        self.truncated = truncated
        self.hunks = hunks
    }
}

/// One region of a diff: where it starts on each side, and its lines.
public struct GitDiffHunk: Codable, Sendable, Hashable {
    /// The first line of the region in the old version (0 for an empty side).
    public var oldStart: Int
    /// How many lines of the old version it covers.
    public var oldLines: Int
    /// The first line of the region in the new version.
    public var newStart: Int
    /// How many lines of the new version it covers.
    public var newLines: Int
    /// The text after the second `@@` (git's guess at the enclosing function), `""` when none.
    public var header: String
    /// The lines.
    public var lines: [GitDiffLine]

    /// Makes a hunk.
    public init(
        oldStart: Int, oldLines: Int, newStart: Int, newLines: Int, header: String = "",
        lines: [GitDiffLine] = []
    ) {
        self.oldStart = oldStart
        self.oldLines = oldLines
        self.newStart = newStart
        self.newLines = newLines
        self.header = header
        self.lines = lines
    }
}

/// One line of a hunk.
public struct GitDiffLine: Codable, Sendable, Hashable {
    /// What the line is.
    public enum Kind: String, Codable, Sendable, Hashable {
        /// Unchanged, on both sides.
        case context
        /// Added: only in the new version.
        case added
        /// Removed: only in the old version.
        case removed
    }

    /// What the line is.
    public var kind: Kind
    /// Its number in the old version; `nil` for an added line.
    public var oldLine: Int?
    /// Its number in the new version; `nil` for a removed line.
    public var newLine: Int?
    /// The text, without the leading marker and line break.
    public var text: String
    /// Whether the file lacks a final line break after this line.
    public var noNewline: Bool?

    /// Makes a line.
    public init(kind: Kind, oldLine: Int?, newLine: Int?, text: String, noNewline: Bool? = nil) {
        self.kind = kind
        self.oldLine = oldLine
        self.newLine = newLine
        self.text = text
        self.noNewline = noNewline
    }
}
