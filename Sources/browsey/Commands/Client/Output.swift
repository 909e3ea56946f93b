import ArgumentParser
import BrowseyAPI
import BrowseyClient

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How client commands print.
enum Output {
    /// `value` as pretty JSON with the contract's dates.
    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder.browsey()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// `1.5 MB`, `120 B`: sizes for people.
    static func size(_ bytes: Int64) -> String { ByteCount.text(bytes) }

    /// `2024-01-15 10:30` (UTC).
    static func date(_ date: Date) -> String {
        String(BrowseyDate.string(from: date).prefix(16).map { $0 == "T" ? " " : $0 })
    }

    /// `text` right-aligned in `width` columns.
    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// Raw bytes to standard output.
    static func standardOutput(_ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(1, base + written, raw.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }
}

/// Whether standard error is a terminal (progress bars are drawn only there).
var isTerminal: Bool { isatty(2) == 1 }
