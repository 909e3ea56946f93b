public import BrowseyAPI

/// One change the server reports on `/api/events`.
public struct ServerEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable {
        case created, deleted, modified, renamed
        /// The server cannot replay what was missed: reload the listing.
        case reset
    }

    /// The event's id (`<run>.<sequence>`), to resume from after a reconnection.
    public var id: String?
    /// What happened.
    public var kind: Kind
    /// The change: the entry's path, where it came from for a rename, and its listing item.
    public var change: ChangeEvent?
}

/// Reads Server-Sent Events from a byte stream: `id:`, `event:` and `data:` lines, a blank
/// line ending each event; comments (`: heartbeat`) skipped.
struct EventStreamParser {
    private var line: [UInt8] = []
    private var id: String?
    private var event: String?
    private var data: [String] = []

    /// The events completed by `bytes`.
    mutating func feed(_ bytes: [UInt8]) -> [(id: String?, event: String, data: String)] {
        var events: [(id: String?, event: String, data: String)] = []
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                line.append(byte)
                continue
            }
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            let text = String(decoding: line, as: UTF8.self)
            line.removeAll(keepingCapacity: true)
            if text.isEmpty {
                if event != nil || !data.isEmpty {
                    events.append((id, event ?? "message", data.joined(separator: "\n")))
                }
                event = nil
                data = []
                continue
            }
            if text.hasPrefix(":") { continue }
            let (field, value) = Self.split(text)
            switch field {
            case "id": id = value
            case "event": event = value
            case "data": data.append(value)
            default: break
            }
        }
        return events
    }

    private static func split(_ text: String) -> (String, String) {
        guard let colon = text.firstIndex(of: ":") else { return (text, "") }
        var value = text[text.index(after: colon)...]
        if value.hasPrefix(" ") { value = value.dropFirst() }
        return (String(text[..<colon]), String(value))
    }
}
