/// A service instance as a browse reports it: enough to resolve it.
public struct ServiceInstance: Sendable, Hashable, CustomStringConvertible {
    /// The instance name people read, such as `Browsey (Photos)`.
    public var name: String
    /// The service type, such as `_browsey._tcp.`.
    public var type: String
    /// The domain, `local.` on a LAN.
    public var domain: String
    /// The network interface it was seen on (0: any).
    public var interfaceIndex: UInt32

    /// Names an instance.
    public init(name: String, type: String, domain: String = "local.", interfaceIndex: UInt32 = 0) {
        self.name = name
        self.type = type
        self.domain = domain
        self.interfaceIndex = interfaceIndex
    }

    /// `name` on `type` in `domain`.
    public var description: String { "\"\(name)\" \(type)\(domain)" }
}
