import BrowseyAPI
import FileTree
import Hummingbird
import NIOCore
import NIOPosix
import SearchIndex

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SearchController {
    /// The longest a content search reads files before it answers with what it has
    /// (`"complete": false`).
    static let contentBudget = Duration.milliseconds(1500)

    /// `GET /api/search?in=content&q=&path=&limit=&lines=&re=&i=` and the name search's
    /// filters: files under `path` whose text holds every word of `q` (or matches the regular
    /// expression `q` with `re=1`, case-insensitive with `i=1`), best first, each with up to
    /// `lines` matching lines. Candidates come from the content index; each is read again, so
    /// no line that is no longer there is sent, and files the reader may not read are left out
    /// before the limit counts. One more matching file is looked for than `limit`, so that
    /// `hasMore` says whether any was left out.
    func searchContent(_ request: Request, context: FileServerContext) async throws -> Response {
        let folder = try searchedFolder(request, context)
        guard let contentIndex else {
            throw APIError(
                .serviceUnavailable,
                "Searching inside files needs the content index, and this server runs with --no-content-index",
                code: .noIndex)
        }
        let parameters = request.uri.queryParameters
        let text = parameters.get("q") ?? ""
        let pattern: ContentPattern
        do {
            pattern =
                parameters.get("re") == "1"
                ? try ContentPattern(regex: text, ignoresCase: parameters.get("i") == "1")
                : try ContentPattern(text: text)
        } catch {
            throw APIError(.badRequest, error.message, code: .badFilter)
        }
        var query = SearchQuery(text: text)
        query.limit = try Self.number(parameters.get("limit"), name: "limit", default: 50, in: 1...200)
        let lines = try Self.number(parameters.get("lines"), name: "lines", default: 3, in: 1...20)
        query.includesHidden = configuration.showsHidden && parameters.get("hidden") == "1"
        try Self.readFilters(parameters, into: &query)
        let access = context.access
        let rules = try access.rules()
        let relative = folder.relative == "/" ? "" : folder.relative
        let answer = try await NIOThreadPool.singleton.runIfActive {
            [query, pattern, rules] () throws -> ContentSearchResponse in
            try findContent(
                pattern, query: query, lines: lines, under: relative, index: contentIndex, access: access,
                rules: rules)
        }
        return JSONBody.response(answer)
    }

    private func findContent(
        _ pattern: ContentPattern, query: SearchQuery, lines: Int, under folder: String, index: ContentIndex,
        access: RequestAccess, rules: SafePath
    ) throws -> ContentSearchResponse {
        let clock = ContinuousClock()
        let deadline = clock.now + Self.contentBudget
        let matcher = pattern.matcher()
        var complete = index.progress.phase == .ready
        var found: [(result: ContentSearchResponse.Result, modified: Int64)] = []
        var before: Int64?
        pages: while found.count <= query.limit {
            let page: [ContentCandidate]?
            do {
                page = try index.candidates(pattern, under: folder, before: before, limit: 64)
            } catch {
                throw APIError(
                    .internalServerError, "The content index cannot be read: \(error.message)",
                    code: .internalError)
            }
            guard let page else {
                throw APIError(
                    .serviceUnavailable, "The content index is not open yet: try again shortly",
                    code: .noIndex)
            }
            guard let last = page.last else { break }
            before = last.id
            for candidate in page {
                if clock.now > deadline {
                    complete = false
                    break pages
                }
                guard access.mayRead(candidate.path), let resolved = try? rules.resolve(candidate.path),
                    let hit = read(
                        resolved, path: candidate.path, query: query, matcher: matcher, lines: lines,
                        maximumSize: index.options.maximumFileSize, deadline: deadline)
                else { continue }
                // A file whose lines the deadline cut short: what it had by then, if anything.
                if !hit.complete { complete = false }
                guard let hit = hit.found else { break pages }
                found.append(hit)
                if found.count > query.limit { break pages }
            }
            if clock.now > deadline {
                complete = false
                break
            }
        }
        found.sort {
            $0.result.score != $1.result.score ? $0.result.score > $1.result.score : $0.modified > $1.modified
        }
        // One file past the limit was looked for, to say whether more match.
        let hasMore = found.count > query.limit
        if hasMore { found.removeLast(found.count - query.limit) }
        return ContentSearchResponse(
            query: pattern.source, results: found.map(\.result), complete: complete, hasMore: hasMore)
    }

    /// The file at `resolved` read now: its matching lines when it is still a regular file that
    /// passes the filters and matches, found until `deadline` (`complete` false: it came first,
    /// and `found` holds what was found by then, if anything).
    private func read(
        _ resolved: SafePath.Resolved, path: String, query: SearchQuery, matcher: ContentMatcher, lines: Int,
        maximumSize: Int64, deadline: ContinuousClock.Instant
    ) -> (found: (result: ContentSearchResponse.Result, modified: Int64)?, complete: Bool)? {
        guard let descriptor = try? safePath.openForReading(resolved) else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            status.st_size <= maximumSize
        else { return nil }
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        let entry = IndexedEntry(
            name: FileName.lastComponent(of: path), kind: .file, size: Int64(status.st_size),
            modified: modified,
            inode: UInt64(status.st_ino))
        guard query.admits(entry),
            let bytes = TextDecoding.bytes(of: descriptor, limit: Int(status.st_size) + 1),
            let text = TextDecoding.text(of: bytes),
            let matched = matcher.lines(in: text, limit: lines, until: deadline)
        else { return nil }
        guard !matched.lines.isEmpty else { return (nil, matched.complete) }
        var item = ListItem(entry, absolutePath: resolved.absolute)
        if thumbnails.contains(item.extension) { item.thumbnail = true }
        let found = matched.lines.map { line in
            ContentSearchResponse.Line(
                line: line.number, text: line.text,
                matches: line.matches.map { [$0.lowerBound, $0.upperBound] })
        }
        return (
            (
                ContentSearchResponse.Result(path: path, item: item, score: matched.score, lines: found),
                modified
            ),
            matched.complete
        )
    }

    /// A whole-number parameter, clamped to `range`; not a number: 400.
    static func number(
        _ text: String?, name: String, default value: Int, in range: ClosedRange<Int>
    ) throws(APIError) -> Int {
        guard let text, !text.isEmpty else { return value }
        // Digits past what a number holds are still a number: the nearest end of the range.
        let digits = text.first == "-" ? text.dropFirst() : Substring(text)
        if Int(text) == nil, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return text.first == "-" ? range.lowerBound : range.upperBound
        }
        guard let number = Int(text) else {
            throw APIError(
                .badRequest, "\(name) must be a whole number (\(range.lowerBound) to \(range.upperBound))",
                code: .badFilter)
        }
        return min(range.upperBound, max(range.lowerBound, number))
    }
}
