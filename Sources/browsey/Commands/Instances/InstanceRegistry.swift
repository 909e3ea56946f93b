import BrowseyServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One `browsey serve` running on this machine, as it recorded itself at start.
struct InstanceRecord: Codable, Equatable, Sendable {
    /// The server's process.
    var pid: Int32
    /// When the process started, in the kernel's clock ticks since boot (`/proc/PID/stat`'s 22nd
    /// field; 0 where there is no `/proc`): with the PID, it tells this process from a later one
    /// that got the same PID.
    var processStart: UInt64
    /// The port it listens on.
    var port: Int
    /// The address it listens on.
    var host: String
    /// The folder it serves.
    var root: String
    /// `read-only` or `read-write`.
    var mode: String
    /// Whether it serves HTTPS.
    var https: Bool
    /// Whether the access-token gate is on.
    var gated: Bool
    /// Its identity (`serverId`), when it has one.
    var serverId: String?
    /// When it started, ISO 8601.
    var started: String

    /// The address to open on this machine.
    var url: String { "\(https ? "https" : "http")://localhost:\(port)/" }
}

extension InstanceRecord {
    /// The record of this process serving `configuration` on `port`.
    init(serving configuration: ServerConfiguration, port: Int) {
        pid = getpid()
        processStart = InstanceRegistry.processStart(of: pid)
        self.port = port
        host = configuration.host
        root = configuration.root
        mode = configuration.readOnly ? "read-only" : "read-write"
        https = configuration.tls != nil
        gated = configuration.accessToken?.isEmpty == false
        serverId = configuration.serverId
        started = Date.now.ISO8601Format()
    }
}

/// The servers running on this machine: each `serve` writes a record into
/// `$XDG_DATA_HOME/browsey/instances` (`~/.local/share/browsey/instances`) when it starts and
/// removes it when it stops. A record whose process is gone (killed, crashed), or whose PID a
/// later process took, is ignored and removed by the next reader.
struct InstanceRegistry: Sendable {
    /// The folder records are kept in.
    let folder: String

    /// The registry of the user running this command, `nil` without a home or data folder.
    static func standard() -> InstanceRegistry? {
        AccessTokenFile.defaultFolder().map { InstanceRegistry(folder: $0 + "/instances") }
    }

    /// Records `record` (atomically: a reader never sees half a record); `false` when it cannot be written.
    @discardableResult
    func register(_ record: InstanceRecord) -> Bool {
        guard makeFolder(), let data = try? JSONEncoder().encode(record) else { return false }
        let path = self.path(of: record.pid)
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Removes the record of `pid` (its server stopped).
    func unregister(pid: Int32) {
        unlink(path(of: pid))
    }

    /// The records of servers still running, by port; records of processes gone are removed.
    func running() -> [InstanceRecord] {
        var records: [InstanceRecord] = []
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasSuffix(".json"), Int32(name.dropLast(5)) != nil else { continue }
            let path = folder + "/" + name
            guard let data = FileManager.default.contents(atPath: path),
                let record = try? JSONDecoder().decode(InstanceRecord.self, from: data)
            else {
                unlink(path)
                continue
            }
            if Self.isAlive(record) {
                records.append(record)
            } else {
                unlink(path)
            }
        }
        return records.sorted { ($0.port, $0.pid) < ($1.port, $1.pid) }
    }

    /// Whether the process `record` names still runs and is the one that wrote it (a process
    /// that has ended but whose parent has not yet reaped it, a zombie, runs no more).
    static func isAlive(_ record: InstanceRecord) -> Bool {
        guard record.pid > 0, kill(record.pid, 0) == 0 || errno == EPERM else { return false }
        #if os(Linux)
            guard let status = processStatus(of: record.pid) else { return false }
            return status.state != "Z" && status.start == record.processStart
        #else
            return true
        #endif
    }

    /// When process `pid` started (`/proc/PID/stat`'s 22nd field), 0 where it cannot be read.
    static func processStart(of pid: Int32) -> UInt64 {
        processStatus(of: pid)?.start ?? 0
    }

    /// Process `pid`'s state letter and start time, from `/proc/PID/stat`; `nil` where there is none.
    static func processStatus(of pid: Int32) -> (state: Substring, start: UInt64)? {
        #if os(Linux)
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            // The command name (field 2) is in parentheses and may hold spaces: count after its end.
            guard let close = text.lastIndex(of: ")") else { return nil }
            let fields = text[text.index(after: close)...].split(separator: " ")
            // Fields from the 3rd on: the state is at index 0, the start time (22nd) at 19.
            guard fields.count > 19, let start = UInt64(fields[19]) else { return nil }
            return (fields[0], start)
        #else
            return nil
        #endif
    }

    private func path(of pid: Int32) -> String { folder + "/\(pid).json" }

    private func makeFolder() -> Bool {
        var path = ""
        for component in folder.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0 && errno != EEXIST { return false }
        }
        return true
    }
}
