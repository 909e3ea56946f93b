import BrowseyAPI

/// Reading what `git log`, `git show --numstat -z` and `git show --name-status -z` write:
/// NUL-separated fields, so names arrive exactly as they are.
enum GitCommitRecords {
    /// The format of one ``GitCommitInfo``: five NUL-separated fields (written with `-z`, so
    /// commits are NUL-separated too).
    static let infoFormat = "--format=%H%x00%h%x00%an%x00%aI%x00%s"

    /// The commits of output written with ``infoFormat`` and `-z`.
    static func infos(_ bytes: [UInt8]) -> [GitCommitInfo] {
        let fields = strings(bytes)
        var commits: [GitCommitInfo] = []
        var index = 0
        while index + 5 <= fields.count {
            let hash = fields[index].trimmingNewlines
            if !hash.isEmpty {
                commits.append(
                    GitCommitInfo(
                        hash: hash, shortHash: fields[index + 1], author: fields[index + 2],
                        date: fields[index + 3],
                        message: fields[index + 4]))
            }
            index += 5
        }
        return commits
    }

    /// Totals of `--numstat -z`: `added TAB deleted TAB path NUL`, or for a rename or copy
    /// `added TAB deleted TAB NUL old NUL new NUL`; a binary file's `-` counts 0.
    static func stats(_ bytes: [UInt8]) -> GitCommitStats {
        let fields = strings(bytes)
        var stats = GitCommitStats()
        var index = 0
        while index < fields.count {
            let record = fields[index].trimmingNewlines
            index += 1
            let parts = record.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            // An empty path field: the old and new paths follow as fields of their own.
            if parts[2].isEmpty { index += 2 }
            stats.files += 1
            stats.additions += Int(parts[0]) ?? 0
            stats.deletions += Int(parts[1]) ?? 0
        }
        return stats
    }

    /// Files of `--name-status -z`: `letters NUL path NUL`, or for a rename or copy
    /// `R100 NUL old NUL new NUL`.
    static func files(_ bytes: [UInt8]) -> [GitCommitFile] {
        let fields = strings(bytes)
        var files: [GitCommitFile] = []
        var index = 0
        while index + 1 < fields.count {
            let letters = fields[index].trimmingNewlines
            guard let letter = letters.first else {
                index += 1
                continue
            }
            if letter == "R" || letter == "C", index + 2 < fields.count {
                files.append(
                    GitCommitFile(
                        path: fields[index + 2], originalPath: fields[index + 1], status: String(letter)))
                index += 3
            } else {
                files.append(GitCommitFile(path: fields[index + 1], status: String(letter)))
                index += 2
            }
        }
        return files
    }

    /// The NUL-separated fields, the empty last one (after the final NUL) left out.
    static func strings(_ bytes: [UInt8]) -> [String] {
        var fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if fields.last == "" { fields.removeLast() }
        return fields
    }
}

extension String {
    /// The text without line breaks at either end (git puts one between `-z` records of some
    /// commands).
    var trimmingNewlines: String {
        var text = Substring(self)
        while text.first == "\n" { text = text.dropFirst() }
        while text.last == "\n" { text = text.dropLast() }
        return String(text)
    }
}
