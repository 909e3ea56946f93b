import BrowseyAPI
import FileTree
import Hummingbird
import NIOCore
import SearchIndex
import ServiceLifecycle

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `GET /api/events`: what changes under a folder, as Server-Sent Events from the index's feed.
struct EventsController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    /// The index whose feed the events come from; `nil` with `--no-index` (503).
    let searchIndex: NameIndex?
    /// The extensions whose files are marked `"thumbnail": true`.
    var thumbnails = ThumbnailExtensions.none

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/api/events") { request, context in try await events(request, context: context) }
        // HEAD of the others is their GET without the body (the router's own); this one must not subscribe.
        group.head("/api/events") { request, context in try eventsHead(request, context: context) }
    }

    /// `GET /api/events?path=FOLDER`: Server-Sent Events of what changes under a folder
    /// (`created`, `deleted`, `modified`, `renamed`, each with the entry as a listing shows it),
    /// a heartbeat comment while nothing happens, and resumption: a client reconnecting with
    /// `Last-Event-ID` first gets what it missed, or a `reset` event when that is no longer kept.
    /// A client that falls more than 1,024 events behind is disconnected (and may reconnect).
    func events(_ request: Request, context: FileServerContext) async throws -> Response {
        let folder = try resolve(
            request, context, required: false, notFound: "Directory not found", need: .see)
        let access = context.access
        guard let index = searchIndex else {
            throw APIError(
                .serviceUnavailable, "Live events need the index, and this server runs with --no-index",
                code: .noIndex)
        }
        let lastID =
            request.headers[.lastEventID] ?? request.uri.queryParameters.get("lastEventId")
        let subscription = index.feed.subscribe(lastEventID: lastID)
        let scope = folder.relative == "/" ? "" : folder.relative
        let heartbeat = configuration.eventHeartbeat
        let routes = self
        return Response(
            status: .ok,
            headers: Self.eventStreamHeaders,
            body: ResponseBody { writer in
                let beats = Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: heartbeat)
                        subscription.heartbeat()
                    }
                }
                defer { beats.cancel() }
                try await writer.write(ByteBuffer(string: "retry: 2000\n: connected\n\n"))
                for await item in subscription.items.cancelOnGracefulShutdown() {
                    switch item {
                    case .heartbeat:
                        try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                    case .reset:
                        try await writer.write(
                            ByteBuffer(string: "event: reset\ndata: {\"type\":\"reset\"}\n\n"))
                    case .event(let event):
                        guard event.change.concerns(scope) else { continue }
                        // A reader hears only of what they may see: a move out of sight is a
                        // delete to them, a move in from out of sight a creation.
                        var change = event.change
                        if !access.maySee(change.path) {
                            guard change.kind == .renamed, let from = change.from, access.maySee(from) else {
                                continue
                            }
                            var entry = change.entry
                            entry.name = FileName.lastComponent(of: from)
                            change = TreeChange(kind: .deleted, path: from, entry: entry)
                        } else if let from = change.from, !access.maySee(from) {
                            change = TreeChange(kind: .created, path: change.path, entry: change.entry)
                        }
                        try await writer.write(routes.eventText(id: event.id, change))
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// `HEAD /api/events`: the stream's headers, without subscribing to the feed.
    func eventsHead(_ request: Request, context: FileServerContext) throws -> Response {
        _ = try resolve(request, context, required: false, notFound: "Directory not found", need: .see)
        guard searchIndex != nil else {
            throw APIError(
                .serviceUnavailable, "Live events need the index, and this server runs with --no-index",
                code: .noIndex)
        }
        return Response(status: .ok, headers: Self.eventStreamHeaders)
    }

    static let eventStreamHeaders: HTTPFields = [
        .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache",
        .xAccelBuffering: "no",
    ]

    private func eventText(id: some CustomStringConvertible, _ change: TreeChange) -> ByteBuffer {
        var item = ListItem(change.entry, absolutePath: safePath.root + change.path)
        if item.type == .file, thumbnails.contains(item.extension) { item.thumbnail = true }
        let payload = ChangeEvent(
            type: change.kind.rawValue, path: change.path, from: change.from, item: item)
        let json =
            (try? JSONEncoder.browsey().encode(payload)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return ByteBuffer(string: "id: \(id)\nevent: \(change.kind.rawValue)\ndata: \(json)\n\n")
    }
}
