/// The key/value pairs of a DNS-SD TXT record, in their order.
///
/// On the wire each pair is one string of at most 255 bytes, `key=value`, preceded by its
/// length; a key without `=` is a flag with no value. Keys compare without regard to case.
///
/// ```swift
/// let txt: TXTRecord = ["version": "1.0", "readonly": "1"]
/// TXTRecord(bytes: txt.bytes)["READONLY"]   // "1"
/// ```
public struct TXTRecord: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The pairs, in order; a flag's value is `nil`.
    public private(set) var pairs: [(key: String, value: String?)]

    /// An empty record.
    public init() { pairs = [] }

    /// A record of these pairs, in this order.
    public init(dictionaryLiteral elements: (String, String)...) {
        pairs = elements.map { (key: $0.0, value: $0.1) }
    }

    /// Reads a record off the wire; a malformed tail (a length past the end) is dropped.
    public init(bytes: [UInt8]) {
        pairs = []
        var index = 0
        while index < bytes.count {
            let length = Int(bytes[index])
            index += 1
            guard length > 0 else { continue }
            guard index + length <= bytes.count else { break }
            let item = bytes[index..<index + length]
            index += length
            if let equals = item.firstIndex(of: UInt8(ascii: "=")) {
                let key = String(decoding: item[item.startIndex..<equals], as: UTF8.self)
                guard !key.isEmpty, !contains(key) else { continue }
                pairs.append((key: key, value: String(decoding: item[(equals + 1)...], as: UTF8.self)))
            } else {
                let key = String(decoding: item, as: UTF8.self)
                guard !contains(key) else { continue }
                pairs.append((key: key, value: nil))
            }
        }
    }

    /// The value for `key` (any case); `nil` when absent or a flag.
    public subscript(key: String) -> String? {
        get { pairs.first { $0.key.lowercased() == key.lowercased() }?.value ?? nil }
        set {
            let lowered = key.lowercased()
            if let index = pairs.firstIndex(where: { $0.key.lowercased() == lowered }) {
                if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
            } else if let newValue {
                pairs.append((key: key, value: newValue))
            }
        }
    }

    /// Whether `key` is present, as a pair or a flag.
    public func contains(_ key: String) -> Bool {
        let lowered = key.lowercased()
        return pairs.contains { $0.key.lowercased() == lowered }
    }

    /// The wire form; a pair longer than 255 bytes or a key holding `=` is an error.
    public func encoded() throws(ServiceDiscoveryError) -> [UInt8] {
        var bytes: [UInt8] = []
        for pair in pairs {
            guard !pair.key.isEmpty, !pair.key.utf8.contains(UInt8(ascii: "=")) else {
                throw ServiceDiscoveryError(
                    .invalidArgument, "the TXT key \"\(pair.key)\" is empty or holds '='")
            }
            var item = Array(pair.key.utf8)
            if let value = pair.value { item += [UInt8(ascii: "=")] + Array(value.utf8) }
            guard item.count <= 255 else {
                throw ServiceDiscoveryError(
                    .invalidArgument, "the TXT entry \"\(pair.key)\" is longer than 255 bytes")
            }
            bytes.append(UInt8(item.count))
            bytes += item
        }
        return bytes
    }

    /// `key=value` pairs separated by spaces.
    public var description: String {
        pairs.map { pair in pair.value.map { "\(pair.key)=\($0)" } ?? pair.key }.joined(separator: " ")
    }

    /// Equal when they hold the same pairs in the same order.
    public static func == (left: TXTRecord, right: TXTRecord) -> Bool {
        left.pairs.count == right.pairs.count
            && zip(left.pairs, right.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes the pairs in order, as ``==(left:right:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        for pair in pairs {
            hasher.combine(pair.key)
            hasher.combine(pair.value)
        }
    }
}
