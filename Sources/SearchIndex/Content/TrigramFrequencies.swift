/// How many files hold each trigram, as last counted: what a ``TrigramPlan`` is made from. A
/// count is kept for ``lifetime`` (files change, and a count only guides which trigrams are asked
/// for: an old one costs speed, never a hit), and at most ``capacity`` of them (a burst of odd
/// queries empties the table rather than growing it).
struct TrigramFrequencies {
    /// How long a count is used.
    static let lifetime = Duration.seconds(300)
    /// The most counts kept.
    static let capacity = 65_536

    private var counts: [String: (count: Int, counted: ContinuousClock.Instant)] = [:]

    /// The count of `trigram` when it is recent enough.
    func count(of trigram: String, at now: ContinuousClock.Instant) -> Int? {
        guard let kept = counts[trigram], now - kept.counted < Self.lifetime else { return nil }
        return kept.count
    }

    /// Keeps a count made at `now`.
    mutating func keep(_ count: Int, of trigram: String, at now: ContinuousClock.Instant) {
        if counts.count >= Self.capacity { counts.removeAll(keepingCapacity: true) }
        counts[trigram] = (count, now)
    }
}
