/// What someone may do in a folder and everything below it, as a rule of the accounts file
/// grants it (``AccessPolicy``).
///
/// The names in the file are sets of these: `read` is ``read``; `upload` is ``upload`` alone (a
/// drop box: add files, see nothing); `write` is read, upload and ``write`` (save, rename,
/// move, copy, delete, make folders); `admin` is all of them and ``admin`` (the shares of
/// others in that folder); `none` is nothing.
public struct Rights: OptionSet, Sendable, Hashable {
    /// The rights as bits.
    public let rawValue: UInt8

    /// Makes rights from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// List folders, read files, search, stream events, download archives.
    public static let read = Rights(rawValue: 1 << 0)
    /// Change and delete what is there, make folders.
    public static let write = Rights(rawValue: 1 << 1)
    /// Add new files (never replacing one that is there unless ``write`` is granted too).
    public static let upload = Rights(rawValue: 1 << 2)
    /// Manage what others did here: see and revoke their shares.
    public static let admin = Rights(rawValue: 1 << 3)

    /// Everything.
    public static let all: Rights = [.read, .write, .upload, .admin]

    /// The rights a name in the accounts file stands for, `nil` for a name that is none of
    /// them. Several names may be joined with commas (`read,upload`).
    public init?(named text: String) {
        var rights: Rights = []
        for part in text.split(separator: ",") {
            switch part.trimmingSpaces().lowercased() {
            case "none": break
            case "read": rights.formUnion(.read)
            case "upload": rights.formUnion(.upload)
            case "write": rights.formUnion([.read, .write, .upload])
            case "admin": rights.formUnion(.all)
            default: return nil
            }
        }
        self = rights
    }
}
