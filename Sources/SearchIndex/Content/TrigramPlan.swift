/// Which of a pattern's trigrams the content index is asked for. Every file the index names is
/// read and matched again before it is answered, so the index need not be asked for every
/// trigram of the pattern, only for enough of them to leave few files to read; and the common
/// trigrams are the dear ones to ask for. In 100,000 files of generated prose, `aco` is in 99,530
/// files and `bra` in 95,769: asking for `zebracorn` by all seven of its trigrams reads both lists
/// whole, while `zeb`, `ebr`, `rac` and `cor`, its four rarest, leave 18 files to read (3 of
/// which hold the word) from lists a fifth as long.
///
/// The trigrams are taken rarest first, while each still pays for itself: reading a trigram's
/// list of files costs about 1/``costRatio`` of reading one file, and taking it is expected to
/// leave `candidates × frequency / files` files to read of the `candidates` left before it
/// (as if trigrams apart were independent; one beside a trigram already taken is taken to narrow
/// no further than its own count). Once fewer than ``enoughCandidates`` are expected, or the
/// next trigram's list costs more than the reads it saves, the rest are left out. A common word
/// keeps all its trigrams (its every trigram saves thousands of reads).
///
/// The index keeps no places, so each trigram is asked for on its own: a file holding them all,
/// anywhere, is a candidate.
struct TrigramPlan {
    /// The chosen trigrams (folded, three characters each), all required.
    let trigrams: [String]

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
        let scalars = literals.map(Self.characters)
        var known: [String: Int] = [:]
        var found: [Trigram] = []
        for (literal, characters) in scalars.enumerated() where characters.count >= 3 {
            for offset in 0...(characters.count - 3) {
                let text = Self.text(characters[offset..<offset + 3])
                let count = known[text] ?? frequency(text)
                known[text] = count
                found.append(Trigram(literal: literal, offset: offset, text: text, frequency: count))
            }
        }
        // Stable: among equally rare trigrams the earlier one is taken first.
        let rarestFirst = found.enumerated().sorted {
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
        trigrams = chosen.enumerated().flatMap { literal, offsets in
            offsets.sorted().map { Self.text(scalars[literal][$0..<$0 + 3]) }
        }
    }

    /// Every trigram of `literals`, each once: the most an index can narrow by them, for when no
    /// counts are known yet.
    static func everyTrigram(of literals: [[UInt8]]) -> [String] {
        var seen = Set<String>()
        return literals.flatMap { literal -> [String] in
            let characters = Self.characters(literal)
            guard characters.count >= 3 else { return [] }
            return (0...(characters.count - 3)).map { Self.text(characters[$0..<$0 + 3]) }
        }
        .filter { seen.insert($0).inserted }
    }

    private static func characters(_ literal: [UInt8]) -> [Unicode.Scalar] {
        Array(String(decoding: literal, as: UTF8.self).unicodeScalars)
    }

    private static func text(_ characters: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: characters)
        return String(text)
    }
}
