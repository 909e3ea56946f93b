/// The literal runs a regular expression's every match must hold, read conservatively: anything
/// that could make a run optional or an alternative (`|`, groups, classes, quantifiers) ends it
/// or drops it, so the runs found are always required (none is fine: the index cannot narrow).
enum RegexLiterals {
    /// The required literal runs of `pattern`, as written. The pattern is read a scalar at a
    /// time, as ``LinearRegex`` reads it: a quantifier or `.` followed by a combining mark is
    /// still one (read as characters, `+\u{301}` was a literal, and its run was required).
    static func required(in pattern: String) -> [String] {
        let characters = Array(pattern.unicodeScalars)
        // An alternative anywhere may make any run optional.
        if characters.contains("|") { return [] }
        var runs: [String] = []
        var run = String.UnicodeScalarView()
        var depth = 0
        var index = 0
        func end() {
            if depth == 0 && !run.isEmpty { runs.append(String(run)) }
            run = String.UnicodeScalarView()
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                index += 1
                guard index < characters.count else { break }
                let escaped = characters[index]
                if escaped.properties.isAlphabetic || escaped.properties.numericType != nil {
                    end()  // \d, \w, \b, \1, …: not a literal
                } else {
                    run.append(escaped)
                }
            case "*", "?":
                if !run.isEmpty { run.removeLast() }  // the character before is optional
                end()
            case "{":
                if !run.isEmpty { run.removeLast() }
                end()
                while index < characters.count && characters[index] != "}" { index += 1 }
            case "+":
                end()  // the character before is required once; what follows may repeat it
            case "[":
                end()
                index += 1
                if index < characters.count && characters[index] == "]" { index += 1 }
                while index < characters.count && characters[index] != "]" {
                    if characters[index] == "\\" { index += 1 }
                    index += 1
                }
            case "(":
                end()
                depth += 1
            case ")":
                end()
                depth = max(0, depth - 1)
            // A group may be optional or repeated: its runs were never kept (depth > 0).
            case ".", "^", "$":
                end()
            default:
                run.append(character)
            }
            index += 1
        }
        end()
        return runs
    }
}
