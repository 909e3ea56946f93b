import Preview
import TestSupport
import Testing

/// The inputs known to make Markdown renderers slow or crash (deep nesting, unclosed openers),
/// each at 10,000: linear time, no stack overflow.
@Suite("Markdown renders pathological input in linear time")
struct MarkdownPathologicalTests {
    /// What a pathological document of size `n` looks like, by name.
    static let inputs: [(name: String, make: @Sendable (Int) -> String)] = [
        ("nested brackets", { String(repeating: "[", count: $0) + "a" + String(repeating: "]", count: $0) }),
        ("unclosed brackets", { String(repeating: "[", count: $0) }),
        ("unclosed image openers", { String(repeating: "![", count: $0) }),
        ("unclosed inline links", { String(repeating: "[a](", count: $0) }),
        ("nested emphasis", { String(repeating: "*", count: $0) + "a" + String(repeating: "*", count: $0) }),
        ("alternating emphasis openers", { String(repeating: "*a _b ", count: $0) }),
        ("unmatched underscores", { String(repeating: "_a ", count: $0) + "_" }),
        ("strikethrough runs", { String(repeating: "~~a ", count: $0) }),
        ("nested block quotes", { String(repeating: ">", count: $0) + " a" }),
        ("a run of backticks", { String(repeating: "`", count: $0) }),
        (
            "unmatched backtick runs of many lengths",
            {
                (0..<($0 / 10)).map { String(repeating: "`", count: $0 % 20 + 1) }.joined(separator: " a ")
            }
        ),
        ("unclosed HTML comments", { String(repeating: "<!--", count: $0) }),
        ("unclosed attribute quotes", { String(repeating: "<a x=\"", count: $0) }),
        ("link closers", { String(repeating: "](", count: $0) }),
        ("nested list markers", { String(repeating: "- ", count: $0) + "a" }),
        (
            "bare URL with parentheses",
            { "www.a.b/" + String(repeating: "(", count: $0) + String(repeating: ")", count: $0) }
        ),
        ("entity-like text", { String(repeating: "&a", count: $0) }),
    ]

    /// The best of three renders of `markdown`, in seconds.
    static func seconds(_ markdown: String) -> Double {
        let clock = ContinuousClock()
        var best = Duration.seconds(1_000)
        for _ in 0..<3 {
            let start = clock.now
            _ = MarkdownRenderer.html(markdown)
            best = min(best, clock.now - start)
        }
        return Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
    }

    #if DEBUG
        /// A debug build runs the renderer about ten times slower than the release build people run.
        static let limit = 0.5
    #else
        static let limit = 0.05
    #endif

    @Test(
        "10,000 nested or unclosed openers render in under 50 ms (release build) and linearly",
        .enabled(
            if: TimingSensitive.runsHere, "timing tests run apart: Scripts/test, BROWSEY_TIMING_TESTS=1"),
        arguments: inputs.map(\.name))
    func pathological(name: String) {
        let make = Self.inputs.first { $0.name == name }!.make
        let large = Self.seconds(make(10_000))
        #expect(large < Self.limit, "\(name): \(large * 1000) ms")
        // Ten times the input may cost about ten times the time (noise allowing), never a hundred.
        let small = Self.seconds(make(1_000))
        #expect(
            large < max(small * 40, 0.005),
            "\(name): 1,000 in \(small * 1000) ms, 10,000 in \(large * 1000) ms")
    }

    @Test(
        "10,000 nested or unclosed openers never take seconds, even on a busy machine",
        arguments: inputs.map(\.name))
    func neverSeconds(name: String) {
        // A quadratic step takes tens of seconds here (10,000 nested list markers once took 23 s).
        let make = Self.inputs.first { $0.name == name }!.make
        let seconds = Self.seconds(make(10_000))
        #expect(seconds < 3, "\(name): \(seconds) s")
    }

    @Test("a document nested 10,000 deep renders without overflowing the stack")
    func deepNesting() {
        let quotes = MarkdownRenderer.html(String(repeating: "> ", count: 10_000) + "deep")
        #expect(quotes.components(of: "<blockquote>") == 10_000)
        let lists = MarkdownRenderer.html(String(repeating: "- ", count: 10_000) + "deep")
        #expect(lists.components(of: "<ul>") == 10_000)
        let emphasis = MarkdownRenderer.html(
            String(repeating: "*a ", count: 5_000) + String(repeating: "b*", count: 5_000))
        #expect(emphasis.components(of: "<em>") > 1_000)
        let links = MarkdownRenderer.html(
            String(repeating: "[", count: 10_000) + "a" + String(repeating: "](b)", count: 10_000))
        #expect(links.components(of: "<a href") == 1)
    }
}

extension String {
    fileprivate func components(of part: String) -> Int { ranges(of: part).count }
}
