public import Observation

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A pinned folder as a screen shows it: kept for offline reading by a ``FolderMirror``, and
/// whether the copy is current (pinned), being brought up to date (syncing), or could not reach
/// the server (offline: the copy from the last sync is still there to read).
@MainActor
@Observable
public final class PinnedFolderModel {
    /// Where the pinned copy stands.
    public enum State: Sendable, Hashable {
        /// Not synced yet in this session.
        case idle
        /// A sync is running: `done` of `total` files fetched (0 of 0 while the manifest is asked).
        case syncing(done: Int, total: Int)
        /// The copy matches the server as of `synced`.
        case pinned(synced: Date)
        /// The server could not be reached; the copy is as of `lastSynced` (nil: never in this
        /// session).
        case offline(reason: String, lastSynced: Date?)
        /// The server refused or the copy could not be written; retrying may help.
        case failed(reason: String)
    }

    /// The mirror kept.
    public let mirror: FolderMirror
    /// Where the copy stands.
    public private(set) var state = State.idle
    /// What the last finished sync did.
    public private(set) var lastReport: FolderMirror.Report?
    private var lastSynced: Date?
    private let now: @Sendable () -> Date

    /// A model of `mirror`; `now` dates each sync (a test passes its own clock).
    public init(mirror: FolderMirror, now: @escaping @Sendable () -> Date = { Date() }) {
        self.mirror = mirror
        self.now = now
    }

    /// Brings the copy up to date; the state follows it. A sync already running is not doubled.
    public func sync() async {
        if case .syncing = state { return }
        state = .syncing(done: 0, total: 0)
        let mirror = self.mirror
        do {
            let report = try await mirror.sync { progress in
                Task { @MainActor [weak self] in self?.progressed(progress) }
            }
            lastReport = report
            let date = now()
            lastSynced = date
            state = .pinned(synced: date)
        } catch {
            switch error.code {
            case .unreachable, .timedOut: state = .offline(reason: error.message, lastSynced: lastSynced)
            default: state = .failed(reason: error.message)
            }
        }
    }

    private func progressed(_ progress: FolderMirror.Progress) {
        guard case .syncing = state else { return }
        state = .syncing(done: progress.done, total: progress.total)
    }
}
