/// A Browsey server found on the network, with what a person picks it by.
public struct DiscoveredServer: Sendable, Hashable, Codable {
    /// The instance name, such as `Browsey (Photos)`.
    public var name: String
    /// The URL to open: by address when one was found, else by host name.
    public var url: String
    /// The host's DNS name, such as `laptop.local`.
    public var hostName: String
    /// The port.
    public var port: Int
    /// The host's addresses, IPv4 first.
    public var addresses: [String]
    /// The folder served (TXT `path`), when announced.
    public var folder: String?
    /// Whether the server refuses writes (TXT `readonly`); `true` when not announced.
    public var readOnly: Bool
    /// Whether a token is required (TXT `auth=1`).
    public var requiresToken: Bool
    /// The server's version (TXT `version`).
    public var version: String?
    /// The server's identity (TXT `serverId`), which its `/api/health` also gives: the same
    /// server found by Bonjour, a QR code or by hand has the same one. `nil` from servers that do
    /// not announce it.
    public var serverId: String?
    /// Every TXT pair announced, for keys this type does not name.
    public var txt: [String: String]?

    /// Reads what a resolved `_browsey._tcp` instance announced.
    public init(resolved: ResolvedService, addresses: [String]) {
        name = resolved.instance.name
        var host = resolved.hostName
        if host.hasSuffix(".") { host.removeLast() }
        hostName = host
        port = resolved.port
        self.addresses = addresses
        folder = resolved.txt["path"]
        readOnly = resolved.txt["readonly"] != "0"
        requiresToken = resolved.txt["auth"] == "1"
        version = resolved.txt["version"]
        serverId = resolved.txt["serverId"].flatMap { $0.isEmpty ? nil : $0 }
        var pairs: [String: String] = [:]
        for pair in resolved.txt.pairs where pairs[pair.key] == nil { pairs[pair.key] = pair.value ?? "" }
        txt = pairs
        let scheme = resolved.txt["protocol"] == "https" ? "https" : "http"
        let address = addresses.first.map { $0.contains(":") ? "[\($0)]" : $0 } ?? host
        url = "\(scheme)://\(address):\(port)/"
    }
}
