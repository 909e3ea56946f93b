/// A column of 64-bit values kept in four bytes each, as their distance from the column's
/// smallest value: a folder's sizes (nearly all under 4 GiB) and its inodes (a folder's files are
/// mostly numbered close together). A value farther than that is kept apart with its place, so a
/// million values take about 4 MiB instead of 8.
struct NarrowColumn: Equatable, Sendable {
    /// The smallest value.
    private let base: Int64
    /// Each value's distance from ``base``, or `UInt32.max` where the value is kept in ``far``.
    private let near: [UInt32]
    /// The places of the values kept whole, ascending.
    private let farPlaces: [UInt32]
    /// Those values, in the same order.
    private let far: [Int64]

    init(_ values: [Int64]) {
        let base = values.min() ?? 0
        var farPlaces: [UInt32] = []
        var far: [Int64] = []
        near = values.enumerated().map { place, value in
            let (distance, overflow) = value.subtractingReportingOverflow(base)
            if !overflow && distance < Int64(UInt32.max) { return UInt32(distance) }
            farPlaces.append(UInt32(place))
            far.append(value)
            return UInt32.max
        }
        self.base = base
        self.farPlaces = farPlaces
        self.far = far
    }

    /// The value at `index`.
    subscript(index: Int) -> Int64 {
        let distance = near[index]
        guard distance == UInt32.max, let place = farPlaces.place(of: UInt32(index)) else {
            return base &+ Int64(distance)
        }
        return far[place]
    }
}
