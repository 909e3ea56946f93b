/// Where a service instance answers: its host, port and TXT record.
public struct ResolvedService: Sendable, Hashable {
    /// The instance that was resolved.
    public var instance: ServiceInstance
    /// The host's DNS name, such as `laptop.local.`.
    public var hostName: String
    /// The TCP or UDP port.
    public var port: Int
    /// The TXT record's pairs.
    public var txt: TXTRecord
    /// The interface the answer came on (0: any).
    public var interfaceIndex: UInt32

    /// Describes a resolved instance.
    public init(
        instance: ServiceInstance, hostName: String, port: Int, txt: TXTRecord, interfaceIndex: UInt32
    ) {
        self.instance = instance
        self.hostName = hostName
        self.port = port
        self.txt = txt
        self.interfaceIndex = interfaceIndex
    }
}
