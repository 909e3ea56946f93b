import BrowseyAPI

/// Reads one file's unified diff, as `git diff` and `git show --patch` write it, into hunks of
/// numbered lines. Output cut short by the runner's cap loses its last, partial line and is
/// marked truncated; past ``lineLimit`` lines the rest is dropped the same way.
struct GitDiffParser {
    /// The most lines a diff answer carries.
    var lineLimit = 10_000

    /// The diff of `bytes`, for `path` (`originalPath` for a rename); `cut` says the output was
    /// capped before its end.
    func parse(_ bytes: [UInt8], path: String, originalPath: String?, cut: Bool) -> GitDiffResponse {
        var response = GitDiffResponse(path: path, originalPath: originalPath, truncated: cut)
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        // The text after the final line break is empty, or, when cut, a partial line.
        if !lines.isEmpty { lines.removeLast() }
        var inHunk = false
        var oldLine = 0
        var newLine = 0
        var count = 0
        for raw in lines {
            guard let first = raw.first else {
                // An empty line inside a hunk is a context line whose text is empty only when git
                // writes it without its leading space (some configurations do).
                continue
            }
            if first == UInt8(ascii: "@"), raw.starts(with: Array("@@ ".utf8)),
                let hunk = Self.hunkHeader(raw)
            {
                response.hunks.append(hunk)
                oldLine = hunk.oldStart
                newLine = hunk.newStart
                inHunk = true
                continue
            }
            if !inHunk {
                if raw.starts(with: Array("Binary files ".utf8))
                    || raw.starts(with: Array("GIT binary patch".utf8))
                {
                    response.binary = true
                }
                continue
            }
            if first == UInt8(ascii: "d"), raw.starts(with: Array("diff --git ".utf8)) {
                // A second file's diff (never asked for): stop.
                break
            }
            guard count < lineLimit else {
                response.truncated = true
                break
            }
            let text = String(decoding: raw.dropFirst(), as: UTF8.self)
            var line: GitDiffLine
            switch first {
            case UInt8(ascii: "+"):
                line = GitDiffLine(kind: .added, oldLine: nil, newLine: newLine, text: text)
                newLine += 1
            case UInt8(ascii: "-"):
                line = GitDiffLine(kind: .removed, oldLine: oldLine, newLine: nil, text: text)
                oldLine += 1
            case UInt8(ascii: " "):
                line = GitDiffLine(kind: .context, oldLine: oldLine, newLine: newLine, text: text)
                oldLine += 1
                newLine += 1
            case UInt8(ascii: "\\"):
                // "\ No newline at end of file": said of the line before.
                let last = response.hunks.count - 1
                if last >= 0, !response.hunks[last].lines.isEmpty {
                    response.hunks[last].lines[response.hunks[last].lines.count - 1].noNewline = true
                }
                continue
            default:
                continue
            }
            response.hunks[response.hunks.count - 1].lines.append(line)
            count += 1
        }
        return response
    }

    /// `@@ -a,b +c,d @@ header`: the counts default to 1 when left out.
    static func hunkHeader(_ raw: ArraySlice<UInt8>) -> GitDiffHunk? {
        let text = String(decoding: raw, as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0] == "@@", parts[3] == "@@", parts[1].hasPrefix("-"),
            parts[2].hasPrefix("+")
        else { return nil }
        func range(_ part: Substring) -> (Int, Int)? {
            let numbers = part.dropFirst().split(separator: ",", omittingEmptySubsequences: false)
            guard let start = numbers.first.flatMap({ Int($0) }) else { return nil }
            let lines = numbers.count > 1 ? Int(numbers[1]) : 1
            guard let lines else { return nil }
            return (start, lines)
        }
        guard let old = range(parts[1]), let new = range(parts[2]) else { return nil }
        return GitDiffHunk(
            oldStart: old.0, oldLines: old.1, newStart: new.0, newLines: new.1,
            header: parts.count > 4 ? String(parts[4]) : "")
    }
}
