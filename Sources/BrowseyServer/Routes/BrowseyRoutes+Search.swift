import BrowseyAPI
import FileTree
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import SearchIndex

extension BrowseyRoutes {
    /// `GET /api/search?path=&q=&limit=`: names under `path` matching `q`, best first; found by
    /// walking the tree (the index is its own piece of work).
    func search(_ request: Request) async throws -> Response {
        let folder = try resolve(request, required: false, notFound: "Directory not found")
        let query = request.uri.queryParameters.get("q") ?? ""
        let limit = min(200, max(1, request.uri.queryParameters.get("limit").flatMap { Int($0) } ?? 50))
        guard !query.trimmingSpaces().isEmpty else {
            return JSONBody.response(SearchResponse(query: query, results: []))
        }
        let matcher = FuzzyMatch(query.trimmingSpaces())
        let reader = DirectoryReader(filter: EntryFilter(includesHidden: false, excludedNames: safePath.ignored))
        var found: [(score: Int, entry: FileEntry)] = []
        _ = try? reader.walk(at: folder.absolute) { entry, _ in
            if let score = matcher.score(entry.name) { found.append((score, entry)) }
            return .continue
        }
        found.sort { $0.score != $1.score ? $0.score > $1.score : $0.entry.path < $1.entry.path }
        let results = found.prefix(limit).compactMap { match -> SearchResponse.Result? in
            guard let relative = safePath.relativePath(of: match.entry.path) else { return nil }
            return SearchResponse.Result(
                name: match.entry.name, path: relative, absolutePath: match.entry.path,
                type: Self.itemType(match.entry.type), score: match.score,
                extension: match.entry.type == .directory ? nil : match.entry.pathExtension)
        }
        return JSONBody.response(SearchResponse(query: query, results: Array(results)))
    }
}
