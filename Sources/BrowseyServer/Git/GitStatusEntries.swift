import BrowseyAPI

/// The entries of `git status --porcelain=v2 --branch -z`, read record by record: the branch
/// lines, then one record per changed path with the real name (no C quoting), a rename's old
/// name in the field after it.
struct GitStatusEntries: Sendable {
    /// The checked-out branch; `"HEAD"` when detached, `nil` on an unborn branch.
    var branch: String?
    /// The changes, in git's path order.
    var changes: [GitChange] = []

    /// Reads the output.
    init(_ bytes: [UInt8]) {
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var head: String?
        var initial = false
        var index = 0
        while index < fields.count {
            let field = fields[index]
            index += 1
            guard let kind = field.first else { continue }
            switch kind {
            case "#":
                if field.hasPrefix("# branch.head ") { head = String(field.dropFirst(14)) }
                if field == "# branch.oid (initial)" { initial = true }
            case "1", "2", "u":
                // `1 XY sub mH mI mW hH hI path`, `2 XY sub mH mI mW hH hI Xscore path` then the
                // old path, `u XY sub m1 m2 m3 mW h1 h2 h3 path`: the path is everything after
                // a fixed number of space-separated fields, spaces and all.
                let before = kind == "1" ? 8 : kind == "2" ? 9 : 10
                guard let path = Self.after(fields: before, in: field) else { continue }
                let letters = Array(field.dropFirst(2).prefix(2))
                guard letters.count == 2 else { continue }
                var original: String?
                if kind == "2", index < fields.count {
                    original = fields[index]
                    index += 1
                }
                changes.append(
                    GitChange(
                        path: path, indexStatus: Self.letter(letters[0]),
                        workTreeStatus: Self.letter(letters[1]),
                        originalPath: original))
            case "?":
                changes.append(
                    GitChange(path: String(field.dropFirst(2)), indexStatus: "?", workTreeStatus: "?"))
            default:
                continue
            }
        }
        branch = initial ? nil : head == "(detached)" ? "HEAD" : head
    }

    /// The entries of `changes` with a change in the index.
    static func staged(_ changes: [GitChange]) -> [GitChange] {
        changes.filter { $0.indexStatus != "?" && $0.indexStatus != " " }
    }
    /// The entries of `changes` with a change in the work tree.
    static func unstaged(_ changes: [GitChange]) -> [GitChange] {
        changes.filter { $0.workTreeStatus != "?" && $0.workTreeStatus != " " }
    }
    /// The untracked entries of `changes`.
    static func untracked(_ changes: [GitChange]) -> [GitChange] { changes.filter { $0.indexStatus == "?" } }

    /// v2 writes `.` for "unchanged"; the contract's v1 letters use a space.
    private static func letter(_ character: Character) -> String {
        character == "." ? " " : String(character)
    }

    /// The text after the first `count` space-separated fields.
    private static func after(fields count: Int, in record: String) -> String? {
        var spaces = 0
        for index in record.indices where record[index] == " " {
            spaces += 1
            if spaces == count { return String(record[record.index(after: index)...]) }
        }
        return nil
    }
}
