/// A shell glob matched against one name (not a path): `*` any run of characters, `?` one
/// character, `[abc]`, `[a-z]` and `[!abc]` a class, `\` escapes the next character.
///
/// ```swift
/// NamePattern("*.log").matches("server.log")      // true
/// NamePattern("node_modules").matches("node_modules") // true
/// ```
public struct NamePattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// Whether letters match regardless of case.
    public let ignoresCase: Bool
    private let tokens: [Token]

    private enum Token: Sendable, Hashable {
        case literal(Character)
        case anyOne
        case anyRun
        case characterClass(negated: Bool, items: [ClassItem])
    }

    private enum ClassItem: Sendable, Hashable {
        case single(Character)
        case range(Character, Character)
    }

    /// Parses a glob. An unclosed `[` is taken literally.
    public init(_ pattern: String, ignoresCase: Bool = false) {
        self.pattern = pattern
        self.ignoresCase = ignoresCase
        let characters = Array(ignoresCase ? pattern.lowercased() : pattern)
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "*":
                if tokens.last != .anyRun { tokens.append(.anyRun) }
            case "?":
                tokens.append(.anyOne)
            case "\\" where index + 1 < characters.count:
                index += 1
                tokens.append(.literal(characters[index]))
            case "[":
                if let (token, end) = Self.parseClass(characters, from: index) {
                    tokens.append(token)
                    index = end
                } else {
                    tokens.append(.literal("["))
                }
            default:
                tokens.append(.literal(character))
            }
            index += 1
        }
        self.tokens = tokens
    }

    /// Parses `[...]` starting at `start`; returns the token and the index of the closing `]`.
    private static func parseClass(_ characters: [Character], from start: Int) -> (Token, Int)? {
        var index = start + 1
        var negated = false
        if index < characters.count, characters[index] == "!" || characters[index] == "^" {
            negated = true
            index += 1
        }
        var items: [ClassItem] = []
        var first = true
        while index < characters.count {
            let character = characters[index]
            if character == "]" && !first { return (.characterClass(negated: negated, items: items), index) }
            first = false
            if index + 2 < characters.count, characters[index + 1] == "-", characters[index + 2] != "]" {
                items.append(.range(character, characters[index + 2]))
                index += 3
            } else {
                items.append(.single(character))
                index += 1
            }
        }
        return nil
    }

    /// Whether the whole name matches.
    public func matches(_ name: some StringProtocol) -> Bool {
        let characters = Array(ignoresCase ? name.lowercased() : String(name))
        // Iterative matching with one backtrack point for the last `*`: linear for typical globs.
        var t = 0
        var c = 0
        var starToken = -1
        var starCharacter = 0
        while c < characters.count {
            if t < tokens.count {
                switch tokens[t] {
                case .anyRun:
                    starToken = t
                    starCharacter = c
                    t += 1
                    continue
                case .anyOne:
                    t += 1
                    c += 1
                    continue
                case .literal(let literal) where literal == characters[c]:
                    t += 1
                    c += 1
                    continue
                case .characterClass(let negated, let items)
                where Self.matches(characters[c], items) != negated:
                    t += 1
                    c += 1
                    continue
                default:
                    break
                }
            }
            guard starToken >= 0 else { return false }
            t = starToken + 1
            starCharacter += 1
            c = starCharacter
        }
        while t < tokens.count, tokens[t] == .anyRun { t += 1 }
        return t == tokens.count
    }

    private static func matches(_ character: Character, _ items: [ClassItem]) -> Bool {
        items.contains { item in
            switch item {
            case .single(let single): return single == character
            case .range(let low, let high): return low <= character && character <= high
            }
        }
    }

    /// The pattern as written.
    public var description: String { pattern }
}
