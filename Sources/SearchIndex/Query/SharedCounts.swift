/// The bit planes and scratch of a counting of pair lists, lent to two threads at once (see
/// ``NameGrams/scatteredHits(for:matcher:under:inHalves:)``): each thread writes only its own
/// words of both (``ListCursor/count(into:scratch:words:planeCount:from:within:)``), and the
/// lists are only read, so the buffers are safe to share though their type does not say so.
struct SharedCounts: @unchecked Sendable {
    let planes: UnsafeMutableBufferPointer<UInt64>
    let scratch: UnsafeMutableBufferPointer<UInt64>
    let postings: UnsafeBufferPointer<UInt8>
}
