/// A regular expression matched by running all of its automaton's threads side by side over the
/// text, a character at a time (a Pike VM): the time to search a line is at most the line's
/// length times the expression's size, whatever the expression and the text. A backtracking
/// engine (Swift's `Regex`, PCRE) can take exponential time on an expression such as `(a+)+$`
/// and a line of thirty `a`s, and cannot be stopped once it has started: a search of someone's
/// folder must never hand its thread to the folder's text.
///
/// The syntax is the common one: literals, `.`, classes (`[a-z]`, `[^0-9_]`, with `\d \w \s`
/// inside), `\d \D \w \W \s \S`, `\b \B`, `^ $` (a line's start and end), groups `( )` and
/// `(?: )`, `|`, and `* + ? {n} {n,} {n,m}`, greedy or lazy (`*?`). What only backtracking can
/// do is refused with a reason: back-references (`\1`) and look-arounds (`(?=`, `(?<=`, …).
/// Matches are the leftmost, and among those the one a backtracking engine would find first.
///
/// ```swift
/// let regex = try LinearRegex("zebr[a-z]+n", ignoresCase: true)
/// regex.matches(in: "A Zebracorn!")  // [2..<11]: UTF-16 offsets
/// ```
public struct LinearRegex: Sendable {
    /// One step of the automaton.
    enum Instruction: Sendable {
        /// One character in the set.
        case character(CharacterSet)
        /// Go on at both places, the first preferred.
        case split(Int, Int)
        case jump(Int)
        case lineStart
        case lineEnd
        /// `\b` (true) or `\B` (false).
        case wordBoundary(Bool)
        case match
    }

    /// A set of characters: ranges and classes, perhaps negated.
    struct CharacterSet: Sendable {
        enum Item: Sendable {
            case range(UInt32, UInt32)
            case digit
            case word
            case space
            /// Any character (`.`).
            case any
        }
        var items: [Item]
        var negatedItems: [Item] = []
        var negated = false

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            var found = items.contains { Self.item($0, holds: scalar) }
            if !found { found = negatedItems.contains { !Self.item($0, holds: scalar) } }
            return found != negated
        }

        static func item(_ item: Item, holds scalar: Unicode.Scalar) -> Bool {
            switch item {
            case .range(let low, let high): return scalar.value >= low && scalar.value <= high
            case .digit: return LinearRegex.isDigit(scalar)
            case .word: return LinearRegex.isWord(scalar)
            case .space: return scalar.properties.isWhitespace
            case .any: return true
            }
        }
    }

    let program: [Instruction]
    /// Whether letters match either case.
    public let ignoresCase: Bool

    /// The most instructions an expression may compile to (a count such as `{1000}` repeats its
    /// item that many times).
    static let maximumSize = 20_000

    /// Compiles `pattern`.
    ///
    /// - Throws: ``SearchIndexError`` `.badPattern`, saying what is wrong, for an expression
    ///   that is not one, or that uses what only a backtracking engine does.
    public init(_ pattern: String, ignoresCase: Bool = false) throws(SearchIndexError) {
        var parser = LinearRegexParser(pattern)
        let tree = try parser.parse()
        var program: [Instruction] = []
        try Self.compile(tree, into: &program)
        program.append(.match)
        self.program = program
        self.ignoresCase = ignoresCase
    }

    // MARK: Matching

    /// The ranges of up to `limit` matches in `text`, leftmost first, not overlapping, as
    /// UTF-16 offsets; an empty match is not given.
    public func matches(in text: String, limit: Int = 16) -> [Range<Int>] {
        var budget = TimeBudget(until: nil)
        return matches(in: text, limit: limit, budget: &budget)
    }

    /// The matches in `text` found as far as `budget` lasts (each thread stepped is a unit of
    /// work: a line of 250,000 characters and an expression of 2,000 steps is half a billion).
    func matches(in text: String, limit: Int, budget: inout TimeBudget) -> [Range<Int>] {
        let scalars = Array(text.unicodeScalars)
        var offsets = [Int](repeating: 0, count: scalars.count + 1)
        for (index, scalar) in scalars.enumerated() {
            offsets[index + 1] = offsets[index] + scalar.utf16.count
        }
        var found: [Range<Int>] = []
        var from = 0
        var state = SearchState(size: program.count)
        while found.count < limit, from <= scalars.count,
            let match = firstMatch(in: scalars, from: from, state: &state, budget: &budget)
        {
            if match.isEmpty {
                from = match.upperBound + 1
                continue
            }
            found.append(offsets[match.lowerBound]..<offsets[match.upperBound])
            from = match.upperBound
        }
        return found
    }

    /// Whether `text` holds a match (an empty one too).
    func isMatched(in text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var state = SearchState(size: program.count)
        var budget = TimeBudget(until: nil)
        return firstMatch(in: scalars, from: 0, state: &state, budget: &budget) != nil
    }

    /// What a search of one line keeps between its calls (their memory, made once): for each
    /// instruction, the step at which it was last added (a thread is added once a step), the
    /// stack that adding uses, and the threads at this character and at the next.
    struct SearchState {
        var added: [Int]
        var step = 0
        var stack: [(pc: Int, start: Int)] = []
        var current: [(pc: Int, start: Int)] = []
        var next: [(pc: Int, start: Int)] = []

        init(size: Int) { added = [Int](repeating: -1, count: size) }
    }

    /// The leftmost match starting at `from` or later, as scalar indices; `nil` also once
    /// `budget` is spent.
    func firstMatch(
        in scalars: [Unicode.Scalar], from: Int, state: inout SearchState, budget: inout TimeBudget
    ) -> Range<Int>? {
        var matched: Range<Int>?
        // The state's lists, taken out (not copied) and put back.
        var current: [(pc: Int, start: Int)] = []
        var next: [(pc: Int, start: Int)] = []
        swap(&current, &state.current)
        swap(&next, &state.next)
        current.removeAll(keepingCapacity: true)
        defer {
            state.current = current
            state.next = next
        }
        state.step += 1
        var position = from
        while true {
            // A new thread starting here, below every thread already running, until a match.
            if matched == nil {
                add(0, start: position, at: position, in: scalars, to: &current, state: &state)
            }
            state.step += 1
            if current.isEmpty {
                // No thread here (an assertion failed): a match may still start further on.
                if matched != nil || position >= scalars.count { break }
                position += 1
                continue
            }
            guard budget.spend(current.count) else { return nil }
            next.removeAll(keepingCapacity: true)
            let scalar: Unicode.Scalar? = position < scalars.count ? scalars[position] : nil
            var index = 0
            while index < current.count {
                let thread = current[index]
                index += 1
                switch program[thread.pc] {
                case .match:
                    matched = thread.start..<position
                    index = current.count  // the threads after this one are less preferred
                case .character(let set):
                    if let scalar, accepts(set, scalar) {
                        add(
                            thread.pc + 1, start: thread.start, at: position + 1, in: scalars, to: &next,
                            state: &state)
                    }
                default:
                    break  // only characters and matches are kept in a list
                }
            }
            swap(&current, &next)
            if position >= scalars.count { break }
            position += 1
        }
        return matched
    }

    /// Adds the thread at `pc` and every one it leads to without reading a character, in order
    /// of preference, each instruction once a step.
    private func add(
        _ pc: Int, start: Int, at position: Int, in scalars: [Unicode.Scalar],
        to list: inout [(pc: Int, start: Int)], state: inout SearchState
    ) {
        state.stack.append((pc, start))
        while let (pc, start) = state.stack.popLast() {
            guard state.added[pc] != state.step else { continue }
            state.added[pc] = state.step
            switch program[pc] {
            case .jump(let target):
                state.stack.append((target, start))
            case .split(let first, let second):
                state.stack.append((second, start))
                state.stack.append((first, start))
            case .lineStart:
                if position == 0 { state.stack.append((pc + 1, start)) }
            case .lineEnd:
                if position == scalars.count { state.stack.append((pc + 1, start)) }
            case .wordBoundary(let wanted):
                let before = position > 0 && Self.isWord(scalars[position - 1])
                let after = position < scalars.count && Self.isWord(scalars[position])
                if (before != after) == wanted { state.stack.append((pc + 1, start)) }
            case .character, .match:
                list.append((pc, start))
            }
        }
    }

    private func accepts(_ set: CharacterSet, _ scalar: Unicode.Scalar) -> Bool {
        if set.contains(scalar) { return true }
        guard ignoresCase else { return false }
        for other in Self.otherCases(of: scalar) where set.contains(other) { return true }
        return false
    }

    /// The scalar's other cases that are one scalar each.
    static func otherCases(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        if scalar.isASCII {
            let value = UInt8(truncatingIfNeeded: scalar.value)
            if value >= 65 && value <= 90 { return [Unicode.Scalar(value + 32)] }
            if value >= 97 && value <= 122 { return [Unicode.Scalar(value - 32)] }
            return []
        }
        var others: [Unicode.Scalar] = []
        for mapping in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping] {
            let scalars = mapping.unicodeScalars
            if scalars.count == 1, let other = scalars.first, other != scalar { others.append(other) }
        }
        return others
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? scalar.value >= 48 && scalar.value <= 57 : scalar.properties.numericType == .decimal
    }

    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (value >= 48 && value <= 57) || (value >= 65 && value <= 90)
                || (value >= 97 && value <= 122)
                || value == 95
        }
        return scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
    }

    // MARK: Compiling

    private static func compile(
        _ node: LinearRegexParser.Node, into program: inout [Instruction]
    )
        throws(SearchIndexError)
    {
        guard program.count <= maximumSize else {
            throw LinearRegexParser.refused("the expression is too large (more than \(maximumSize) steps)")
        }
        switch node {
        case .empty:
            break
        case .set(let set):
            program.append(.character(set))
        case .lineStart:
            program.append(.lineStart)
        case .lineEnd:
            program.append(.lineEnd)
        case .wordBoundary(let wanted):
            program.append(.wordBoundary(wanted))
        case .sequence(let nodes):
            for node in nodes { try compile(node, into: &program) }
        case .choice(let nodes):
            // split first, next; first; jump end; next: split second, …
            var jumps: [Int] = []
            for (index, node) in nodes.enumerated() {
                if index < nodes.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, -1))
                    try compile(node, into: &program)
                    jumps.append(program.count)
                    program.append(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try compile(node, into: &program)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let item, let minimum, let maximum, let greedy):
            for _ in 0..<minimum { try compile(item, into: &program) }
            if let maximum {
                // Each optional copy: split into it or past all of them.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    program.append(.split(-1, -1))
                    try compile(item, into: &program)
                }
                let end = program.count
                for split in splits {
                    program[split] = greedy ? .split(split + 1, end) : .split(end, split + 1)
                }
            } else {
                let loop = program.count
                program.append(.split(-1, -1))
                try compile(item, into: &program)
                program.append(.jump(loop))
                let end = program.count
                program[loop] = greedy ? .split(loop + 1, end) : .split(end, loop + 1)
            }
            guard program.count <= maximumSize else {
                throw LinearRegexParser.refused(
                    "the expression is too large (more than \(maximumSize) steps)")
            }
        }
    }
}
