/// How far a read goes below the folder it starts at.
public enum ReadDepth: Sendable, Hashable {
    /// The folder's own contents, one level.
    case shallow
    /// The whole tree (never through symlinked folders, never into packages, never in a loop).
    case deep
    /// At most this many levels; `levels(1)` is ``shallow``.
    case levels(Int)

    var maximumLevels: Int {
        switch self {
        case .shallow: return 1
        case .deep: return .max
        case .levels(let count): return max(0, count)
        }
    }
}
