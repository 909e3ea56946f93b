import BrowseyAPI
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One JSON line per login, failed login, logout, write, delete, restore, upload and share
/// change: when, what, who and from where, appended to a file (`--audit-log`, or `audit.log`
/// in the data folder) that is rotated by size (`audit.log.1` … `audit.log.3`).
///
/// ```json
/// {"time":"2026-05-01T09:30:00Z","event":"login","user":"alice","address":"192.0.2.7"}
/// {"time":"2026-05-01T09:31:12Z","event":"delete","user":"alice","address":"192.0.2.7","path":"/Team/old.txt"}
/// ```
public final class AuditLog: Sendable {
    /// The file written.
    public let path: String
    /// The size past which the file is rotated.
    public let maximumBytes: Int
    /// How many rotated files are kept.
    public let keeps: Int

    private let file = Mutex<Int32>(-1)

    /// A log appending to `path`, rotated past `maximumBytes`.
    public init(path: String, maximumBytes: Int = 10 << 20, keeps: Int = 3) {
        self.path = path
        self.maximumBytes = maximumBytes
        self.keeps = keeps
    }

    deinit { file.withLock { if $0 >= 0 { close($0) } } }

    /// Appends one event; `path` and `detail` are added when given. A log that cannot be
    /// written loses the line, never the request.
    public func record(
        _ event: String, user: String?, address: String, path: String? = nil, detail: String? = nil
    ) {
        let entry = Entry(
            time: BrowseyDate.string(millisecondsSince1970: SessionStore.wallClock() * 1000), event: event,
            user: user, address: address, path: path, detail: detail)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var bytes = try? Array(encoder.encode(entry)) else { return }
        bytes.append(UInt8(ascii: "\n"))
        file.withLock { descriptor in
            if descriptor < 0 {
                descriptor = open(self.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            }
            guard descriptor >= 0 else { return }
            var status = stat()
            if fstat(descriptor, &status) == 0, Int(status.st_size) + bytes.count > maximumBytes {
                close(descriptor)
                rotate()
                descriptor = open(self.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { return }
            }
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
    }

    /// One line.
    private struct Entry: Encodable {
        let time: String
        let event: String
        let user: String?
        let address: String
        let path: String?
        let detail: String?
    }

    private func rotate() {
        for index in stride(from: keeps - 1, through: 1, by: -1) {
            rename("\(path).\(index)", "\(path).\(index + 1)")
        }
        rename(path, "\(path).1")
    }
}
