public import BrowseyAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an upload does when the name is taken on the server.
public enum ExistingFile: Sendable, Hashable {
    /// Refuse (`conflict`): the server never replaces a file unless asked.
    case refuse
    /// Replace it.
    case replace
    /// Keep both: the server picks a free name (`scan 1.pdf`), returned in the answer.
    case keepBoth
}

extension APIClient {
    /// Uploads the local file at `localPath` to `remotePath`, resumably: the server keeps what
    /// it received of an interrupted upload, and the next call with the same file goes on from
    /// there. The file appears on the server whole or not at all. `progress` gets bytes sent
    /// and the total as they go.
    @discardableResult
    public func upload(
        _ localPath: String, to remotePath: String, ifExists: ExistingFile = .refuse,
        progress: @escaping @Sendable (DownloadProgress) -> Void = { _ in }
    ) async throws(BrowseyClientError) -> UploadResponse {
        guard let size = LocalFile.size(localPath) else {
            throw BrowseyClientError(.localFile, "\(localPath) is not a file that can be read")
        }
        var query: [(String, String?)] = [("path", remotePath)]
        switch ifExists {
        case .refuse: break
        case .replace: query.append(("overwrite", "1"))
        case .keepBoth: query.append(("onConflict", "rename"))
        }
        var headers: [(name: String, value: String)] = [("Content-Type", "application/octet-stream")]
        var start: Int64 = 0
        if size > 0 {
            let held = try await json(
                UploadResponse.self, "GET", "/api/upload",
                query: [("path", remotePath), ("size", String(size))])
            start = held.received < size ? held.received : 0
            headers.append(("Content-Range", "bytes \(start)-\(size - 1)/\(size)"))
        }
        progress(DownloadProgress(received: start, total: size))
        let offset = start
        let response = try await send(
            "PUT", "/api/file", query: query, headers: headers,
            body: size > 0 ? .file(path: localPath, offset: start, length: size - start) : .bytes([]),
            sendProgress: { sent in progress(DownloadProgress(received: offset + sent, total: size)) })
        let bytes = try await response.collect(limit: 1 << 20)
        do {
            return try JSONDecoder.browsey().decode(UploadResponse.self, from: Data(bytes))
        } catch {
            throw BrowseyClientError(
                .decoding, "the server's answer to an upload is not what the contract says: \(error)")
        }
    }

    /// How much of an upload of `size` bytes to `remotePath` the server already holds.
    public func uploadedBytes(of remotePath: String, size: Int64) async throws(BrowseyClientError) -> Int64 {
        try await json(
            UploadResponse.self, "GET", "/api/upload", query: [("path", remotePath), ("size", String(size))]
        )
        .received
    }
}
