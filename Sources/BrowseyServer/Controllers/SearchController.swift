import BrowseyAPI
import FileTree
import Hummingbird
import NIOCore
import NIOPosix
import SearchIndex

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `GET /api/search`: names under a folder, from the search index when it is ready.
struct SearchController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    /// The index; `nil` with `--no-index` (searches walk the tree).
    let searchIndex: NameIndex?
    /// The index of what text files say; `nil` with `--no-content-index` or `--no-index`.
    var contentIndex: ContentIndex? = nil
    /// The extensions whose files are marked `"thumbnail": true`.
    var thumbnails = ThumbnailExtensions.none

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/api/search") { request, context in try await search(request, context: context) }
    }

    /// `GET /api/search?path=&q=&limit=` and the filters `type=file|directory`, `ext=md,txt`,
    /// `after=`/`before=` (ISO 8601 dates), `minSize=`/`maxSize=` (bytes, or with K, M, G):
    /// names under `path` matching `q`, best first. Answered from the index when it is ready,
    /// by walking the tree before (and with `--no-index`).
    func search(_ request: Request, context: FileServerContext) async throws -> Response {
        switch request.uri.queryParameters.get("in") ?? "" {
        case "", "names", "name": break
        case "content": return try await searchContent(request, context: context)
        default: throw APIError(.badRequest, "in must be names or content", code: .badFilter)
        }
        let folder = try searchedFolder(request, context)
        let access = context.access
        let parameters = request.uri.queryParameters
        let text = parameters.get("q") ?? ""
        var query = SearchQuery(text: text)
        query.folder = folder.relative == "/" ? "" : folder.relative
        var limit = 50
        if let given = parameters.get("limit") {
            guard let number = Int(given) else {
                throw APIError(.badRequest, "limit must be a whole number (1 to 200)", code: .badFilter)
            }
            limit = number
        }
        query.limit = min(200, max(1, limit))
        query.includesHidden = configuration.showsHidden && parameters.get("hidden") == "1"
        try Self.readFilters(parameters, into: &query)
        guard NameMatcher(text) != nil || query.hasFilters else {
            return JSONBody.response(buffer: SearchJSON.encode(query: text, results: []))
        }
        let buffer = try await NIOThreadPool.singleton.runIfActive { [self, query] in
            answer(query, text: text, under: folder, access: access)
        }
        return JSONBody.response(buffer: buffer)
    }

    /// The folder a search looks under (`path`), which must be a folder that is there: 404 for
    /// one that is not, 400 for a file, as a listing answers (an empty answer would say that
    /// nothing there matches).
    func searchedFolder(
        _ request: Request, _ context: FileServerContext
    ) throws(APIError) -> SafePath.Resolved {
        let folder = try resolve(
            request, context, required: false, notFound: "Directory not found", need: .see)
        guard let status = FileStatus(path: folder.absolute) else {
            throw APIError(.notFound, "Directory not found", code: .notFound)
        }
        guard status.type == .directory else {
            throw APIError(.badRequest, "Path is not a directory", code: .notADirectory)
        }
        return folder
    }

    /// The body of a search answer: the hits from the index (or a walk), checked one by one.
    private func answer(
        _ query: SearchQuery, text: String, under folder: SafePath.Resolved, access: RequestAccess
    ) -> ByteBuffer {
        // What the reader may not see is left out before the limit counts: where rules below
        // the folder differ, the index is asked for more until the limit is met or it has no more.
        let filters = !access.isUniform(below: folder.relative) || !access.mayRead(folder.relative)
        var found: [SearchHit]?
        // Asked before the search: when it holds, the catalog the search reads holds everything
        // done to the tree until now, and the hits need no look at the disk.
        let current = searchIndex?.isCurrent == true
        if let index = searchIndex {
            var asked = withMargin(query)
            while let page = index.search(asked) {
                found = page
                guard filters, page.count >= asked.limit, asked.limit < 100_000,
                    page.lazy.filter({ access.maySee($0.path) }).count < query.limit
                else { break }
                asked.limit *= 4
            }
        }
        let hits = found ?? walkSearch(query, from: folder, access: access)
        var results: [SearchResponse.Result] = []
        for hit in hits where results.count < query.limit {
            guard access.maySee(hit.path), let absolute = stillThere(hit, current: found != nil && current)
            else { continue }
            if hit.entry.kind == .symlink, filters,
                let real = safePath.realRelative(of: .init(absolute: absolute, relative: hit.path)),
                !access.maySee(real)
            {
                continue
            }
            var result =
                SearchResponse.Result(
                    name: hit.entry.name, path: hit.path, absolutePath: absolute,
                    type: Self.itemType(hit.entry.kind),
                    score: hit.score,
                    extension: hit.entry.kind == .directory
                        ? nil : FileName.pathExtension(of: hit.entry.name).map(String.init))
            if result.type == .file, thumbnails.contains(result.extension) { result.thumbnail = true }
            results.append(result)
        }
        return SearchJSON.encode(query: text, results: results)
    }

    /// Where a hit is, if it is still what the index saw last: there, of the same kind, and,
    /// for a link, leading nowhere the server would not go. The index only ever read real
    /// folders inside the root, so one look at it below the root (a link not followed, nor a
    /// folder on its way swapped for a link out) settles a file or a folder (a folder replaced
    /// meanwhile reaches the index through the watcher within its coalescing delay, and
    /// whatever is served is checked again by the endpoint that serves it). When the index was
    /// `current` (``NameIndex/isCurrent``), a file or a folder is as it says without that look.
    private func stillThere(_ hit: SearchHit, current: Bool) -> String? {
        let absolute = safePath.root == "/" ? hit.path : safePath.root + hit.path
        if current && hit.entry.kind != .symlink { return absolute }
        let type =
            safePath.contained.map { Paths.type(at: hit.path, below: $0) } ?? Paths.type(at: absolute)
        guard let type, IndexedEntry.Kind(type) == hit.entry.kind else {
            return nil
        }
        guard hit.entry.kind == .symlink else { return absolute }
        // A link is followed again below the root held open, as a listing tells it: one that
        // leads out, directly or through other links, is left out whether or not its target
        // exists (keeping those whose target is missing would tell which names exist outside).
        // One that leads nowhere inside is a hit, as a listing shows it (broken). With links
        // followed anywhere (or no root held open), the resolved path decides.
        guard let reach = safePath.reach(hit.path) else { return try? safePath.resolve(hit.path).absolute }
        if case .outside = reach { return nil }
        return absolute
    }

    /// A few more than asked, for the hits that fail the last check.
    private func withMargin(_ query: SearchQuery) -> SearchQuery {
        var query = query
        query.limit += 16
        return query
    }

    /// The search without an index: every name under `folder`, read now, ranked as the index
    /// ranks.
    func walkSearch(
        _ query: SearchQuery, from folder: SafePath.Resolved, access: RequestAccess? = nil
    ) -> [SearchHit] {
        let matcher = NameMatcher(query.text)
        let reader = DirectoryReader(
            filter: EntryFilter(includesHidden: query.includesHidden, excludedNames: safePath.ignored))
        var found: [SearchHit] = []
        // The walk goes from descriptor to descriptor below the root: a folder swapped for a
        // link meanwhile is not followed.
        guard let start = try? safePath.folder(folder) else { return [] }
        _ = try? reader.walk(in: start) { entry, _ in
            if let access, let relative = safePath.relativePath(of: entry.path), !access.maySee(relative) {
                return .skipChildren
            }
            var score = 0
            if let matcher {
                guard let matched = matcher.score(name: entry.name) else { return .continue }
                score = matched
            }
            let indexed = IndexedEntry(
                name: entry.name, kind: IndexedEntry.Kind(entry.type), size: entry.size,
                modified: entry.status?.modified.nanosecondsSince1970 ?? 0, inode: 0)
            if query.admits(indexed), let relative = safePath.relativePath(of: entry.path) {
                found.append(SearchHit(path: relative, entry: indexed, score: score))
            }
            return .continue
        }
        let newestFirst = matcher == nil
        found.sort { $0.ranks(before: $1, newestFirst: newestFirst) }
        return Array(found.prefix(query.limit))
    }

    /// The filters of a search request; a value that makes no sense is a 400 saying so.
    static func readFilters(_ parameters: Parameters, into query: inout SearchQuery) throws(APIError) {
        if let type = parameters.get("type"), !type.isEmpty {
            switch type {
            case "file": query.kinds = [.file]
            case "directory", "folder": query.kinds = [.directory]
            default: throw APIError(.badRequest, "type must be file or directory", code: .badFilter)
            }
        }
        if let list = parameters.get("ext"), !list.isEmpty {
            query.extensions = Set(
                list.split(separator: ",").map { $0.trimmingSpaces().lowercased() }
                    .map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
                    .filter { !$0.isEmpty })
        }
        query.modifiedAfter = try date(parameters.get("after"), name: "after")
        query.modifiedBefore = try date(parameters.get("before"), name: "before")
        query.minimumSize = try size(parameters.get("minSize"), name: "minSize")
        query.maximumSize = try size(parameters.get("maxSize"), name: "maxSize")
    }

    private static func date(_ text: String?, name: String) throws(APIError) -> Int64? {
        guard let text, !text.isEmpty else { return nil }
        let full = text.count == 10 ? text + "T00:00:00Z" : text
        guard let date = BrowseyDate.date(from: full) else {
            throw APIError(
                .badRequest, "\(name) must be an ISO 8601 date, like 2026-01-31 or 2026-01-31T12:00:00Z",
                code: .badFilter)
        }
        // Nanoseconds reach only to 2262: later (or much earlier) dates clamp.
        return Int64(max(-9e18, min(9e18, (date.timeIntervalSince1970 * 1_000_000_000).rounded())))
    }

    private static func size(_ text: String?, name: String) throws(APIError) -> Int64? {
        guard var text = text?.trimmingSpaces().uppercased(), !text.isEmpty else { return nil }
        if text.hasSuffix("B") { text.removeLast() }
        var factor: Int64 = 1
        for (suffix, multiple) in [
            ("K", Int64(1) << 10), ("M", Int64(1) << 20), ("G", Int64(1) << 30), ("T", Int64(1) << 40),
        ]
        where text.hasSuffix(suffix) {
            factor = multiple
            text.removeLast()
        }
        guard let number = Double(text), number >= 0, number * Double(factor) < 9e18 else {
            throw APIError(
                .badRequest, "\(name) must be a size in bytes, like 1048576 or 10M", code: .badFilter)
        }
        return Int64(number * Double(factor))
    }
}
