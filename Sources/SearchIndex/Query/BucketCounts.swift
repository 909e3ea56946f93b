/// How many of a query's pair buckets list each name of a run of numbers: ``NameGrams/planeCount``
/// bit planes over the words that hold the run (a bit a name in each plane), the count's bits.
///
/// Each half of a reading in halves counts its own run into a value of its own, so the two
/// threads share nothing they write and need not wait for each other between the counting and
/// the reading (see ``NameGrams/scatteredHits(for:matcher:under:inHalves:)``).
struct BucketCounts {
    /// The words counted, in the numbering of the whole catalog (word `w` holds names `64 * w`
    /// to `64 * w + 63`).
    let words: Range<Int>
    /// The planes, the count's lowest bit first, each `words.count` words long.
    private var planes: [UInt64]

    /// Counts, for each name of the words `words`, how many of `buckets`' lists (read from
    /// `grams`) hold it.
    init(of buckets: [Int], in grams: NameGrams, words: Range<Int>) {
        self.words = words
        var planes = [UInt64](repeating: 0, count: words.count * NameGrams.planeCount)
        var scratch = [UInt64](repeating: 0, count: words.count)
        grams.withPostings { postings in
            planes.withUnsafeMutableBufferPointer { planes in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    for bucket in buckets {
                        var list = grams.cursor(bucket, fromWord: words.lowerBound)
                        list.count(
                            into: planes, scratch: scratch, words: words.count, origin: words.lowerBound,
                            planeCount: NameGrams.planeCount, from: postings, within: words)
                    }
                }
            }
        }
        self.planes = planes
    }

    /// Lends the planes to `body`, which reads word `w` (of the whole numbering) of plane `p`
    /// at `p * words.count + w - words.lowerBound`.
    func withPlanes<Result>(_ body: (UnsafeBufferPointer<UInt64>) -> Result) -> Result {
        planes.withUnsafeBufferPointer(body)
    }
}
