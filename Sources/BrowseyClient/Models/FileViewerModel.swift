import BrowseyAPI
public import Observation

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A file as the viewer shows it: its kind of content (code with its language, Markdown, text,
/// image with its neighbours for swiping, video, audio, PDF, binary), an info sheet for people,
/// download with progress, and text editing whose save never discards the user's text (a 409
/// shows both versions).
@MainActor
@Observable
public final class FileViewerModel {
    /// What the viewer draws.
    public enum Content: Sendable, Hashable {
        case code(String, language: String)
        case markdown(String)
        case text(String)
        /// An image at this URL path (`/api/file?…`), with its size when the server read it.
        case image(url: String, width: Int?, height: Int?)
        case video(url: String)
        case audio(url: String)
        case pdf(url: String)
        /// Nothing to show: offer the download.
        case binary
    }

    /// The state of the screen.
    public enum Phase: Sendable {
        case loading, loaded
        case failed(BrowseyClientError)
    }

    /// A save refused because the file changed on the server meanwhile: both versions.
    public struct Conflict: Sendable, Hashable {
        /// The user's text, kept.
        public var mine: String
        /// The server's text now.
        public var theirs: String
        /// When the server's version was written.
        public var theirsModified: Date
    }

    /// The client asked.
    public let client: APIClient
    /// The file's path on the server.
    public private(set) var path: String
    /// The state of the screen.
    public private(set) var phase: Phase = .loading
    /// What to draw.
    public private(set) var content: Content?
    /// The info sheet: label and value, for people.
    public private(set) var info: [(label: String, value: String)] = []
    /// The images of the same folder, in name order, when this is one (for swiping).
    public private(set) var neighbours: [String] = []
    /// The text being edited (text files only).
    public var draft = ""
    /// Set when a save met a newer version on the server.
    public private(set) var conflict: Conflict?
    /// A download under way.
    public private(set) var download: DownloadProgress?

    private var stat: StatResponse?

    /// A viewer of `path` on `client`'s server.
    public init(client: APIClient, path: String) {
        self.client = client
        self.path = path
    }

    /// Whether the text can be edited and saved.
    public var isEditable: Bool {
        switch content {
        case .code, .markdown, .text: stat != nil
        default: false
        }
    }

    /// Whether the draft differs from what was loaded or saved last.
    public private(set) var savedText = ""
    /// Whether there are unsaved changes.
    public var hasChanges: Bool { isEditable && draft != savedText }

    /// Loads the file's metadata and content.
    public func load() async {
        phase = .loading
        let loaded = await Self.attempt { [client, path] () async throws(BrowseyClientError) in
            let stat = try await client.stat(path)
            return (stat, try await Self.content(of: path, stat: stat, client: client))
        }
        guard case .success(let (stat, content)) = loaded else {
            if case .failure(let error) = loaded { phase = .failed(error) }
            return
        }
        self.stat = stat
        info = Self.info(for: stat)
        self.content = content
        if case .image = content {
            neighbours = (try? await images(besides: path)) ?? [path]
        } else {
            neighbours = []
        }
        switch content {
        case .code(let text, _), .markdown(let text), .text(let text):
            draft = text
            savedText = text
        default:
            break
        }
        phase = .loaded
    }

    /// The next (or previous) image of the folder, wrapping around.
    public func show(offset: Int) async {
        guard let index = neighbours.firstIndex(of: path), neighbours.count > 1 else { return }
        path = neighbours[(index + offset + neighbours.count) % neighbours.count]
        await load()
    }

    /// Saves the draft if the file is still the version loaded; otherwise keeps the draft and
    /// sets ``conflict`` with the server's version. Returns whether it saved.
    @discardableResult
    public func save() async -> Bool {
        guard let stat else { return false }
        let result = await Self.attempt { [client, path, draft] () async throws(BrowseyClientError) in
            try await client.save(path, content: draft, baseModified: stat.modified, baseSize: stat.size)
        }
        switch result {
        case .success(let saved):
            self.stat?.modified = saved.modified
            self.stat?.size = saved.size
            savedText = draft
            conflict = nil
            return true
        case .failure(let error) where error.code == .conflict:
            let mine = draft
            let latest = try? await client.stat(path)
            let theirs = (try? await client.view(path))?.content ?? ""
            conflict = Conflict(mine: mine, theirs: theirs, theirsModified: latest?.modified ?? Date())
            if let latest { self.stat = latest }
            return false
        case .failure(let error):
            phase = .failed(error)
            return false
        }
    }

    /// The outcome of a client call as a value.
    static func attempt<T: Sendable>(
        _ body: () async throws(BrowseyClientError) -> T
    ) async -> Result<T, BrowseyClientError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// After a conflict: saves the user's text over the server's version (which was seen).
    @discardableResult
    public func keepMine() async -> Bool {
        guard let conflict else { return false }
        draft = conflict.mine
        return await save()
    }

    /// After a conflict: takes the server's version, dropping the user's changes.
    public func takeTheirs() {
        guard let conflict else { return }
        draft = conflict.theirs
        savedText = conflict.theirs
        self.conflict = nil
    }

    /// Downloads the file to `destination` (for sharing), with ``download`` following it.
    public func download(to destination: String) async throws(BrowseyClientError) {
        download = DownloadProgress(received: 0, total: stat?.size)
        let progress = ProgressRelay { [weak self] value in Task { @MainActor in self?.download = value } }
        defer { download = nil }
        try await client.download(path, to: destination) { progress.send($0) }
    }

    // MARK: Building

    static func content(
        of path: String, stat: StatResponse, client: APIClient
    ) async throws(BrowseyClientError) -> Content {
        let url = "/api/file?path=" + PercentEncoding.queryValue(path) + "&download=false"
        let mime = stat.mimeType ?? ""
        if mime.hasPrefix("audio/") { return .audio(url: url) }
        if mime == "application/pdf" { return .pdf(url: url) }
        let answer = await attempt { () async throws(BrowseyClientError) in try await client.view(path) }
        let view: ViewResponse
        switch answer {
        case .success(let value): view = value
        case .failure(let error) where error.status == 400 || error.status == 413: return .binary
        case .failure(let error): throw error
        }
        switch view.type {
        case .text:
            let text = view.content ?? ""
            let language = view.language ?? "plaintext"
            if language == "markdown" { return .markdown(text) }
            return language == "plaintext" ? .text(text) : .code(text, language: language)
        case .image:
            return .image(
                url: view.url ?? url, width: view.dimensions?.width, height: view.dimensions?.height)
        case .video:
            return .video(url: view.url ?? url)
        }
    }

    static func info(for stat: StatResponse) -> [(label: String, value: String)] {
        let size =
            stat.size >= 1000
            ? "\(ByteCount.text(stat.size)) (\(stat.size) bytes)" : ByteCount.text(stat.size)
        var rows: [(label: String, value: String)] = [
            ("Name", stat.name),
            ("Type", stat.mimeType ?? stat.type.rawValue),
            ("Size", size),
        ]
        if let ext = stat.extension { rows.append(("Extension", ext)) }
        rows.append(("Modified", Self.dateText(stat.modified)))
        rows.append(("Created", Self.dateText(stat.created)))
        rows.append(("Path", stat.absolutePath))
        return rows
    }

    /// `2024-01-15 10:30 UTC`.
    static func dateText(_ date: Date) -> String {
        String(BrowseyDate.string(from: date).prefix(16).map { $0 == "T" ? " " : $0 }) + " UTC"
    }

    private func images(besides path: String) async throws(BrowseyClientError) -> [String] {
        let folder = "/" + path.split(separator: "/").dropLast().joined(separator: "/")
        let listing = try await client.list(folder)
        let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "svg", "ico", "bmp", "avif"]
        return listing.items
            .filter { $0.type == .file && imageExtensions.contains(($0.extension ?? "").lowercased()) }
            .map { (folder == "/" ? "" : folder) + "/" + $0.name }
            .sorted { BrowserSort.nameLess($0, $1) }
    }
}

/// Hands progress from a download's thread to the main actor.
struct ProgressRelay: Sendable {
    let send: @Sendable (DownloadProgress) -> Void
    init(_ send: @escaping @Sendable (DownloadProgress) -> Void) { self.send = send }
}
