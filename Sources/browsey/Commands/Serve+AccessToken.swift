import BrowseyServer
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Serve {
    /// The access token the gate asks for, from the first source that gives one, in the newest
    /// Browsey's order: `$BROWSEY_ACCESS_TOKEN`, `--access-token-file`, `--access-token` (made
    /// once, kept in the user's data folder). `nil`: no gate. An empty variable is no
    /// protection (and says so); an empty or unreadable file is an error, since someone who named
    /// one meant to be protected.
    func accessTokenSetting(logger: Logger) throws -> (token: String, source: String)? {
        if let value = getenv("BROWSEY_ACCESS_TOKEN").map({ String(cString: $0) }) {
            let token = value.trimmedOfSpaces()
            if !token.isEmpty { return (token, "BROWSEY_ACCESS_TOKEN") }
            logger.warning("BROWSEY_ACCESS_TOKEN is empty: an empty token is no protection")
        }
        if let accessTokenFile {
            guard let text = AccessTokenFile.contents(of: accessTokenFile) else {
                throw CommandFailure(
                    .accessTokenUnreadable, "--access-token-file \(accessTokenFile) cannot be read")
            }
            let token = AccessTokenFile.firstLine(text)
            guard !token.isEmpty else {
                throw CommandFailure(
                    .accessTokenUnreadable,
                    "--access-token-file \(accessTokenFile) is empty: an empty token is no protection")
            }
            return (token, accessTokenFile)
        }
        if accessToken {
            guard let folder = AccessTokenFile.defaultFolder() else {
                throw CommandFailure(
                    .accessTokenUnreadable, "--access-token: no data folder to keep the token in (set HOME)")
            }
            let path = folder + "/access-token"
            if let text = AccessTokenFile.contents(of: path) {
                let token = AccessTokenFile.firstLine(text)
                guard !token.isEmpty else {
                    throw CommandFailure(
                        .accessTokenUnreadable,
                        "The access token file \(path) is empty: remove it to make a new one")
                }
                return (token, path)
            }
            let token = ServerConfiguration.newToken()
            guard DataLocation.make(folder), AccessTokenFile.create(path, text: token + "\n") else {
                throw CommandFailure(.accessTokenUnreadable, "--access-token: \(path) cannot be written")
            }
            if let text = AccessTokenFile.contents(of: path) {
                return (AccessTokenFile.firstLine(text), path)
            }
            return (token, path)
        }
        return nil
    }
}

/// Reading and keeping an access token's file.
enum AccessTokenFile {
    /// Where `--access-token` keeps its token: the user's Browsey data folder.
    static func defaultFolder() -> String? {
        if let base = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), base.hasPrefix("/") {
            return base + "/browsey"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") else { return nil }
        #if canImport(Darwin)
            return home + "/Library/Application Support/Browsey"
        #else
            return home + "/.local/share/browsey"
        #endif
    }

    /// A file's text (its first 64 KiB: a token is a line), `nil` when it cannot be read.
    static func contents(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 65_536)
        var count = 0
        while count < bytes.count {
            let got = bytes[count...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 { return nil }
            if got == 0 { break }
            count += got
        }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    /// The first line of `text`, surrounding whitespace dropped.
    static func firstLine(_ text: String) -> String {
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(line).trimmedOfSpaces()
    }

    /// Writes a new file readable by its owner only; `false` when it exists or cannot be written.
    static func create(_ path: String, text: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        return written == bytes.count && synced
    }
}

extension String {
    /// This text without spaces, tabs and line ends at either end.
    fileprivate func trimmedOfSpaces() -> String {
        let space: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        return String(self.drop(while: space).reversed().drop(while: space).reversed())
    }
}
