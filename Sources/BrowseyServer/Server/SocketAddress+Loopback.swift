import NIOCore

extension SocketAddress {
    /// Whether this is an address of this machine's loopback: `127.0.0.0/8`, `::1`, or
    /// `127.x.y.z` mapped into IPv6.
    var isLoopback: Bool {
        guard let ip = ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
