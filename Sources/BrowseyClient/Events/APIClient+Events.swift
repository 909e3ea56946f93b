import BrowseyAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension APIClient {
    /// The changes under `folder` as the server reports them (`GET /api/events`), from
    /// `lastEventID` on when given (what was missed meanwhile is replayed, or a `.reset` says to
    /// reload). The sequence ends when the connection does; reconnect with the last event's id.
    public func events(
        in folder: String = "/", after lastEventID: String? = nil
    ) -> AsyncThrowingStream<ServerEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ServerEvent.self)
        var longLived = self
        // Heartbeats come every 15 s: a quiet stream is not a dead one.
        longLived.timeout = max(timeout, .seconds(45))
        let task = Task { [longLived] in
            do {
                var headers: [(name: String, value: String)] = [("Accept", "text/event-stream")]
                if let lastEventID { headers.append(("Last-Event-ID", lastEventID)) }
                let response = try await longLived.send(
                    "GET", "/api/events", query: [("path", folder)], headers: headers)
                var parser = EventStreamParser()
                for try await chunk in response.body {
                    for raw in parser.feed(chunk) {
                        guard let kind = ServerEvent.Kind(rawValue: raw.event) else { continue }
                        let change = try? JSONDecoder.browsey().decode(
                            ChangeEvent.self, from: Data(raw.data.utf8))
                        continuation.yield(ServerEvent(id: raw.id, kind: kind, change: change))
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: BrowseyClientError.from(error))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
