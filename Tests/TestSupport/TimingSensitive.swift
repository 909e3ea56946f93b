#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the tests that assert a time (a listing within a second during a rename storm,
/// timeouts measured to a fraction of a second, 1,000 connections at a descriptor limit) run in
/// this process. The full suite runs everything in parallel on two cores, where such a figure
/// measures the neighbours; `Scripts/test` runs these apart afterwards, with
/// `BROWSEY_TIMING_TESTS=1` and a filter, on a quiet machine.
public enum TimingSensitive {
    /// `true` when `BROWSEY_TIMING_TESTS` is set.
    public static var runsHere: Bool { getenv("BROWSEY_TIMING_TESTS") != nil }
}
