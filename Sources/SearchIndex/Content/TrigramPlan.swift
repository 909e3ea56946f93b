/// Which of a pattern's trigrams the content index is asked for. Every file the index names is
/// read and matched again before it is answered, so the index need not be asked for every
/// trigram of the pattern, only for enough of them to leave few files to read; and the common
/// trigrams are the dear ones to ask for. In 100,000 files of generated prose, `aco` is in 99,530
/// files: FTS5 reads its 531,000 places to answer the phrase `"zebracorn"` (3–6 ms), while
/// `"zebr" AND "rac" AND "cor"`, from its four rarest trigrams, names the same 3 files in 1 ms.
///
/// The trigrams are taken rarest first, while each still pays for itself: reading a trigram's
/// list of files costs about 1/``costRatio`` of reading one file, and taking it is expected to
/// leave `candidates × frequency / files` files to read of the `candidates` left before it
/// (as if trigrams apart were independent; one beside a trigram already taken is taken to narrow
/// no further than its own count). Once fewer than ``enoughCandidates`` are expected, or the
/// next trigram's list costs more than the reads it saves, the rest are left out. A common word
/// keeps all its trigrams (its every trigram saves thousands of reads). Trigrams that lie side by
/// side in one literal are asked for as one phrase (`"zebr"`: `zeb` then `ebr`), so the index
/// checks their places too.
struct TrigramPlan: Equatable {
    /// The FTS5 expression: each run of chosen trigrams as a phrase, all required.
    let query: String

    /// How many times more reading one file costs than reading one file's entry in a
    /// trigram's list (a 12 KB file read and matched: about 25 µs; an entry: about 60 ns).
    static let costRatio = 100.0
    /// Fewer files than this left to read: no further trigram is worth its list.
    static let enoughCandidates = 16.0

    /// A plan for `literals` (folded runs of three or more characters every match holds) over
    /// `files` text files, `frequency` telling how many files hold a trigram.
    init(literals: [[UInt8]], files: Int, frequency: (String) -> Int) {
        struct Trigram {
            var literal: Int
            var offset: Int
            var text: String
            var frequency: Int
        }
        let scalars = literals.map { Array(String(decoding: $0, as: UTF8.self).unicodeScalars) }
        var known: [String: Int] = [:]
        var trigrams: [Trigram] = []
        for (literal, characters) in scalars.enumerated() where characters.count >= 3 {
            for offset in 0...(characters.count - 3) {
                let text = Self.text(characters[offset..<offset + 3])
                let count = known[text] ?? frequency(text)
                known[text] = count
                trigrams.append(Trigram(literal: literal, offset: offset, text: text, frequency: count))
            }
        }
        // Stable: among equally rare trigrams the earlier one is taken first.
        let rarestFirst = trigrams.enumerated().sorted {
            ($0.element.frequency, $0.offset) < ($1.element.frequency, $1.offset)
        }.map(\.element)
        let total = Double(max(files, 1))
        var candidates = total
        var chosen: [[Int]] = Array(repeating: [], count: literals.count)
        var asked = Set<String>()
        for trigram in rarestFirst {
            // The same trigram twice narrows no further.
            guard asked.insert(trigram.text).inserted else { continue }
            let share = min(Double(trigram.frequency) / total, 1)
            let first = chosen.allSatisfy(\.isEmpty)
            guard
                first
                    || (candidates >= Self.enoughCandidates
                        && Double(trigram.frequency) < candidates * (1 - share) * Self.costRatio)
            else { break }
            let besideOne =
                chosen[trigram.literal].contains(trigram.offset - 1)
                || chosen[trigram.literal].contains(trigram.offset + 1)
            chosen[trigram.literal].append(trigram.offset)
            // Two trigrams side by side share two characters: where one is, the other mostly is.
            candidates = besideOne ? min(candidates, Double(trigram.frequency)) : candidates * share
        }
        var phrases: [String] = []
        for (literal, offsets) in chosen.enumerated() {
            var runStart: Int?
            var previous = -2
            for offset in offsets.sorted() + [Int.max] {
                if offset != previous + 1 {
                    if let start = runStart {
                        phrases.append(Self.phrase(Self.text(scalars[literal][start..<previous + 3])))
                    }
                    runStart = offset
                }
                previous = offset
            }
        }
        query = phrases.joined(separator: " AND ")
    }

    private static func text(_ characters: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: characters)
        return String(text)
    }

    /// `text` as an FTS5 phrase (a double quote inside doubled).
    static func phrase(_ text: String) -> String {
        "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
