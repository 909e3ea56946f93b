#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The answer to a save: the file's new `modified` and `size`, the bases of the next save.
public struct SaveResponse: Codable, Sendable, Hashable {
    /// Always `true`.
    public var ok: Bool
    /// The file's modification date after the save.
    public var modified: Date
    /// Its size after the save.
    public var size: Int64

    /// Makes a save answer.
    public init(ok: Bool = true, modified: Date, size: Int64) {
        self.ok = ok
        self.modified = modified
        self.size = size
    }
}
