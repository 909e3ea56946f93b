import NIOCore

extension SocketAddress {
    /// Whether this is an address of this machine's loopback: `127.0.0.0/8`, `::1`, or
    /// `127.x.y.z` mapped into IPv6. Decided on the address's bytes (each download asks).
    var isLoopback: Bool {
        switch self {
        case .v4(let address):
            return UInt32(bigEndian: address.address.sin_addr.s_addr) >> 24 == 127
        case .v6(let address):
            return withUnsafeBytes(of: address.address.sin6_addr) { bytes in
                // ::1, or ::ffff:127.x.y.z.
                guard bytes.prefix(10).allSatisfy({ $0 == 0 }) else { return false }
                if bytes[10] == 0xFF && bytes[11] == 0xFF { return bytes[12] == 127 }
                return bytes[10...14].allSatisfy { $0 == 0 } && bytes[15] == 1
            }
        case .unixDomainSocket:
            return false
        }
    }
}
