import Testing

@testable import SearchIndex

@Suite("Regular expressions matched in linear time")
struct LinearRegexTests {
    /// The UTF-16 ranges of `pattern`'s matches in `text`.
    static func ranges(_ pattern: String, _ text: String, ignoresCase: Bool = false) throws -> [Range<Int>] {
        try LinearRegex(pattern, ignoresCase: ignoresCase).matches(in: text)
    }

    /// The matched texts, as the standard library's backtracking `Regex` finds them, for
    /// comparison: the same leftmost, first-preferred matches.
    static func reference(_ pattern: String, _ text: String) throws -> [String] {
        try text.matches(of: Regex(pattern).matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple))
            .filter { !$0.range.isEmpty }.prefix(16).map { String(text[$0.range]) }
    }

    static func texts(_ pattern: String, _ text: String) throws -> [String] {
        let units = Array(text.utf16)
        return try ranges(pattern, text).map { String(decoding: units[$0], as: UTF16.self) }
    }

    @Test(
        "finds what a backtracking engine finds, first-preferred and leftmost",
        arguments: [
            ("zebr[a-z]+n", "a zebracorn and a zebrain"),
            ("a|ab", "abab"),
            ("ab|a", "abab"),
            ("a*?b", "aaab ab"),
            ("a+?", "aaa"),
            ("(foo|foobar)baz", "foobarbaz"),
            (#"load\w*\(\d+\)"#, "x = loadAll(12) + load(3)"),
            ("^the", "the theme"),
            ("end$", "end of the end"),
            ("x{2,3}", "xxxxxxx"),
            ("x{2}y?", "xxyxxxy"),
            ("[^a-c ]+", "abc def cab ghi"),
            (#"[\d.]+"#, "v1.25.3 and 2.0"),
            (#"\s+\S"#, "a  b\tc"),
            ("(?:ab)+", "abababx"),
            ("colou?r", "color colour colouur"),
            ("é+", "café éé"),
            (".", "日本"),
            (#"a.c"#, "abc a-c a\u{301}c"),
        ])
    func findsWhatBacktrackingFinds(pattern: String, text: String) throws {
        #expect(try Self.texts(pattern, text) == Self.reference(pattern, text), "\(pattern) in \(text)")
    }

    @Test("a word boundary is between a letter, digit or underscore and anything else, as in PCRE")
    func wordBoundaries() throws {
        // (The standard library's `Regex` follows Unicode's word rules, in which `cat's` is one
        // word: this is the simpler rule of grep and PCRE.)
        #expect(try Self.ranges(#"\bcat\b"#, "cat concat cat's bobcat") == [0..<3, 11..<14])
        #expect(try Self.ranges(#"\Bcat"#, "cat concat bobcat") == [7..<10, 14..<17])
        #expect(try Self.ranges(#"\bété\b"#, "un été, l'été") == [3..<6, 10..<13])
        #expect(
            try Self.ranges(#"^cat"#, "a cat").isEmpty && Self.ranges(#"\bcat\b"#, "concat cat") == [7..<10])
    }

    @Test("letters of either case match when asked, classes and ranges too")
    func ignoresCase() throws {
        #expect(try Self.ranges("zebracorn", "ZebraCorn", ignoresCase: true) == [0..<9])
        #expect(try Self.ranges("[a-z]+", "ABC def", ignoresCase: true) == [0..<3, 4..<7])
        #expect(try Self.ranges("CAFÉ", "café", ignoresCase: true) == [0..<4])
        #expect(try Self.ranges("zebracorn", "ZebraCorn").isEmpty, "case counts unless asked")
    }

    @Test("offsets are UTF-16 units, past characters of two units")
    func utf16Offsets() throws {
        // 😀 is two UTF-16 units.
        #expect(try Self.ranges("corn", "😀 corn") == [3..<7])
    }

    @Test(
        "expressions that take a backtracking engine exponential or polynomial time finish at once",
        arguments: [
            ("(a+)+$", String(repeating: "a", count: 5_000) + "b"),
            ("(a|a)*$", String(repeating: "a", count: 5_000) + "b"),
            ("(x*)*y", String(repeating: "x", count: 5_000)),
            (".*.*.*.*z", String(repeating: "ab", count: 20_000)),
            ("(-+)+$", String(repeating: "-", count: 5_000) + " "),
        ])
    func hostileExpressionsFinish(pattern: String, text: String) throws {
        let clock = ContinuousClock()
        let regex = try LinearRegex(pattern)
        let took = clock.measure { #expect(regex.matches(in: text).isEmpty) }
        // Linear: a few million steps, well under a second even in a debug build (a
        // backtracking engine takes hours on the first ones at 30 characters).
        #expect(took < .seconds(5), "\(pattern) took \(took)")
    }

    @Test(
        "what only backtracking does, or what is not an expression, is refused with a reason",
        arguments: [
            (#"(a)\1"#, "back-references"),
            ("foo(?=bar)", "look-ahead"),
            ("(?<=foo)bar", "look-behind"),
            ("([a", "missing ']'"),
            ("(ab", "missing ')'"),
            ("ab)", "unmatched ')'"),
            ("*a", "nothing to repeat"),
            ("a{5,2}", "the larger comes second"),
            ("a{2000}", "a count above 1000"),
            ("a**+", "possessive"),
            (#"a\"#, "at the end"),
            (#"\q"#, "not a known escape"),
            ("(a{1000}){1000}", "too large"),
        ])
    func refusesWithAReason(pattern: String, reason: String) {
        do {
            _ = try LinearRegex(pattern)
            Issue.record("\(pattern) was accepted")
        } catch {
            #expect(error.code == .badPattern)
            #expect(error.message.contains(reason), "\(pattern): \(error.message)")
        }
    }

    @Test("a brace that starts no count is a literal brace; an empty match is not given")
    func literalBracesAndEmptyMatches() throws {
        #expect(try Self.texts("a{x}", "a{x}") == ["a{x}"])
        #expect(try Self.texts("x*", "axxb") == ["xx"])
        #expect(try LinearRegex("^$").matches(in: "").isEmpty)
        #expect(try LinearRegex("^$").isMatched(in: ""))
    }

    @Test(
        "random expressions of the syntax's own characters compile or are refused, and none traps on random text"
    )
    func randomExpressions() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"ab()[]{}|*+?.^$\-,:=!<>0123456789dDwWsSbBxk é日"#.unicodeScalars)
        var compiled = 0
        for _ in 0..<3_000 {
            var pattern = ""
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                pattern.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
            }
            do {
                let regex = try LinearRegex(pattern, ignoresCase: Bool.random(using: &generator))
                compiled += 1
                let text = String(
                    String.UnicodeScalarView((0..<40).map { _ in alphabet.randomElement(using: &generator)! })
                )
                for range in regex.matches(in: text) {
                    #expect(
                        range.lowerBound < range.upperBound && range.upperBound <= text.utf16.count,
                        "\(pattern)")
                }
            } catch {
                #expect(
                    error.code == .badPattern && error.message.hasPrefix("Not a regular expression: "),
                    "\(pattern)")
            }
        }
        #expect(compiled > 300, "enough of them compile to be matched: \(compiled)")
    }
}
