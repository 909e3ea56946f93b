#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's identity (`serverId`): a UUID that stays the same for one served folder, its
/// symlinks resolved, and one port, across restarts; another folder or port is another server.
/// Clients that found one server by Bonjour, by a QR code and by hand list it once.
///
/// Each identity is one small file in a folder of the user's data folder
/// (`$XDG_DATA_HOME/browsey/identities`), named by a hash of the folder and port. A new one is
/// written to a temporary file and published with `link`, which fails when the name exists: of
/// two servers starting at once, one publishes and the other reads what it published. A file
/// that holds no UUID is an error naming it, never replaced (the identity clients saved would
/// be lost).
public enum ServerIdentity {
    /// The folder identities are kept in, `nil` when no place outside `root` can be found.
    public static func defaultFolder(forRoot root: String) -> String? {
        let bases = TrashLocation.userFolders(
            apple: "Library/Application Support/Browsey/Identities", xdgVariable: "XDG_DATA_HOME",
            xdgDefault: ".local/share", leaf: "identities")
        return TrashLocation.firstOutside(root, among: bases)
    }

    /// The identity of the server of `root` on `port`, made and published in `folder` the first
    /// time. Port 0 (any free port) names no server twice: it gets a new identity each start.
    public static func id(root: String, port: Int, folder: String) throws(ServerSetupError) -> String {
        if port == 0 { return newUUID() }
        let canonical = SafePath.realPath(root) ?? root
        let path = folder + "/" + Hex.encode(SHA256Digest.of(canonical + "\u{0}" + String(port)).prefix(16))
        if let kept = try kept(at: path) { return kept }
        guard DataLocation.make(folder) else {
            throw ServerSetupError(.identity, message: "The identity folder \(folder) cannot be made")
        }
        let id = newUUID()
        let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ServerSetupError(.identity, message: "The identity file \(path) cannot be written")
        }
        let text = Array((id + "\n").utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        defer { unlink(temporary) }
        guard written == text.count, synced else {
            throw ServerSetupError(.identity, message: "The identity file \(path) cannot be written")
        }
        if link(temporary, path) == 0 { return id }
        guard errno == EEXIST, let kept = try kept(at: path) else {
            throw ServerSetupError(.identity, message: "The identity file \(path) cannot be written")
        }
        return kept
    }

    /// The identity kept at `path`; `nil` when there is none yet.
    static func kept(at path: String) throws(ServerSetupError) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw ServerSetupError(.identity, message: "The identity file \(path) cannot be read")
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        let text = count > 0 ? String(decoding: bytes[..<count].filter { $0 > 0x20 }, as: UTF8.self) : ""
        guard isUUID(text) else {
            throw ServerSetupError(
                .identity,
                message:
                    "The identity file \(path) is damaged (it holds no server identity): remove it to make a new one"
            )
        }
        return text
    }

    /// Whether `text` is a UUID in its usual spelling (8-4-4-4-12 hexadecimal digits).
    static func isUUID(_ text: String) -> Bool {
        let units = Array(text.utf8)
        guard units.count == 36 else { return false }
        for (index, unit) in units.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard unit == UInt8(ascii: "-") else { return false }
            } else if Hex.value(of: unit) == nil {
                return false
            }
        }
        return true
    }

    /// A random (version 4) UUID, lowercase.
    public static func newUUID() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Array(Hex.encode(bytes))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }
}
