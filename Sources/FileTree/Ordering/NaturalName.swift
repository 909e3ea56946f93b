import Foundation

/// A name prepared for the order people expect: case and accents ignored (`é` sorts with `e`,
/// NFC and NFD spellings are equal), runs of digits compared by value (`file 2` before
/// `file 10`), and the exact name as the last tie-breaker so the order is total and the same on
/// every platform.
struct NaturalName: Comparable {
    private let folded: [UInt32]
    private let original: String

    init(_ name: String) {
        original = name
        var folded: [UInt32] = []
        folded.reserveCapacity(name.utf8.count)
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in name.utf8 {
                folded.append(UInt32(byte >= 65 && byte <= 90 ? byte + 32 : byte))
            }
        } else {
            let base = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            for scalar in base.decomposedStringWithCanonicalMapping.unicodeScalars
            where scalar.properties.canonicalCombiningClass == .notReordered {
                for lower in scalar.properties.lowercaseMapping.unicodeScalars { folded.append(lower.value) }
            }
        }
        self.folded = folded
    }

    static func == (lhs: NaturalName, rhs: NaturalName) -> Bool { lhs.original == rhs.original }

    static func < (lhs: NaturalName, rhs: NaturalName) -> Bool {
        switch compare(lhs.folded, rhs.folded) {
        case .some(let ascending): return ascending
        case .none: return lhs.original.unicodeScalars.lexicographicallyPrecedes(rhs.original.unicodeScalars)
        }
    }

    /// `true` when `a` sorts first, `false` when `b` does, `nil` when they fold equal.
    private static func compare(_ a: [UInt32], _ b: [UInt32]) -> Bool? {
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                let (aStart, aEnd) = digitRun(a, from: i)
                let (bStart, bEnd) = digitRun(b, from: j)
                let aLength = aEnd - aStart
                let bLength = bEnd - bStart
                if aLength != bLength { return aLength < bLength }
                for k in 0..<aLength where a[aStart + k] != b[bStart + k] {
                    return a[aStart + k] < b[bStart + k]
                }
                i = aEnd
                j = bEnd
                continue
            }
            if a[i] != b[j] { return a[i] < b[j] }
            i += 1
            j += 1
        }
        if i < a.count || j < b.count { return i == a.count }
        return nil
    }

    private static func isDigit(_ scalar: UInt32) -> Bool { scalar >= 48 && scalar <= 57 }

    /// The run of digits from `start`, with its leading zeros skipped: (first significant, end).
    private static func digitRun(_ scalars: [UInt32], from start: Int) -> (Int, Int) {
        var end = start
        while end < scalars.count && isDigit(scalars[end]) { end += 1 }
        var significant = start
        while significant < end - 1 && scalars[significant] == 48 { significant += 1 }
        return (significant, end)
    }
}
