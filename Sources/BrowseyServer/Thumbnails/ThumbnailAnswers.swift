import FileTree
import NIOCore
import NIOHTTP1
import Synchronization

/// Whole answers to `GET /api/thumb`, kept in memory as they were sent, so that the same
/// request for the same picture is answered again by ``ThumbnailFastPath`` on the connection's
/// event loop, without the router, the middleware or a task (a grid scrolled back, a viewer's
/// neighbours asked again, the same thumbnail on many phones).
///
/// An answer is kept only as the router made it, and only reused while nothing it depends on
/// can have changed:
/// - **The request.** Its key is the request line's target and every header field but those
///   no route reads (``ignoredFields``): a different `Accept`, `Host`, `Origin`, token or
///   cookie is another key, answered by the router first.
/// - **The picture.** The router says which file the answer shows and the version it read
///   (``prepare(slot:path:version:)``); the answer is kept only if the file is still that
///   version once it is sent, and every reuse reads the file's status again (one `statx`) and
///   gives the answer up when its device, inode, size, modification or status-change time
///   differ: a picture rewritten, renamed away, replaced, or whose permissions changed is
///   answered by the router again.
/// - **Who asks.** Only a server without accounts keeps answers: a session can end and a
///   share can be revoked while the same cookie is sent. A token is fixed for the server's
///   life, and part of the key.
///
/// Memory is bounded: answers of at most ``maximumAnswerBytes`` each, ``maximumBytes`` in
/// all, the oldest given up first.
final class ThumbnailAnswers: Sendable {
    /// The request header through which ``ThumbnailFastPath`` tells the router which answer it
    /// would keep. The handler removes it from every request it passes on, so a client cannot
    /// name one.
    static let slotField = "X-Browsey-Thumbnail-Slot"

    /// Request fields no route reads, left out of the key so that browsers' varying ones (the
    /// referring page, fetch metadata) do not make every request a new one.
    static let ignoredFields: Set<String> = [
        "user-agent", "referer", "accept-language", "sec-fetch-dest", "sec-fetch-mode",
        "sec-fetch-site", "sec-fetch-user", "priority", "dnt", "sec-gpc", "cache-control", "pragma",
        "connection", "upgrade-insecure-requests", "sec-ch-ua", "sec-ch-ua-mobile", "sec-ch-ua-platform",
    ]
    /// Request fields that ask for something else than the whole current answer: such a request
    /// always goes to the router.
    static let conditionalFields: Set<String> = [
        "if-none-match", "if-match", "if-modified-since", "if-unmodified-since", "if-range", "range",
        "content-length", "transfer-encoding", "expect", "upgrade",
    ]

    /// What an answer depends on in its picture's status.
    struct Version: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Timestamp
        let statusChanged: Timestamp

        init(_ status: FileStatus) {
            device = status.device
            inode = status.inode
            size = status.size
            modified = status.modified
            statusChanged = status.statusChanged
        }
    }

    /// An answer as sent, and what it was made from.
    struct Answer: Sendable {
        let head: HTTPResponseHead
        let body: ByteBuffer
        let path: String
        let version: Version

        /// What the answer takes in memory under `key`, about: a client chooses its header
        /// fields, so the key counts as well as the body.
        func size(_ key: String) -> Int {
            key.utf8.count + body.readableBytes + path.utf8.count + 256
        }
    }

    private struct State {
        var answers: [String: Answer] = [:]
        /// Keys in the order they were kept; `first` is the oldest still listed.
        var order: [String] = []
        var first = 0
        var bytes = 0
        var nextSlot: UInt64 = 1
        /// Slots handed to requests on their way to the router; the router's file once it
        /// answered.
        var slots: [UInt64: (path: String, version: Version)?] = [:]
    }

    /// The most bytes of answers kept (their keys, heads and bodies).
    let maximumBytes: Int
    /// The largest answer kept (a grid's thumbnails; a screen-sized preview is larger).
    let maximumAnswerBytes: Int
    private let state = Mutex(State())
    /// Requests answered from here.
    private let hits = Atomic<Int>(0)

    init(maximumBytes: Int = 16 << 20, maximumAnswerBytes: Int = 256 << 10) {
        self.maximumBytes = maximumBytes
        self.maximumAnswerBytes = maximumAnswerBytes
    }

    /// The key of a request that may be answered from here, or `nil` for one that may not:
    /// not a plain `GET /api/thumb`, conditional, with a body, or closing its connection.
    static func key(of head: HTTPRequestHead) -> String? {
        guard head.method == .GET, head.uri.utf8.starts(with: "/api/thumb?".utf8), head.isKeepAlive else {
            return nil
        }
        var key = head.uri
        for (name, value) in head.headers {
            let lowered = name.lowercased()
            if conditionalFields.contains(lowered) { return nil }
            if ignoredFields.contains(lowered) { continue }
            key += "\n" + lowered + ":" + value
        }
        return key
    }

    /// The answer kept for `key`, if its picture is still the version it shows.
    func answer(for key: String) -> Answer? {
        guard let answer = state.withLock({ $0.answers[key] }) else { return nil }
        if let status = FileStatus(path: answer.path), Version(status) == answer.version {
            hits.wrappingAdd(1, ordering: .relaxed)
            return answer
        }
        state.withLock { state in
            if let kept = state.answers[key], kept.version == answer.version {
                state.answers[key] = nil
                state.bytes -= kept.size(key)
            }
        }
        return nil
    }

    /// A slot for a request on its way to the router, whose answer may then be kept.
    func issueSlot() -> UInt64 {
        state.withLock { state in
            let slot = state.nextSlot
            state.nextSlot += 1
            state.slots[slot] = .some(nil)
            return slot
        }
    }

    /// The router's word that the answer to the request in `slot` shows `path` at `version`.
    /// A slot not issued here is ignored.
    func prepare(slot: UInt64, path: String, version: Version) {
        state.withLock { state in
            guard state.slots[slot] != nil else { return }
            state.slots[slot] = .some((path, version))
        }
    }

    /// Keeps the answer `head` and `body` sent for the request in `slot` under `key`, if the
    /// router prepared the slot and the picture is still the version it read; frees the slot
    /// either way.
    func keep(slot: UInt64, key: String, head: HTTPResponseHead, body: ByteBuffer) {
        guard let prepared = state.withLock({ $0.slots.removeValue(forKey: slot) }), let file = prepared,
            body.readableBytes <= maximumAnswerBytes,
            let status = FileStatus(path: file.path), Version(status) == file.version
        else { return }
        let answer = Answer(head: head, body: body, path: file.path, version: file.version)
        state.withLock { state in
            if let replaced = state.answers.updateValue(answer, forKey: key) {
                state.bytes -= replaced.size(key)
            } else {
                state.order.append(key)
            }
            state.bytes += answer.size(key)
            while state.bytes > maximumBytes, state.first < state.order.count {
                let oldest = state.order[state.first]
                state.first += 1
                if let removed = state.answers.removeValue(forKey: oldest) {
                    state.bytes -= removed.size(oldest)
                }
            }
            // The list also holds keys given up as stale, and again when kept again: rebuilt,
            // each kept key once, when it is more than twice as long as it needs.
            if state.order.count > 2 * state.answers.count + 64 {
                var listed = Set<String>()
                state.order = state.order[state.first...].filter {
                    state.answers[$0] != nil && listed.insert($0).inserted
                }
                state.first = 0
            }
        }
    }

    /// Gives up the answers showing `path` or anything under it (everything when `everything`):
    /// the watcher's word that it changed. A status read on each reuse does not see a folder
    /// above the picture renamed away and replaced by a link to it (the file keeps its inode and
    /// times), which the router would refuse.
    func invalidate(_ path: String, everything: Bool) {
        state.withLock { state in
            guard !state.answers.isEmpty else { return }
            if everything {
                state.answers.removeAll()
                state.order.removeAll()
                state.first = 0
                state.bytes = 0
                return
            }
            let folder = path.hasSuffix("/") ? path : path + "/"
            for (key, answer) in state.answers where answer.path == path || answer.path.hasPrefix(folder) {
                state.answers[key] = nil
                state.bytes -= answer.size(key)
            }
        }
    }

    /// Frees `slot` without keeping anything (the router did not answer 200, or the
    /// connection closed first).
    func release(slot: UInt64) {
        _ = state.withLock { $0.slots.removeValue(forKey: slot) }
    }

    /// How many answers are kept, their bytes, and how many requests they answered.
    var count: (answers: Int, bytes: Int, hits: Int) {
        let (answers, bytes) = state.withLock { ($0.answers.count, $0.bytes) }
        return (answers, bytes, hits.load(ordering: .relaxed))
    }
}
