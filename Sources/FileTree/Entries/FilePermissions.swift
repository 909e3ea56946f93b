/// POSIX permission bits (the low twelve bits of `st_mode`): read, write and execute for the
/// owner, the group and others, plus set-user-ID, set-group-ID and sticky.
public struct FilePermissions: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits, as `chmod` takes them (`0o644`).
    public let rawValue: UInt16
    /// Makes permissions from `chmod`-style bits; bits above `0o7777` are dropped.
    public init(rawValue: UInt16) { self.rawValue = rawValue & 0o7777 }

    /// The owner may read.
    public static let ownerRead = FilePermissions(rawValue: 0o400)
    /// The owner may write.
    public static let ownerWrite = FilePermissions(rawValue: 0o200)
    /// The owner may execute (or search a folder).
    public static let ownerExecute = FilePermissions(rawValue: 0o100)
    /// The group may read.
    public static let groupRead = FilePermissions(rawValue: 0o040)
    /// The group may write.
    public static let groupWrite = FilePermissions(rawValue: 0o020)
    /// The group may execute.
    public static let groupExecute = FilePermissions(rawValue: 0o010)
    /// Others may read.
    public static let othersRead = FilePermissions(rawValue: 0o004)
    /// Others may write.
    public static let othersWrite = FilePermissions(rawValue: 0o002)
    /// Others may execute.
    public static let othersExecute = FilePermissions(rawValue: 0o001)
    /// Set user ID on execution.
    public static let setUserID = FilePermissions(rawValue: 0o4000)
    /// Set group ID on execution.
    public static let setGroupID = FilePermissions(rawValue: 0o2000)
    /// Sticky bit: in a folder, only owners may delete their files.
    public static let sticky = FilePermissions(rawValue: 0o1000)

    /// `ls -l` style, such as `rwxr-xr-x`.
    public var description: String {
        let letters: [(FilePermissions, Character)] = [
            (.ownerRead, "r"), (.ownerWrite, "w"), (.ownerExecute, "x"),
            (.groupRead, "r"), (.groupWrite, "w"), (.groupExecute, "x"),
            (.othersRead, "r"), (.othersWrite, "w"), (.othersExecute, "x"),
        ]
        var text = String(letters.map { contains($0.0) ? $0.1 : "-" })
        func mark(_ index: Int, _ special: FilePermissions, _ set: Character, _ unset: Character) {
            guard contains(special) else { return }
            let position = text.index(text.startIndex, offsetBy: index)
            text.replaceSubrange(position...position, with: String(text[position] == "x" ? set : unset))
        }
        mark(2, .setUserID, "s", "S")
        mark(5, .setGroupID, "s", "S")
        mark(8, .sticky, "t", "T")
        return text
    }
}
