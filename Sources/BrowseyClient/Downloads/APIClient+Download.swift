extension APIClient {
    /// Downloads the file at `path` into `destination`, which appears whole or not at all: the
    /// bytes go to `destination.part` (with the server's ETag beside it in
    /// `destination.part.etag`) and are moved into place once complete and flushed.
    ///
    /// With `resume`, a `.part` left by an interrupted download is continued with a `Range`
    /// request guarded by `If-Range`, so a file that changed on the server meanwhile is fetched
    /// again from the start. A lost connection throws `unreachable` and keeps the `.part`.
    /// `progress` is called as bytes arrive. With `flushes` (the default) the file is on disk
    /// before it takes its name; a caller fetching many files can flush them all at once
    /// instead (``LocalFile/flushFileSystem(of:)``) and pass `false`.
    @discardableResult
    public func download(
        _ path: String, to destination: String, resume: Bool = true, flushes: Bool = true,
        progress: @Sendable (DownloadProgress) -> Void = { _ in }
    ) async throws(BrowseyClientError) -> DownloadProgress {
        let partial = destination + ".part"
        let etagFile = partial + ".etag"
        var headers: [(name: String, value: String)] = []
        var offset: Int64 = 0
        if resume, let size = LocalFile.size(partial), size > 0, let etag = LocalFile.text(etagFile),
            !etag.isEmpty
        {
            offset = size
            headers.append(("Range", "bytes=\(size)-"))
            headers.append(("If-Range", etag))
        }
        let response = try await send(
            "GET", "/api/file", query: [("path", path), ("download", "false")], headers: headers)
        let appending = response.status == 206
        if !appending { offset = 0 }
        var total: Int64?
        if appending, let range = response.header("Content-Range"), let slash = range.lastIndex(of: "/") {
            total = Int64(range[range.index(after: slash)...])
        } else if let length = response.header("Content-Length") {
            total = Int64(length)
        }
        // The ETag is kept for resuming, which only a large file needs.
        if (total ?? 0) >= Self.resumableSize || LocalFile.size(etagFile) != nil {
            LocalFile.setText(
                (total ?? 0) >= Self.resumableSize ? response.header("ETag") : nil, at: etagFile)
        }
        let received = try await write(
            response, to: partial, appending: appending, from: offset, total: total, flushes: flushes,
            whenLost: "download again to resume", progress: progress)
        if let total, received != total {
            throw BrowseyClientError(
                .unreachable, "the server sent \(received) of \(total) bytes; download again to resume")
        }
        try LocalFile.move(partial, to: destination)
        if (total ?? 0) >= Self.resumableSize { LocalFile.setText(nil, at: etagFile) }
        return DownloadProgress(received: received, total: total)
    }

    /// Downloads the folder at `path` as one ZIP archive into `destination` (the server's
    /// `/api/archive`: entries stored as they are, hidden and ignored names left out unless
    /// `includeHidden`). Like ``download(_:to:resume:flushes:progress:)`` the file appears whole
    /// or not at all, through `destination.part`; an archive is written as it is sent, so it has
    /// no size beforehand (`total` stays nil) and an interrupted one starts over.
    @discardableResult
    public func downloadArchive(
        of path: String, to destination: String, includeHidden: Bool = false,
        progress: @Sendable (DownloadProgress) -> Void = { _ in }
    ) async throws(BrowseyClientError) -> DownloadProgress {
        var query = [("path", path)]
        if includeHidden { query.append(("hidden", "1")) }
        let response = try await send("GET", "/api/archive", query: query)
        let partial = destination + ".part"
        let received = try await write(
            response, to: partial, appending: false, from: 0, total: nil, flushes: true,
            whenLost: "download it again", progress: progress)
        try LocalFile.move(partial, to: destination)
        return DownloadProgress(received: received, total: nil)
    }

    /// Writes `response`'s body to `partial` (after `offset` bytes already there when
    /// `appending`), reporting progress, and returns the bytes the file then holds. A lost
    /// connection is `unreachable`, its message ending with `whenLost`.
    private func write(
        _ response: TransportResponse, to partial: String, appending: Bool, from offset: Int64, total: Int64?,
        flushes: Bool, whenLost: String, progress: @Sendable (DownloadProgress) -> Void
    ) async throws(BrowseyClientError) -> Int64 {
        let descriptor = try LocalFile.openForWriting(partial, appending: appending)
        var received = offset
        progress(DownloadProgress(received: received, total: total))
        do {
            for try await chunk in response.body {
                try LocalFile.writeAll(descriptor, chunk, path: partial)
                received += Int64(chunk.count)
                progress(DownloadProgress(received: received, total: total))
            }
        } catch {
            try? LocalFile.finish(descriptor, path: partial, flushing: false)
            if let error = error as? BrowseyClientError, error.code == .localFile { throw error }
            var lost = BrowseyClientError.from(error)
            if lost.code != .cancelled {
                lost = BrowseyClientError(
                    lost.code == .timedOut ? .timedOut : .unreachable,
                    "the connection to \(server.name) was lost after \(received) of \(total.map(String.init) ?? "?") bytes; \(whenLost)",
                    cause: SendableDescription("\(error)"))
            }
            throw lost
        }
        try LocalFile.finish(descriptor, path: partial, flushing: flushes)
        return received
    }

    /// Files from this size on keep what is needed to resume them (1 MiB).
    static let resumableSize: Int64 = 1 << 20
}
