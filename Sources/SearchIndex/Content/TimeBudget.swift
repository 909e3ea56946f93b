/// How long a content search's matching may go on: a deadline, read as work is done. The clock
/// is read once every ``stride`` units of work (a unit is a byte looked at, or a thread of a
/// regular expression's automaton stepped), so that no loop over a line, however long the line
/// or large the expression, runs past the deadline by more than a few milliseconds, and a
/// search of short lines reads it rarely (read every few lines, it cost a tenth of a search).
struct TimeBudget {
    /// When the time is up (for no deadline, never: the count is then never checked).
    private let deadline: ContinuousClock.Instant
    /// Units of work left before the clock is read again.
    private var left: Int
    /// Whether the deadline has passed: the work that found it stopped short.
    private(set) var isSpent = false

    /// Units of work between two readings of the clock (a few hundred microseconds of work).
    static let stride = 1 << 16

    init(until deadline: ContinuousClock.Instant?) {
        self.deadline = deadline ?? .now
        left = deadline == nil ? .max : Self.stride
    }

    /// Counts `units` of work done; false once the deadline has passed.
    @inline(__always)
    mutating func spend(_ units: Int) -> Bool {
        left &-= units
        if left < 0 { check() }
        return !isSpent
    }

    private mutating func check() {
        left = Self.stride
        if ContinuousClock.now > deadline { isSpent = true }
    }
}
