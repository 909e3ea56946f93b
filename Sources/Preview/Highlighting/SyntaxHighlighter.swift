/// Colours source code for the viewer: comments, strings, numbers and keywords (and, in markup,
/// tags and attributes), by a small table of rules per language family, on the server.
///
/// ```swift
/// SyntaxHighlighter.html(for: "let x = 1 // one", language: "swift")
/// // <span class="hl-k">let</span> x = <span class="hl-n">1</span> <span class="hl-c">// one</span>
/// ```
///
/// Its classification is held to Pygments' on sample files by the tests. Everything it writes is
/// escaped: highlighting can never inject markup.
public enum SyntaxHighlighter {
    /// What a stretch of code is.
    public enum Kind: String, Sendable {
        case comment = "c", string = "s", number = "n", keyword = "k", tag = "t", attribute = "a"
    }

    /// One classified stretch, in `Character` offsets of the source.
    public struct Token: Sendable, Hashable {
        /// What it is.
        public var kind: Kind
        /// Where it is.
        public var range: Range<Int>
    }

    /// Whether `language` (a ``SyntaxLanguage`` name) has rules here.
    public static func supports(_ language: String) -> Bool { LanguageRules.rules(for: language) != nil }

    /// The tokens of `source` in `language`; empty when the language has no rules.
    public static func tokens(of source: String, language: String) -> [Token] {
        guard let rules = LanguageRules.rules(for: language) else { return [] }
        var scanner = Scanner(Array(source), rules: rules)
        return scanner.run()
    }

    /// `source` as HTML with each token in a `<span class="hl-…">`; nil when the language has no
    /// rules (the viewer shows plain text then).
    public static func html(for source: String, language: String) -> String? {
        guard let rules = LanguageRules.rules(for: language) else { return nil }
        let characters = Array(source)
        var scanner = Scanner(characters, rules: rules)
        var output = ""
        output.reserveCapacity(source.utf8.count + source.utf8.count / 2)
        var position = 0
        for token in scanner.run() {
            if token.range.lowerBound > position {
                output += HTMLText.escaped(String(characters[position..<token.range.lowerBound]))
            }
            output +=
                "<span class=\"hl-\(token.kind.rawValue)\">"
                + HTMLText.escaped(String(characters[token.range])) + "</span>"
            position = token.range.upperBound
        }
        if position < characters.count { output += HTMLText.escaped(String(characters[position...])) }
        return output
    }
}

/// How one family of languages writes comments, strings and keywords.
struct LanguageRules: Sendable {
    var lineComments: [String] = []
    var blockComments: [(open: String, close: String)] = []
    /// String delimiters, longest first (`"""` before `"`).
    var strings: [String] = ["\"", "'"]
    /// Delimiters whose strings may span lines.
    var multilineStrings: Set<String> = []
    var keywords: Set<String> = []
    var caseInsensitiveKeywords = false
    /// HTML and XML: tags, attributes, entities.
    var isMarkup = false
    /// A `#` starts a comment only at a word boundary (shell: `a#b` is a word).
    var hashNeedsBoundary = false
    /// Lines starting with `#` are preprocessor directives, shown as comments (C's family).
    var preprocessorLines = false
    /// A name after `.` is a member, shown as an attribute (Java's family, as Pygments has it).
    var membersAsAttributes = false
    /// How lines are read besides the rules above.
    var layout = Layout.code
    /// Ruby: `:name` is a symbol, shown as a string.
    var symbols = false
    /// Template languages over HTML: their tags (`{{ … }}`, `{% … %}`, `<% … %>`) are keywords.
    var templateTags: [(open: String, close: String)] = []

    enum Layout: Sendable {
        case code
        /// YAML: a `key:` at a line's start is a tag.
        case keyed
        /// INI and TOML: `[section]` is a keyword, `key =` an attribute, the value a string.
        case sections
        /// CSS: a `property:` inside braces is a keyword; `#hex` colours and units are numbers.
        case styles
    }
    /// What opens code inside a string, by the string's delimiter (`\(` in Swift, `${` in a
    /// JavaScript template, `$` in a shell's double quotes): that code is not string.
    var interpolations: [String: [String]] = [:]

    static func rules(for language: String) -> LanguageRules? {
        switch language {
        case "swift":
            return cLike(
                [
                    "actor", "any", "as", "associatedtype", "async", "await", "break", "case", "catch",
                    "class", "continue",
                    "default", "defer", "deinit", "do", "else", "enum", "extension", "fallthrough", "false",
                    "fileprivate",
                    "for", "func", "guard", "if", "import", "in", "init", "inout", "internal", "is", "let",
                    "nil", "nonisolated",
                    "open", "operator", "private", "protocol", "public", "repeat", "rethrows", "return",
                    "self", "Self", "some",
                    "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try",
                    "typealias", "var",
                    "where", "while", "consuming", "borrowing", "package", "mutating", "override", "final",
                    "lazy", "weak",
                    "unowned", "convenience", "required", "indirect", "dynamic", "optional",
                    "precedencegroup", "get", "set",
                    "willSet", "didSet",
                ], multiline: ["\"\"\""], strings: ["\"\"\"", "\""],
                interpolations: ["\"": ["\\("], "\"\"\"": ["\\("]])
        case "javascript", "typescript":
            return cLike(
                [
                    "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default",
                    "delete",
                    "do", "else", "export", "extends", "false", "finally", "for", "function", "if", "import",
                    "in",
                    "instanceof", "let", "new", "null", "return", "super", "switch", "this", "throw", "true",
                    "try", "typeof",
                    "var", "void", "while", "with", "yield", "async", "of", "static", "get", "set",
                    "undefined", "from", "as",
                    "interface", "type", "enum", "implements", "private", "public", "protected", "readonly",
                    "declare",
                    "namespace", "abstract", "keyof", "never", "unknown", "any", "number", "string",
                    "boolean",
                ],
                multiline: ["`"], strings: ["`", "\"", "'"], interpolations: ["`": ["${"]])
        case "c", "cpp", "objectivec":
            var rules = cLike([
                "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
                "enum",
                "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict",
                "return", "short",
                "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
                "volatile",
                "while", "bool", "true", "false", "class", "namespace", "template", "typename", "public",
                "private",
                "protected", "virtual", "override", "new", "delete", "this", "nullptr", "using", "try",
                "catch", "throw",
                "const_cast", "static_cast", "dynamic_cast", "reinterpret_cast", "constexpr", "noexcept",
                "operator",
                "friend", "explicit", "mutable", "NULL", "self", "nil", "YES", "NO", "id", "size_t",
                "ssize_t",
                "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
                "wchar_t",
            ])
            rules.preprocessorLines = true
            return rules
        case "java", "kotlin", "scala", "csharp", "dart", "groovy", "gradle":
            var rules = cLike(
                [
                    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class",
                    "const",
                    "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally",
                    "float", "for", "if",
                    "implements", "import", "instanceof", "int", "interface", "long", "native", "new",
                    "package", "private",
                    "protected", "public", "return", "short", "static", "super", "switch", "synchronized",
                    "this", "throw",
                    "throws", "try", "void", "volatile", "while", "true", "false", "null", "var", "val",
                    "fun", "object",
                    "when", "is", "in", "as", "override", "data", "sealed", "companion", "def", "using",
                    "namespace", "string",
                    "bool", "async", "await", "record", "yield", "let", "out", "ref", "internal", "lateinit",
                    "suspend",
                ],
                multiline: ["\"\"\""], strings: ["\"\"\"", "\"", "'"])
            rules.membersAsAttributes = language == "java" || language == "kotlin"
            if language == "kotlin" {
                rules.keywords.formUnion([
                    "Int", "Long", "Short", "Byte", "Double", "Float", "Boolean", "Char", "String", "Unit",
                    "Any", "Nothing",
                ])
                rules.interpolations = ["\"": ["${", "$"], "\"\"\"": ["${", "$"]]
            }
            if language == "csharp" {
                rules.keywords.formUnion([
                    "readonly", "sealed", "struct", "get", "set", "params", "base", "decimal", "uint",
                    "ulong", "object",
                ])
            }
            return rules
        case "go":
            return cLike(
                [
                    "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
                    "for",
                    "func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return",
                    "select", "struct",
                    "switch", "type", "var", "true", "false", "nil", "iota", "string", "int", "int8", "int16",
                    "int32", "int64",
                    "uint", "uint8", "uint16", "uint32", "uint64", "byte", "rune", "bool", "error", "float32",
                    "float64", "any",
                ],
                multiline: ["`"], strings: ["`", "\"", "'"])
        case "rust":
            return cLike(
                [
                    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
                    "extern",
                    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
                    "pub", "ref",
                    "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe",
                    "use", "where",
                    "while", "i32", "i64", "u8", "u32", "u64", "usize", "isize", "f32", "f64", "bool", "str",
                    "char",
                ],
                strings: ["\""])
        case "zig", "odin", "v", "nim":
            return cLike([
                "const", "var", "fn", "pub", "return", "if", "else", "while", "for", "struct", "enum",
                "union",
                "true", "false", "null", "try", "catch", "defer", "proc", "import", "package", "mut", "match",
                "in",
            ])
        case "python":
            var rules = LanguageRules()
            rules.lineComments = ["#"]
            rules.strings = ["\"\"\"", "'''", "\"", "'"]
            rules.multilineStrings = ["\"\"\"", "'''"]
            rules.keywords = [
                "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
                "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
                "import",
                "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
                "with", "yield",
            ]
            return rules
        case "ruby":
            var rules = LanguageRules()
            rules.lineComments = ["#"]
            rules.interpolations = ["\"": ["#{"]]
            rules.symbols = true
            rules.keywords = [
                "alias", "and", "begin", "break", "case", "class", "def", "defined?", "do", "else", "elsif",
                "end",
                "ensure", "for", "if", "in", "module", "next", "not", "or", "redo", "rescue", "retry",
                "return", "self",
                "super", "then", "undef", "unless", "until", "when", "while", "yield", "nil", "true", "false",
                "attr_reader", "attr_writer", "attr_accessor", "private", "protected", "public", "raise",
                "loop", "include", "extend",
            ]
            return rules
        case "perl", "r", "elixir", "julia", "cmake", "makefile", "dockerfile", "properties", "graphql":
            var rules = LanguageRules()
            rules.lineComments = ["#"]
            rules.keywords = [
                "def", "end", "if", "elsif", "else", "unless", "while", "until", "for", "in", "do", "return",
                "class", "module", "begin", "rescue", "ensure", "yield", "self", "nil", "true", "false",
                "and", "or",
                "not", "then", "case", "when", "require", "sub", "my", "use", "function", "FROM", "RUN",
                "COPY", "CMD",
                "ENV", "WORKDIR", "EXPOSE", "ENTRYPOINT", "ARG", "ADD", "type", "query", "mutation",
                "fragment",
            ]
            return rules
        case "bash", "powershell":
            var rules = LanguageRules()
            rules.lineComments = ["#"]
            rules.hashNeedsBoundary = true
            rules.interpolations = ["\"": ["$(", "${", "$"]]
            rules.keywords = [
                "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
                "in", "function", "return", "select", "break", "continue",
            ]
            return rules
        case "yaml":
            var rules = LanguageRules()
            rules.lineComments = ["#"]
            rules.hashNeedsBoundary = true
            rules.layout = .keyed
            rules.keywords = ["true", "false", "null", "yes", "no", "on", "off"]
            return rules
        case "ini", "toml":
            var rules = LanguageRules()
            rules.lineComments = ["#", ";"]
            rules.layout = .sections
            return rules
        case "json":
            var rules = LanguageRules()
            rules.strings = ["\""]
            rules.keywords = ["true", "false", "null"]
            return rules
        case "sql":
            var rules = LanguageRules()
            rules.lineComments = ["--"]
            rules.blockComments = [("/*", "*/")]
            rules.strings = ["'", "\""]
            rules.caseInsensitiveKeywords = true
            rules.keywords = [
                "select", "from", "where", "and", "or", "not", "insert", "into", "values", "update", "set",
                "delete", "create", "table", "drop", "alter", "index", "on", "join", "left", "right", "inner",
                "outer",
                "group", "by", "order", "having", "limit", "offset", "as", "distinct", "null", "is", "in",
                "like",
                "primary", "key", "foreign", "references", "default", "exists", "if", "size",
                "union", "all", "case", "when", "then", "else", "end", "view", "begin", "commit", "with",
                "asc", "desc",
            ]
            return rules
        case "lua", "haskell":
            var rules = LanguageRules()
            rules.lineComments = ["--"]
            rules.keywords = [
                "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in",
                "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while", "let",
                "where",
                "data", "module", "import", "case", "of",
            ]
            return rules
        case "css", "scss", "less":
            var rules = LanguageRules()
            rules.layout = .styles
            rules.blockComments = [("/*", "*/")]
            if language != "css" { rules.lineComments = ["//"] }
            rules.keywords = [
                "important", "media", "import", "keyframes", "font-face", "supports", "from", "to",
            ]
            return rules
        case "xml", "html":
            var rules = LanguageRules()
            rules.isMarkup = true
            rules.blockComments = [("<!--", "-->")]
            return rules
        case "handlebars", "django", "twig", "liquid", "erb":
            var rules = LanguageRules()
            rules.isMarkup = true
            rules.blockComments = [("<!--", "-->")]
            rules.templateTags =
                language == "erb"
                ? [("<%#", "%>"), ("<%", "%>")]
                : [("{{!--", "--}}"), ("{#", "#}"), ("{{", "}}"), ("{%", "%}")]
            return rules
        case "pug":
            var rules = LanguageRules()
            rules.lineComments = ["//"]
            rules.keywords = [
                "if", "else", "each", "in", "while", "case", "when", "default", "include", "extends", "block",
                "mixin", "doctype",
            ]
            return rules
        default:
            return nil
        }
    }

    private static func cLike(
        _ keywords: Set<String>, multiline: Set<String> = [], strings: [String] = ["\"", "'"],
        interpolations: [String: [String]] = [:]
    ) -> LanguageRules {
        var rules = LanguageRules()
        rules.interpolations = interpolations
        rules.lineComments = ["//"]
        rules.blockComments = [("/*", "*/")]
        rules.strings = strings
        rules.multilineStrings = multiline
        rules.keywords = keywords
        return rules
    }
}

/// One pass over the source with the rules of its language.
private struct Scanner {
    let text: [Character]
    let rules: LanguageRules
    var tokens: [SyntaxHighlighter.Token] = []

    init(_ text: [Character], rules: LanguageRules) {
        self.text = text
        self.rules = rules
    }

    mutating func run() -> [SyntaxHighlighter.Token] {
        if rules.isMarkup { return markup() }
        var index = 0
        var braces = 0
        var inValue = false
        let keywords =
            rules.caseInsensitiveKeywords ? Set(rules.keywords.map { $0.lowercased() }) : rules.keywords
        while index < text.count {
            let character = text[index]
            if rules.preprocessorLines, character == "#", lineStart(index) {
                let end = text[index...].firstIndex(of: "\n") ?? text.count
                add(.comment, index, end)
                index = end
                continue
            }
            if let comment = rules.lineComments.first(where: { matches($0, at: index) }),
                comment != "#" || !rules.hashNeedsBoundary || index == 0 || text[index - 1].isWhitespace
            {
                let end = text[index...].firstIndex(of: "\n") ?? text.count
                add(.comment, index, end)
                index = end
                continue
            }
            if let block = rules.blockComments.first(where: { matches($0.open, at: index) }) {
                let end =
                    find(block.close, from: index + block.open.count).map { $0 + block.close.count }
                    ?? text.count
                add(.comment, index, end)
                index = end
                continue
            }
            if let quote = rules.strings.first(where: { matches($0, at: index) }) {
                index = string(quote, at: index)
                continue
            }
            switch rules.layout {
            case .keyed:
                if lineStart(index)
                    || (character != "-" && index >= 2 && text[index - 2] == "-" && text[index - 1] == " "
                        && lineStart(index - 2)),
                    isWordStart(character), let colon = keyEnd(from: index)
                {
                    add(.tag, index, colon)
                    index = colon
                    continue
                }
            case .sections:
                if lineStart(index), character == "[" {
                    let end = text[index...].firstIndex(of: "\n") ?? text.count
                    let close = text[index..<end].firstIndex(of: "]").map { $0 + 1 } ?? end
                    add(.keyword, index, close)
                    index = close
                    continue
                }
                if lineStart(index),
                    let equals = text[index...].prefix(while: { $0 != "\n" }).firstIndex(where: {
                        $0 == "=" || $0 == ":"
                    })
                {
                    var keyEnd = equals
                    while keyEnd > index, text[keyEnd - 1] == " " { keyEnd -= 1 }
                    add(.attribute, index, keyEnd)
                    var valueStart = equals + 1
                    while valueStart < text.count, text[valueStart] == " " { valueStart += 1 }
                    var valueEnd = text[valueStart...].firstIndex(of: "\n") ?? text.count
                    while valueEnd > valueStart, text[valueEnd - 1] == " " { valueEnd -= 1 }
                    add(.string, valueStart, valueEnd)
                    index = max(valueEnd, equals + 1)
                    continue
                }
            case .styles:
                if character == "{" { braces += 1 } else if character == "}" { braces = max(0, braces - 1) }
                if character == "{" || character == "}" || character == ";" { inValue = false }
                if character == "@", index + 1 < text.count, text[index + 1].isLetter {
                    var end = index + 1
                    while end < text.count, isWord(text[end]) || text[end] == "-" { end += 1 }
                    add(.keyword, index, end)
                    index = end
                    continue
                }
                if braces > 0, !inValue, isWordStart(character) || character == "-",
                    index == 0 || !isWord(text[index - 1]) && text[index - 1] != "-",
                    let colon = keyEnd(from: index, allowing: "-")
                {
                    add(.keyword, index, colon)
                    index = colon
                    inValue = true
                    continue
                }
                if character == "#", braces > 0, index + 1 < text.count, text[index + 1].isHexDigit {
                    var end = index + 1
                    while end < text.count, text[end].isHexDigit { end += 1 }
                    add(.number, index, end)
                    index = end
                    continue
                }
            case .code:
                if rules.symbols, character == ":", index + 1 < text.count, isWordStart(text[index + 1]),
                    index == 0 || text[index - 1] == " " || text[index - 1] == "(" || text[index - 1] == ","
                        || text[index - 1] == "["
                {
                    var end = index + 2
                    while end < text.count, isWord(text[end]) || text[end] == "?" || text[end] == "!" {
                        end += 1
                    }
                    add(.string, index, end)
                    index = end
                    continue
                }
            }
            // YAML's values are plain scalars: only quoted strings and comments stand out.
            if rules.layout == .keyed {
                index += 1
                continue
            }
            // CSS values: words are keywords, and so is a number's unit (`56px`), as Pygments has it.
            if rules.layout == .styles, inValue,
                isWordStart(character)
                    || character == "-" && index + 1 < text.count && text[index + 1].isLetter,
                index == 0
                    || !isWord(text[index - 1]) && text[index - 1] != "-" && !(text[index - 1].isNumber)
            {
                var end = index + 1
                while end < text.count, isWord(text[end]) || text[end] == "-" { end += 1 }
                // A function (`rgba(`) is a name, not a value keyword.
                if end >= text.count || text[end] != "(" { add(.keyword, index, end) }
                index = end
                continue
            }
            if character.isNumber && character.isASCII
                || (character == "." && index + 1 < text.count && text[index + 1].isASCII
                    && text[index + 1].isNumber
                    && (index == 0 || !isWord(text[index - 1])))
            {
                if index > 0, isWord(text[index - 1]) {
                    index += 1
                    continue
                }
                var end = index + 1
                while end < text.count {
                    let next = text[end]
                    let exponentSign =
                        (next == "+" || next == "-") && (text[end - 1] == "e" || text[end - 1] == "E")
                        && !(text[index...].prefix(2) == ["0", "x"])
                    guard
                        next.isASCII && (next.isLetter || next.isNumber || next == "_" || next == ".")
                            || exponentSign
                    else { break }
                    if next == ".", end + 1 < text.count, !(text[end + 1].isASCII && text[end + 1].isNumber) {
                        break
                    }
                    end += 1
                }
                if rules.layout == .styles,
                    let unitStart = text[index..<end].firstIndex(where: { $0.isLetter })
                {
                    add(.number, index, unitStart)
                    add(.keyword, unitStart, end)
                } else {
                    add(.number, index, end)
                }
                index = end
                continue
            }
            if isWordStart(character) {
                var end = index + 1
                while end < text.count, isWord(text[end]) { end += 1 }
                let word = String(text[index..<end])
                let previous = index > 0 ? text[index - 1] : " "
                // A member (`a.if`) or a key (`if:` in JSON-ish data) is not a keyword.
                if keywords.contains(rules.caseInsensitiveKeywords ? word.lowercased() : word),
                    previous != "."
                {
                    add(.keyword, index, end)
                } else if rules.membersAsAttributes, previous == "." {
                    add(.attribute, index, end)
                }
                index = end
                continue
            }
            index += 1
        }
        return tokens
    }

    /// HTML and XML: comments, tag names, attribute names and values.
    private mutating func markup() -> [SyntaxHighlighter.Token] {
        var index = 0
        while index < text.count {
            if let tag = rules.templateTags.first(where: { matches($0.open, at: index) }) {
                let end =
                    find(tag.close, from: index + tag.open.count).map { $0 + tag.close.count } ?? text.count
                // A template comment is a comment; any other template tag stands out as a keyword.
                add(tag.open.hasSuffix("#") || tag.open.hasSuffix("!--") ? .comment : .keyword, index, end)
                index = end
                continue
            }
            if matches("<!--", at: index) {
                let end = find("-->", from: index + 4).map { $0 + 3 } ?? text.count
                add(.comment, index, end)
                index = end
                continue
            }
            if text[index] == "<", index + 1 < text.count, text[index + 1] == "!" || text[index + 1] == "?" {
                // A doctype or a processing instruction.
                let end = text[index...].firstIndex(of: ">").map { $0 + 1 } ?? text.count
                add(.comment, index, end)
                index = end
                continue
            }
            guard text[index] == "<", index + 1 < text.count,
                text[index + 1].isLetter || text[index + 1] == "/"
            else {
                index += 1
                continue
            }
            var cursor = index + 1
            if text[cursor] == "/" { cursor += 1 }
            while cursor < text.count, isTagName(text[cursor]) { cursor += 1 }
            add(.tag, index, cursor)
            while cursor < text.count, text[cursor] != ">" {
                if text[cursor] == "\"" || text[cursor] == "'" {
                    let end = stringEnd(String(text[cursor]), from: cursor + 1, multiline: true)
                    add(.string, cursor, end)
                    cursor = end
                } else if isTagName(text[cursor]) {
                    let start = cursor
                    while cursor < text.count, isTagName(text[cursor]) { cursor += 1 }
                    add(.attribute, start, cursor)
                } else {
                    cursor += 1
                }
            }
            if cursor < text.count {
                add(
                    .tag, text[cursor - 1] == "/" || text[cursor - 1] == "?" ? cursor - 1 : cursor, cursor + 1
                )
                cursor += 1
            }
            index = cursor
        }
        return tokens
    }

    /// A string opened by `quote` at `start`, its interpolated code left unclassified; returns
    /// where it ends.
    private mutating func string(_ quote: String, at start: Int) -> Int {
        let multiline = rules.multilineStrings.contains(quote)
        let openers = rules.interpolations[quote] ?? []
        var segment = start
        var index = start + quote.count
        while index < text.count {
            if text[index] == "\\"
                && !openers.contains(where: { $0.hasPrefix("\\") && matches($0, at: index) })
            {
                index += 2
                continue
            }
            if !multiline && text[index] == "\n" { break }
            if matches(quote, at: index) {
                index += quote.count
                add(.string, segment, index)
                return index
            }
            if let opener = openers.first(where: { matches($0, at: index) }) {
                add(.string, segment, index)
                index = interpolationEnd(opener, from: index)
                segment = index
                continue
            }
            index += 1
        }
        add(.string, segment, min(index, text.count))
        return min(index, text.count)
    }

    /// The end of interpolated code: a balanced `(…)` or `{…}`, or a `$name`.
    private func interpolationEnd(_ opener: String, from start: Int) -> Int {
        guard let last = opener.last, last == "(" || last == "{" else {
            var index = start + opener.count
            while index < text.count, isWord(text[index]) { index += 1 }
            return index
        }
        let close: Character = last == "(" ? ")" : "}"
        var depth = 1
        var index = start + opener.count
        while index < text.count, depth > 0 {
            if text[index] == last { depth += 1 } else if text[index] == close { depth -= 1 }
            index += 1
        }
        return index
    }

    /// The end of a `key` that a `:` follows (spaces allowed before it), or nil.
    private func keyEnd(from start: Int, allowing extra: Character = "_") -> Int? {
        var end = start
        while end < text.count, isWord(text[end]) || text[end] == extra || text[end] == "-" && extra == "-" {
            end += 1
        }
        var colon = end
        while colon < text.count, text[colon] == " " { colon += 1 }
        guard end > start, colon < text.count, text[colon] == ":" else { return nil }
        // `a:b` in a value (a URL, a time) is not a key: a key's colon ends the word.
        guard colon + 1 >= text.count || text[colon + 1] == " " || text[colon + 1] == "\n" else { return nil }
        return end
    }

    /// Whether only spaces come before `index` on its line.
    private func lineStart(_ index: Int) -> Bool {
        var position = index - 1
        while position >= 0, text[position] == " " || text[position] == "\t" { position -= 1 }
        return position < 0 || text[position] == "\n"
    }

    private mutating func add(_ kind: SyntaxHighlighter.Kind, _ start: Int, _ end: Int) {
        guard end > start else { return }
        if let last = tokens.last, last.kind == kind, last.range.upperBound == start {
            tokens[tokens.count - 1].range = last.range.lowerBound..<end
        } else {
            tokens.append(.init(kind: kind, range: start..<end))
        }
    }

    private func matches(_ literal: String, at index: Int) -> Bool {
        var position = index
        for character in literal {
            guard position < text.count, text[position] == character else { return false }
            position += 1
        }
        return true
    }

    private func find(_ literal: String, from start: Int) -> Int? {
        var index = start
        while index < text.count {
            if matches(literal, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// Where a string opened by `quote` ends (after its closing quote; at the line's end for an
    /// unclosed one-line string).
    private func stringEnd(_ quote: String, from start: Int, multiline: Bool) -> Int {
        var index = start
        while index < text.count {
            if text[index] == "\\" {
                index += 2
                continue
            }
            if !multiline && text[index] == "\n" { return index }
            if matches(quote, at: index) { return index + quote.count }
            index += 1
        }
        return text.count
    }

    private func isWordStart(_ character: Character) -> Bool {
        character.isLetter || character == "_" || character == "@" || character == "$"
    }
    private func isWord(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
    private func isTagName(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "-" || character == ":" || character == "_"
            || character == "."
    }
}
