#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A block of IP addresses written as CIDR (`10.0.0.0/8`, `fd00::/8`) or one address
/// (`127.0.0.1`, `::1`): what `--trusted-proxy` names.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The network's bytes: 4 for IPv4, 16 for IPv6.
    let bytes: [UInt8]
    /// How many leading bits must match.
    let prefix: Int

    /// The range `text` writes; `nil` for anything else (a name, a bad prefix, a zone).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.bytes(of: String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        var prefix = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given),
                parts[1].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
            else { return nil }
            prefix = given
        }
        self.bytes = bytes
        self.prefix = prefix
    }

    /// Whether `address` (numeric, as a connection's peer is written) lies in the range. An
    /// IPv4 address written as IPv6 (`::ffff:10.1.2.3`) is taken as the IPv4 one.
    public func contains(_ address: String) -> Bool {
        guard var other = Self.bytes(of: address) else { return false }
        if bytes.count == 4, other.count == 16, other[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] {
            other = Array(other[12...])
        }
        guard other.count == bytes.count else { return false }
        var left = prefix
        for index in bytes.indices where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xff : ~(0xff >> UInt8(left))
            if bytes[index] & mask != other[index] & mask { return false }
            left -= 8
        }
        return true
    }

    /// As written with its prefix: `10.0.0.0/8`.
    public var description: String {
        var text = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(cString: text) + "/\(prefix)"
    }

    /// The bytes of a numeric IPv4 or IPv6 address; `nil` for anything else.
    static func bytes(of address: String) -> [UInt8]? {
        var four = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, address, &four) == 1 { return four }
        var sixteen = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET6, address, &sixteen) == 1 { return sixteen }
        return nil
    }
}

/// Who really sent a request that came through proxies the server trusts: the last address in
/// `X-Forwarded-For` that is not one of them, read from the right, since each proxy appends the
/// address it was reached from and only the trusted ones' additions can be believed.
enum ForwardedClient {
    /// The client's address: `peer` itself unless it is a trusted proxy; then, walking
    /// `X-Forwarded-For` from the right past trusted addresses, the first one that is not. A
    /// header that is garbled anywhere it is read gives `peer` back.
    static func address(peer: String, forwardedFor: [String], trusted: [AddressRange]) -> String {
        guard !trusted.isEmpty, trusted.contains(where: { $0.contains(peer) }) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { String($0).trimmingSpaces() }
        var client = peer
        for hop in hops.reversed() {
            guard AddressRange.bytes(of: hop) != nil else { return client }
            client = hop
            if !trusted.contains(where: { $0.contains(hop) }) { break }
        }
        return client
    }
}
