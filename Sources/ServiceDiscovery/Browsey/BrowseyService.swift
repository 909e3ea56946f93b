/// How Browsey servers appear on the network: the `_browsey._tcp` type, an instance named after
/// the folder, and a TXT record saying what is served and how.
///
/// TXT keys: `version` (the server's), `path` (the served folder), `protocol` (`http` or
/// `https`), `readonly` (`1` or `0`), `host` (the machine's name), `serverId` (the server's
/// identity, the same as `/api/health` says), and `auth=1` when a token is required.
public enum BrowseyService {
    /// The DNS-SD service type.
    public static let type = "_browsey._tcp"

    /// `Browsey (<folder name>)`, shortened to DNS-SD's 63 bytes by trimming the folder name.
    public static func instanceName(servedFolder: String) -> String {
        let trimmed = servedFolder.split(separator: "/").last.map(String.init) ?? "/"
        var folder = Substring(trimmed)
        while "Browsey ()".utf8.count + folder.utf8.count > 63, !folder.isEmpty { folder.removeLast() }
        return "Browsey (\(folder))"
    }

    /// The registration of a server on `port` serving `folder`.
    public static func registration(
        servedFolder folder: String, port: Int, version: String, secure: Bool, readOnly: Bool,
        requiresToken: Bool, hostName: String, serverId: String? = nil
    ) -> ServiceRegistration {
        var txt: TXTRecord = [
            "version": version, "path": folder, "protocol": secure ? "https" : "http",
            "readonly": readOnly ? "1" : "0",
            "host": hostName,
        ]
        if requiresToken { txt["auth"] = "1" }
        if let serverId { txt["serverId"] = serverId }
        return ServiceRegistration(name: instanceName(servedFolder: folder), type: type, port: port, txt: txt)
    }
}
