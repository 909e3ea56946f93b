/// Addresses from A and AAAA records, as people write them.
enum IPAddressText {
    /// `192.168.1.2` for a 4-byte A record, `fe80::1` for a 16-byte AAAA record.
    static func format(type: UInt16, data: [UInt8]) -> String? {
        if type == DNSService.typeA, data.count == 4 {
            return data.map(String.init).joined(separator: ".")
        }
        guard type == DNSService.typeAAAA, data.count == 16 else { return nil }
        let groups = stride(from: 0, to: 16, by: 2).map { UInt16(data[$0]) << 8 | UInt16(data[$0 + 1]) }
        // The longest run of zero groups (two or more) becomes `::`.
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < 8 && groups[index] == 0 { index += 1 }
            if index - start > best.length { best = (start, index - start) }
        }
        let hex = groups.map { String($0, radix: 16) }
        guard best.length >= 2 else { return hex.joined(separator: ":") }
        let head = hex[..<best.start].joined(separator: ":")
        let tail = hex[(best.start + best.length)...].joined(separator: ":")
        return head + "::" + tail
    }
}
