import Testing

@testable import SearchIndex

@Suite("Asking the content index for the trigrams worth their lists")
struct TrigramPlanTests {
    /// How many of 100,000 generated files hold each trigram of `zebracorn` (counted on the
    /// content benchmark's tree).
    static let zebracorn = [
        "zeb": 10_677, "ebr": 3_732, "bra": 95_769, "rac": 17_772, "aco": 99_530, "cor": 18_150,
        "orn": 20_584,
    ]

    static func plan(_ words: [String], files: Int = 100_000, counts: [String: Int]) -> [String] {
        TrigramPlan(literals: words.map { Array($0.utf8) }, files: files) { counts[$0] ?? files }.trigrams
    }

    @Test("a rare word is asked for by its rarest trigrams only")
    func rareWord() {
        #expect(Self.plan(["zebracorn"], counts: Self.zebracorn) == ["zeb", "ebr", "rac", "cor"])
    }

    @Test("a word whose every trigram is common keeps them all")
    func commonWord() {
        let counts = ["rep": 40_000, "epo": 36_000, "por": 45_000, "ort": 50_000]
        #expect(Self.plan(["report"], counts: counts) == ["rep", "epo", "por", "ort"])
    }

    @Test("a trigram no file holds is asked for alone: nothing else can narrow an empty answer")
    func absentTrigram() {
        var counts = Self.zebracorn
        counts["cor"] = 0
        #expect(Self.plan(["zebracorn"], counts: counts) == ["cor"])
    }

    @Test("several words are narrowed together: once the rare one narrows enough, the common one is left out")
    func severalWords() {
        let quarterly = [
            "qua": 5_000, "uar": 4_000, "art": 30_000, "rte": 20_000, "ter": 60_000, "erl": 8_000,
            "rly": 6_000,
        ]
        let report = ["rep": 40_000, "epo": 36_000, "por": 45_000, "ort": 50_000]
        let counts = quarterly.merging(report) { first, _ in first }
        #expect(
            Self.plan(["quarterly", "report"], counts: counts) == ["qua", "uar", "erl", "rly"])
        // A word in every file narrows nothing, and its lists are read for nothing.
        #expect(
            Self.plan(["report", "quarterly"], counts: report) == ["rep", "epo", "por", "ort"])
    }

    @Test("trigrams are characters, not bytes")
    func characters() {
        #expect(Self.plan(["日本語の"], counts: ["日本語": 5_000, "本語の": 7_000]) == ["日本語", "本語の"])
        #expect(Self.plan(["a\"bc"], counts: ["a\"b": 1_000, "\"bc": 2_000]) == ["a\"b", "\"bc"])
    }

    @Test("a trigram twice in a word narrows once")
    func repeatedTrigram() {
        // `ana` at 1 and 3: counted once, and its second place adds nothing to the narrowing.
        let counts = ["ban": 50, "ana": 20, "nan": 60_000]
        #expect(Self.plan(["banana"], counts: counts) == ["ban", "ana"])
    }

    @Test("with no counts yet, every trigram of every word is asked for, each once")
    func everyTrigram() {
        let query = TrigramPlan.everyTrigram(of: [Array("banana".utf8), Array("an".utf8), Array("nab".utf8)])
        #expect(query == ["ban", "ana", "nan", "nab"])
    }
}
