/// A service to announce: its name, type, port and TXT record.
public struct ServiceRegistration: Sendable, Hashable {
    /// The instance name; the responder picks another (`Name (2)`) when it is taken.
    public var name: String
    /// The service type, such as `_browsey._tcp`.
    public var type: String
    /// The port it listens on.
    public var port: Int
    /// The TXT record.
    public var txt: TXTRecord
    /// The domain; `nil` for the default (`local.`).
    public var domain: String?

    /// Describes a service to announce.
    public init(name: String, type: String, port: Int, txt: TXTRecord = TXTRecord(), domain: String? = nil) {
        self.name = name
        self.type = type
        self.port = port
        self.txt = txt
        self.domain = domain
    }
}
