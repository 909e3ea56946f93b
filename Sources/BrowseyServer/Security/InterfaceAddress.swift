#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One address of one of the machine's network interfaces, as numbers (`192.168.1.20`,
/// `fe80::1%eth0`): what the host check allows and what the banner shows.
public struct InterfaceAddress: Sendable, Hashable {
    /// The address in numeric form, with its zone when it has one (`fe80::1%eth0`).
    public let text: String
    /// Whether it is IPv4 (else IPv6).
    public let isIPv4: Bool
    /// Whether its interface is up.
    public let isUp: Bool
    /// Whether its interface is the loopback.
    public let isLoopback: Bool

    /// Every IPv4 and IPv6 address of the machine's interfaces, in the system's order.
    public static func all() -> [InterfaceAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [InterfaceAddress] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let current = cursor {
            defer { cursor = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(
                family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0
            else {
                continue
            }
            let flags = Int32(current.pointee.ifa_flags)
            found.append(
                InterfaceAddress(
                    text: String(
                        decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                    isIPv4: family == AF_INET, isUp: flags & Int32(IFF_UP) != 0,
                    isLoopback: flags & Int32(IFF_LOOPBACK) != 0))
        }
        return found
    }
}
