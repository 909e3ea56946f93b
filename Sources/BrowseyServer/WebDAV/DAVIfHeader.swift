/// A parsed `If:` header (RFC 4918, section 10.4): lists of conditions on lock tokens and
/// entity tags, each list optionally tagged with the resource it is about.
///
/// The header holds when at least one list holds; a list holds when every condition in it
/// does. A state token holds when a live lock with that token applies to the list's resource;
/// an entity tag when it is the resource's current one. `Not` turns a condition around.
struct DAVIfHeader: Sendable {
    /// One condition of a list.
    struct Condition: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// A state token (`<opaquelocktoken:…>`, or any URI such as `<DAV:no-lock>`).
            case token(String)
            /// An entity tag, with its quotes (`"abc"`).
            case etag(String)
        }
        let negated: Bool
        let kind: Kind
    }

    /// One parenthesized list, with the resource its tag names (a raw URL), if any.
    struct List: Sendable {
        let resource: String?
        let conditions: [Condition]
    }

    let lists: [List]

    /// The tokens the client submits: every state token named without `Not`.
    var submittedTokens: Set<String> {
        var tokens: Set<String> = []
        for list in lists {
            for condition in list.conditions where !condition.negated {
                if case .token(let token) = condition.kind { tokens.insert(token) }
            }
        }
        return tokens
    }

    /// Parses the header; `nil` when it does not follow the grammar (answered 400).
    init?(_ header: String) {
        var scanner = Cursor(Array(header.utf8))
        var lists: [List] = []
        var resource: String?
        scanner.skipSpaces()
        while !scanner.atEnd {
            if scanner.peek == UInt8(ascii: "<") {
                guard let tag = scanner.delimited(UInt8(ascii: "<"), UInt8(ascii: ">")) else { return nil }
                resource = tag
            } else if scanner.peek == UInt8(ascii: "(") {
                scanner.advance()
                var conditions: [Condition] = []
                while true {
                    scanner.skipSpaces()
                    guard let next = scanner.peek else { return nil }
                    if next == UInt8(ascii: ")") {
                        scanner.advance()
                        break
                    }
                    var negated = false
                    if scanner.consume("Not") {
                        negated = true
                        scanner.skipSpaces()
                    }
                    if scanner.peek == UInt8(ascii: "<") {
                        guard let token = scanner.delimited(UInt8(ascii: "<"), UInt8(ascii: ">")) else {
                            return nil
                        }
                        conditions.append(Condition(negated: negated, kind: .token(token)))
                    } else if scanner.peek == UInt8(ascii: "[") {
                        guard let tag = scanner.delimited(UInt8(ascii: "["), UInt8(ascii: "]")) else {
                            return nil
                        }
                        conditions.append(Condition(negated: negated, kind: .etag(tag)))
                    } else {
                        return nil
                    }
                }
                guard !conditions.isEmpty else { return nil }
                lists.append(List(resource: resource, conditions: conditions))
            } else {
                return nil
            }
            scanner.skipSpaces()
        }
        guard !lists.isEmpty else { return nil }
        self.lists = lists
    }

    /// Whether the header holds. `path(of:)` turns a tagged resource into a path below the root
    /// (`nil`: not one of ours, so none of its conditions hold); `holds` answers a state token
    /// on a path, `etag` a path's current entity tag.
    func evaluate(
        requestPath: String, path: (String) -> String?, holds: (String, String) -> Bool,
        etag: (String) -> String?
    ) -> Bool {
        lists.contains { list in
            let resource: String? = list.resource.map { path($0) } ?? requestPath
            return list.conditions.allSatisfy { condition in
                let truth: Bool
                switch condition.kind {
                case .token(let token):
                    truth = resource.map { holds(token, $0) } ?? false
                case .etag(let tag):
                    truth = resource.flatMap(etag).map { Self.sameTag($0, tag) } ?? false
                }
                return truth != condition.negated
            }
        }
    }

    private static func sameTag(_ current: String, _ asked: String) -> Bool {
        func strip(_ tag: String) -> Substring { tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag) }
        return strip(current) == strip(asked)
    }

    /// A cursor over the header's bytes.
    private struct Cursor {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[index] }

        mutating func advance() { index += 1 }

        mutating func skipSpaces() {
            while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { advance() }
        }

        mutating func consume(_ word: String) -> Bool {
            let word = Array(word.utf8)
            guard index + word.count <= bytes.count, Array(bytes[index..<index + word.count]) == word else {
                return false
            }
            index += word.count
            return true
        }

        /// The text between `open` and `close` (the cursor on `open`), the cursor after `close`.
        mutating func delimited(_ open: UInt8, _ close: UInt8) -> String? {
            guard peek == open else { return nil }
            advance()
            let start = index
            while let byte = peek, byte != close { advance() }
            guard peek == close else { return nil }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            advance()
            return text
        }
    }
}
