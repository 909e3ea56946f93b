/// Reads a regular expression's text into the tree ``LinearRegex`` compiles (see there for the
/// syntax). A recursive descent: a choice of sequences of items, each item perhaps repeated.
struct LinearRegexParser {
    /// A parsed expression.
    indirect enum Node {
        case empty
        case set(LinearRegex.CharacterSet)
        case lineStart
        case lineEnd
        case wordBoundary(Bool)
        case sequence([Node])
        case choice([Node])
        case repeated(Node, minimum: Int, maximum: Int?, greedy: Bool)
    }

    private let characters: [Unicode.Scalar]
    private var index = 0
    private var depth = 0

    /// The largest count a `{n,m}` may give.
    static let maximumCount = 1_000
    /// The deepest nesting of groups.
    static let maximumDepth = 100

    init(_ pattern: String) {
        characters = Array(pattern.unicodeScalars)
    }

    static func refused(_ reason: String) -> SearchIndexError {
        SearchIndexError(.badPattern, "Not a regular expression: \(reason)")
    }

    mutating func parse() throws(SearchIndexError) -> Node {
        let node = try choice()
        if index < characters.count {
            // Only an unmatched `)` stops a choice early.
            throw Self.refused("unmatched ')' at character \(index + 1)")
        }
        return node
    }

    private var current: Unicode.Scalar? { index < characters.count ? characters[index] : nil }

    private mutating func choice() throws(SearchIndexError) -> Node {
        var options = [try sequence()]
        while current == "|" {
            index += 1
            options.append(try sequence())
        }
        return options.count == 1 ? options[0] : .choice(options)
    }

    private mutating func sequence() throws(SearchIndexError) -> Node {
        var items: [Node] = []
        while let character = current, character != "|", character != ")" {
            var item = try atom()
            item = try quantified(item)
            items.append(item)
        }
        return items.isEmpty ? .empty : items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func quantified(_ item: Node) throws(SearchIndexError) -> Node {
        var item = item
        while let character = current {
            var minimum = 0
            var maximum: Int?
            switch character {
            case "*": index += 1
            case "+":
                minimum = 1
                index += 1
            case "?":
                maximum = 1
                index += 1
            case "{":
                guard let (low, high) = try count() else { return item }
                minimum = low
                maximum = high
            default:
                return item
            }
            switch item {
            case .empty, .lineStart, .lineEnd, .wordBoundary:
                throw Self.refused("nothing to repeat before character \(index)")
            default: break
            }
            var greedy = true
            if current == "?" {
                greedy = false
                index += 1
            } else if current == "+" {
                throw Self.refused("possessive quantifiers (such as '*+') are not supported")
            }
            item = .repeated(item, minimum: minimum, maximum: maximum, greedy: greedy)
        }
        return item
    }

    /// `{n}`, `{n,}` or `{n,m}` at the current character, read past; `nil` (nothing read) when
    /// the brace does not start one: it is then a literal brace, as in most engines.
    private mutating func count() throws(SearchIndexError) -> (Int, Int?)? {
        var cursor = index + 1
        func number() -> Int? {
            var value: Int?
            while cursor < characters.count, let digit = Self.digitValue(characters[cursor]) {
                value = min((value ?? 0) * 10 + digit, Self.maximumCount + 1)
                cursor += 1
            }
            return value
        }
        guard let low = number() else { return nil }
        var high: Int? = low
        if cursor < characters.count && characters[cursor] == "," {
            cursor += 1
            high = number()
        }
        guard cursor < characters.count && characters[cursor] == "}" else { return nil }
        index = cursor + 1
        if low > Self.maximumCount || (high ?? 0) > Self.maximumCount {
            throw Self.refused("a count above \(Self.maximumCount)")
        }
        if let high, high < low { throw Self.refused("a count of {\(low),\(high)}: the larger comes second") }
        return (low, high)
    }

    private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        scalar.value >= 48 && scalar.value <= 57 ? Int(scalar.value - 48) : nil
    }

    private mutating func atom() throws(SearchIndexError) -> Node {
        guard let character = current else { return .empty }
        index += 1
        switch character {
        case "(":
            if current == "?" {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                switch next {
                case ":": index += 2
                case "=", "!": throw Self.refused("look-ahead ('(?=', '(?!') is not supported")
                case "<":
                    let after = index + 2 < characters.count ? characters[index + 2] : nil
                    if after == "=" || after == "!" {
                        throw Self.refused("look-behind ('(?<=', '(?<!') is not supported")
                    }
                    // A named group: the name is read past, the group kept.
                    index += 2
                    while let name = current, name != ">" { index += 1 }
                    guard current == ">" else { throw Self.refused("a group's name is not closed with '>'") }
                    index += 1
                default:
                    throw Self.refused(
                        "'(?' followed by \(next.map { "'\($0)'" } ?? "nothing") is not supported")
                }
            }
            depth += 1
            guard depth <= Self.maximumDepth else {
                throw Self.refused("groups nested deeper than \(Self.maximumDepth)")
            }
            let inner = try choice()
            depth -= 1
            guard current == ")" else { throw Self.refused("missing ')'") }
            index += 1
            return inner
        case ")":
            throw Self.refused("unmatched ')'")
        case "[":
            return .set(try characterClass())
        case ".":
            return .set(.init(items: [.any]))
        case "^":
            return .lineStart
        case "$":
            return .lineEnd
        case "\\":
            return try escape(inClass: false).node
        case "*", "+", "?":
            throw Self.refused("nothing to repeat before '\(character)'")
        default:
            return .set(.init(items: [.range(character.value, character.value)]))
        }
    }

    /// What an escape stands for (the backslash read): a set, or an assertion outside a class.
    private mutating func escape(
        inClass: Bool
    ) throws(SearchIndexError) -> (node: Node, set: LinearRegex.CharacterSet?) {
        guard let character = current else { throw Self.refused("a '\\' at the end") }
        index += 1
        func single(_ value: UInt32) -> (Node, LinearRegex.CharacterSet?) {
            let set = LinearRegex.CharacterSet(items: [.range(value, value)])
            return (.set(set), set)
        }
        func items(_ item: LinearRegex.CharacterSet.Item, negated: Bool) -> (Node, LinearRegex.CharacterSet?)
        {
            let set =
                negated
                ? LinearRegex.CharacterSet(items: [], negatedItems: [item])
                : LinearRegex.CharacterSet(items: [item])
            return (.set(set), set)
        }
        switch character {
        case "d": return items(.digit, negated: false)
        case "D": return items(.digit, negated: true)
        case "w": return items(.word, negated: false)
        case "W": return items(.word, negated: true)
        case "s": return items(.space, negated: false)
        case "S": return items(.space, negated: true)
        case "t": return single(9)
        case "n": return single(10)
        case "r": return single(13)
        case "f": return single(12)
        case "v": return single(11)
        case "b" where inClass: return single(8)
        case "b": return (.wordBoundary(true), nil)
        case "B" where !inClass: return (.wordBoundary(false), nil)
        case "x":
            return single(try hexadecimal())
        case "1"..."9":
            throw Self.refused("back-references (such as '\\1') are not supported")
        case "k":
            throw Self.refused("named back-references ('\\k') are not supported")
        default:
            if Self.digitValue(character) != nil || (character.properties.isAlphabetic && character.isASCII) {
                throw Self.refused("'\\\(character)' is not a known escape")
            }
            return single(character.value)
        }
    }

    /// `\xHH` or `\x{H…}`, after the `x`.
    private mutating func hexadecimal() throws(SearchIndexError) -> UInt32 {
        var digits = ""
        if current == "{" {
            index += 1
            while let character = current, character != "}" {
                digits.unicodeScalars.append(character)
                index += 1
            }
            guard current == "}" else { throw Self.refused("'\\x{' is not closed") }
            index += 1
        } else {
            for _ in 0..<2 {
                guard let character = current else { break }
                digits.unicodeScalars.append(character)
                index += 1
            }
        }
        guard let value = UInt32(digits, radix: 16), Unicode.Scalar(value) != nil else {
            throw Self.refused("'\\x\(digits)' is not a character")
        }
        return value
    }

    /// A class, after its `[`, through its `]`.
    private mutating func characterClass() throws(SearchIndexError) -> LinearRegex.CharacterSet {
        var set = LinearRegex.CharacterSet(items: [])
        if current == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard let character = current else { throw Self.refused("missing ']'") }
            if character == "]" && !first {
                index += 1
                return set
            }
            first = false
            index += 1
            var low: UInt32
            if character == "\\" {
                let (_, escaped) = try escape(inClass: true)
                guard let escaped else { throw Self.refused("an assertion inside a class") }
                if escaped.items.count == 1, case .range(let value, _) = escaped.items[0],
                    escaped.negatedItems.isEmpty
                {
                    low = value
                } else {
                    set.items += escaped.items
                    set.negatedItems += escaped.negatedItems
                    continue
                }
            } else if character == "[" && current == ":" {
                throw Self.refused("POSIX classes ('[:alpha:]') are not supported: use \\w, \\d or \\s")
            } else {
                low = character.value
            }
            // A range, unless the '-' ends the class.
            if current == "-", index + 1 < characters.count, characters[index + 1] != "]" {
                index += 1
                guard let end = current else { throw Self.refused("missing ']'") }
                index += 1
                var high = end.value
                if end == "\\" {
                    let (_, escaped) = try escape(inClass: true)
                    guard let escaped, escaped.items.count == 1, case .range(let value, _) = escaped.items[0]
                    else {
                        throw Self.refused("a range must end with a character")
                    }
                    high = value
                }
                guard high >= low else { throw Self.refused("a range out of order in a class") }
                set.items.append(.range(low, high))
            } else {
                set.items.append(.range(low, low))
            }
        }
    }
}
