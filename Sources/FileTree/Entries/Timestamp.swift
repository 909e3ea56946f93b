#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A file time with the nanoseconds the system keeps, which a `Date` (a `Double`) can blur.
/// Use it to compare versions of a file exactly; use ``date`` to show it.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01 UTC.
    public var seconds: Int64
    /// Nanoseconds within the second, 0 ..< 1,000,000,000.
    public var nanoseconds: Int32

    /// Makes a timestamp from seconds and nanoseconds since 1970.
    public init(seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The time as a `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    /// Milliseconds since 1970, truncated (Browsey's precision on the wire).
    public var milliseconds: Int64 { seconds * 1000 + Int64(nanoseconds / 1_000_000) }

    /// Nanoseconds since 1970 (clamped: an Int64 of them reaches from 1677 to 2262).
    public var nanosecondsSince1970: Int64 {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        return product.addingReportingOverflow(Int64(nanoseconds)).overflow
            ? .max : product + Int64(nanoseconds)
    }

    /// Orders timestamps in time.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// `seconds.nanoseconds`.
    public var description: String {
        let fraction = String(nanoseconds)
        return "\(seconds).\(String(repeating: "0", count: max(0, 9 - fraction.count)))\(fraction)"
    }
}
