/// A name folded once for the order people expect (see ``EntryOrder``'s name order): case and
/// accents ignored, runs of digits compared by value (`Untitled 2` before `Untitled 10`).
/// Comparing two keys is a byte comparison, so a list sorted often (a document grid re-sorted
/// after each change) folds each name once instead of at every comparison.
///
/// ```swift
/// let names = ["Untitled 10", "untitled 2", "Élan"]
/// names.sorted { NaturalSortKey($0) < NaturalSortKey($1) } // ["Élan", "untitled 2", "Untitled 10"]
/// ```
///
/// Equal keys do not mean equal names (`A` and `a` fold alike): break ties with the name.
public struct NaturalSortKey: Sendable, Hashable, Comparable {
    /// The folded bytes.
    public let bytes: [UInt8]

    /// Folds `name`.
    public init(_ name: String) {
        var folded: [UInt8] = []
        folded.reserveCapacity(name.utf8.count + 4)
        NaturalName.appendKey(of: name, into: &folded)
        bytes = folded
    }

    /// Byte order of the folded names.
    public static func < (lhs: NaturalSortKey, rhs: NaturalSortKey) -> Bool {
        lhs.bytes.withUnsafeBufferPointer { left in
            rhs.bytes.withUnsafeBufferPointer { right in NaturalName.compare(left, right) < 0 }
        }
    }
}
