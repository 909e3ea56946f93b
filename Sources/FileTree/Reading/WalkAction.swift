/// What a ``DirectoryReader/walk(at:depth:extraAttributes:visit:)`` visitor wants next.
public enum WalkAction: Sendable, Hashable {
    /// Go on, into this entry's folder if it is one.
    case `continue`
    /// Go on, but not into this folder.
    case skipChildren
    /// End the walk now.
    case stop
}
