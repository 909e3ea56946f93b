import BrowseyAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The servers a person saved, kept as JSON in the app's support folder. Every change is
/// written atomically (a temporary file renamed over the old one), so a crash leaves the old
/// list or the new one, never half of either.
public struct SavedServers: Sendable {
    /// The JSON file.
    public let file: String

    /// The list kept at `file`.
    public init(file: String) { self.file = file }

    /// `servers.json` in the user's data folder: `$XDG_DATA_HOME/browsey` or
    /// `~/.local/share/browsey` on Linux, Application Support on Apple platforms.
    public static func defaultFile() -> String {
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"] ?? "/tmp"
        #if canImport(Darwin)
            return home + "/Library/Application Support/Browsey/servers.json"
        #else
            let data =
                environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home
                + "/.local/share"
            return data + "/browsey/servers.json"
        #endif
    }

    /// The saved servers, in the order saved; none when the file does not exist yet. A file
    /// that is not a list of servers throws `localFile` (and is left as it is).
    public func load() throws(BrowseyClientError) -> [Server] {
        guard FileManager.default.fileExists(atPath: file) else { return [] }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            return try JSONDecoder.browsey().decode([Server].self, from: data)
        } catch {
            throw BrowseyClientError(.localFile, "the saved servers in \(file) cannot be read: \(error)")
        }
    }

    /// Replaces the list, atomically.
    public func store(_ servers: [Server]) throws(BrowseyClientError) {
        do {
            let folder = String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)])
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            let encoder = JSONEncoder.browsey()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(servers).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw BrowseyClientError(.localFile, "the saved servers cannot be written to \(file): \(error)")
        }
    }

    /// Adds `server`, or replaces the saved one with the same address; returns the new list.
    @discardableResult
    public func save(_ server: Server) throws(BrowseyClientError) -> [Server] {
        var servers = try load()
        if let index = servers.firstIndex(where: { $0.id == server.id }) {
            servers[index] = server
        } else {
            servers.append(server)
        }
        try store(servers)
        return servers
    }

    /// Forgets the server with this id; returns the new list.
    @discardableResult
    public func remove(id: String) throws(BrowseyClientError) -> [Server] {
        let servers = try load().filter { $0.id != id }
        try store(servers)
        return servers
    }
}
