/// How long a content search's matching may go on: a deadline, read as work is done. The clock
/// is read once every ``stride`` units of work (a unit is a byte looked at, or a thread of a
/// regular expression's automaton stepped), so that no loop over a line, however long the line
/// or large the expression, runs past the deadline by more than a few milliseconds.
struct TimeBudget {
    /// When the time is up; `nil`: never.
    let deadline: ContinuousClock.Instant?
    private var work = 0
    /// Whether the deadline has passed: the work that found it stopped short.
    private(set) var isSpent = false

    /// Units of work between two readings of the clock (a few hundred microseconds of work).
    static let stride = 1 << 16

    init(until deadline: ContinuousClock.Instant?) {
        self.deadline = deadline
    }

    /// Counts `units` of work done; false once the deadline has passed.
    @inline(__always)
    mutating func spend(_ units: Int) -> Bool {
        guard !isSpent else { return false }
        guard let deadline else { return true }
        work &+= units
        if work >= Self.stride {
            work = 0
            if ContinuousClock.now > deadline { isSpent = true }
        }
        return !isSpent
    }
}
