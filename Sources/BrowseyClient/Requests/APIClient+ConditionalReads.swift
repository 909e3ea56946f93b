public import BrowseyAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The answer to a read that carried `If-None-Match`: unchanged, or the new value with its tag.
public enum ConditionalAnswer<Value: Sendable>: Sendable {
    /// `304 Not Modified`: what the caller holds for the tag it sent is still current.
    case notModified
    /// The current value, and its `ETag` when the server gave one.
    case modified(Value, etag: String?)
}

extension APIClient {
    /// `GET /api/list` sending `If-None-Match: etag` (when given): ``ConditionalAnswer/notModified``
    /// when the folder still reads as the listing that tag came with, else the new listing and
    /// its tag. For a model that keeps the listing it shows.
    public func list(
        _ path: String, hidden: Bool = false, ifNoneMatch etag: String?
    ) async throws(BrowseyClientError) -> ConditionalAnswer<ListResponse> {
        try await conditionalJSON(
            ListResponse.self, "/api/list", query: Self.listQuery(path, hidden: hidden), ifNoneMatch: etag
        ).answer
    }

    /// `GET /api/view` sending `If-None-Match: etag` (when given), as
    /// ``list(_:hidden:ifNoneMatch:)`` does for a folder.
    public func view(
        _ path: String, ifNoneMatch etag: String?
    ) async throws(BrowseyClientError) -> ConditionalAnswer<ViewResponse> {
        try await conditionalJSON(ViewResponse.self, "/api/view", query: [("path", path)], ifNoneMatch: etag)
            .answer
    }

    static func listQuery(_ path: String, hidden: Bool) -> [(String, String?)] {
        [("path", path), ("hidden", hidden ? "1" : nil)]
    }

    /// A read through ``conditionalReads``: sends the tag kept for this request, reuses the kept
    /// value on a 304, and keeps a new value that came with a tag.
    func cachedJSON<Answer: Decodable & Sendable>(
        _ type: Answer.Type, _ endpoint: String, query: [(String, String?)]
    ) async throws(BrowseyClientError) -> Answer {
        let encoded = QueryString.make(query)
        let key = server.baseURL + endpoint + (encoded.isEmpty ? "" : "?" + encoded)
        let kept = conditionalReads.entry(for: key, as: Answer.self)
        let read = try await conditionalJSON(type, endpoint, query: query, ifNoneMatch: kept?.etag)
        switch read.answer {
        case .notModified:
            // `kept` is set: without a tag sent, a 304 is refused below as not the contract.
            guard let kept else { throw BrowseyClientError(.decoding, "\(endpoint) answered 304 unasked") }
            return kept.value
        case .modified(let value, let etag):
            if let etag {
                conditionalReads.store(value, etag: etag, bytes: read.bytes, for: key)
            } else {
                conditionalReads.remove(key)
            }
            return value
        }
    }

    /// `GET endpoint` with `If-None-Match` when `etag` is given; the answer and the size of
    /// the body it was decoded from.
    func conditionalJSON<Answer: Decodable & Sendable>(
        _ type: Answer.Type, _ endpoint: String, query: [(String, String?)], ifNoneMatch etag: String?,
        limit: Int = 64 << 20
    ) async throws(BrowseyClientError) -> (answer: ConditionalAnswer<Answer>, bytes: Int) {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let etag { headers.append(("If-None-Match", etag)) }
        let response = try await send("GET", endpoint, query: query, headers: headers)
        if response.status == 304 {
            guard etag != nil else {
                throw BrowseyClientError(.decoding, "\(endpoint) answered 304 Not Modified to a plain read")
            }
            _ = try? await response.collect(limit: 1 << 16)
            return (.notModified, 0)
        }
        let bytes = try await response.collect(limit: limit)
        do {
            let value = try JSONDecoder.browsey().decode(Answer.self, from: Data(bytes))
            return (.modified(value, etag: response.header("ETag")), bytes.count)
        } catch {
            throw BrowseyClientError(
                .decoding, "the server's answer to \(endpoint) is not what the contract says: \(error)",
                cause: SendableDescription("\(error)"))
        }
    }
}
