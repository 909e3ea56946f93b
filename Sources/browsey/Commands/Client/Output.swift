import ArgumentParser
import BrowseyAPI
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

    /// `1.5 MB`, `120 B`: sizes for people (powers of 1000, as Finder and most file managers show).
    static func size(_ bytes: Int64) -> String {
        guard bytes >= 1000 else { return "\(bytes) B" }
        let units = ["kB", "MB", "GB", "TB", "PB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let rounded = value < 10 ? (value * 10).rounded() / 10 : value.rounded()
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return "\(text) \(units[unit])"
    }

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
            let count = bytes.withUnsafeBytes { write(1, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }
}

/// Whether standard error is a terminal (progress bars are drawn only there).
var isTerminal: Bool { isatty(2) == 1 }
