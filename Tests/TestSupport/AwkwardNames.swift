/// Names that break careless code: spaces, both Unicode normal forms, URL-special characters, a
/// newline, the longest name a Linux file system allows, and more.
public enum AwkwardNames {
    /// "with space.txt".
    public static let space = "with space.txt"
    /// "café" in NFC (one scalar for é).
    public static let unicodeNFC = "caf\u{E9} composed.txt"
    /// "café" in NFD (e + combining acute), a different name on Linux.
    public static let unicodeNFD = "cafe\u{301} decomposed.txt"
    /// A `#`, which ends a URL path.
    public static let hash = "notes #1.md"
    /// A `%`, which starts a percent-escape.
    public static let percent = "100% done.txt"
    /// A `?`, which starts a URL query.
    public static let question = "why?.txt"
    /// A newline inside the name.
    public static let newline = "line\nbreak.txt"
    /// Exactly 255 bytes, the NAME_MAX of Linux file systems.
    public static let longest = String(repeating: "l", count: 251) + ".txt"
    /// Emoji, four UTF-8 bytes a character.
    public static let emoji = "photos 📷.jpg"
    /// A name that looks like a traversal but is one ordinary component.
    public static let dots = "..hidden-looking..txt"

    /// Every awkward file name above.
    public static let all: [String] = [
        space, unicodeNFC, unicodeNFD, hash, percent, question, newline, longest, emoji, dots,
    ]
}
