import FileTree
import Logging
import SearchIndex
import ServiceLifecycle

/// `--thumbs eager`: thumbnails made ahead of any request, at low priority. At start every
/// picture under the root gets the grid's two size classes (256 for screens of two device
/// pixels per point, 512 for three), and afterwards each picture the index sees appear or
/// change; a gallery opened later finds them cached.
///
/// Requests come first: a picture waits until no decode is running or waiting, and then takes
/// one decoder of the pool, so a request arriving meanwhile finds the others free.
struct ThumbnailPregeneration: Service {
    let root: String
    /// The root held open: each picture is opened below it, so a folder swapped for a link
    /// that leads out is refused, not read through. `nil`: nothing is made.
    let contained: ContainedRoot?
    let filter: EntryFilter
    let thumbnails: ThumbnailService
    /// The index whose change feed names new pictures; `nil` with `--no-index` (start only).
    let index: NameIndex?
    let logger: Logger

    /// The size classes made ahead: what the web UI's grid asks for on phones.
    static let sizeClasses = [256, 512]

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await pregenerate()
        }
    }

    /// Walks the tree, then follows the index's changes. A follower that fell behind (the feed
    /// drops it, or says to start over) walks again: what is cached already costs a lookup.
    private func pregenerate() async {
        while !Task.isCancelled {
            // Subscribed before the walk, so nothing that appears during it is missed.
            let changes = index?.feed.subscribe()
            let started = ContinuousClock.now
            let pictures = await picturesBelowRoot()
            var made = 0
            for path in pictures {
                guard !Task.isCancelled else { return }
                made += await make(path)
            }
            logger.info(
                "Thumbnails made ahead: \(made) for \(pictures.count) pictures in \(ContinuousClock.now - started)"
            )
            guard let changes else { return }
            follow: for await item in changes.items {
                guard !Task.isCancelled else { return }
                switch item {
                case .event(let event):
                    let change = event.change
                    guard change.kind != .deleted, change.entry.kind == .file else { continue }
                    _ = await make(root == "/" ? change.path : root + change.path)
                case .reset: break follow
                case .heartbeat: continue
                }
            }
            // Dropped, told to start over, or the index stopped: walk again, but not in a loop.
            try? await Task.sleep(for: .seconds(5))
        }
    }

    /// Every file below the root a thumbnail can be made of, under the listing rules.
    private func picturesBelowRoot() async -> [String] {
        let extensions = thumbnails.extensions
        let reader = DirectoryReader(filter: filter)
        let root = self.root
        return await BlockingWork.run { () -> [String] in
            var found: [String] = []
            _ = try? reader.walk(at: root) { entry, _ in
                if entry.type == .regular, let ext = entry.pathExtension?.lowercased(),
                    extensions.contains(ext)
                {
                    found.append(entry.path)
                }
                return Task.isCancelled ? .stop : .continue
            }
            return found
        }
    }

    /// Makes the missing size classes of the picture at the absolute `path`; how many were made.
    private func make(_ path: String) async -> Int {
        guard let contained else { return 0 }
        let relative = root == "/" ? path : String(path.dropFirst(root.count))
        var made = 0
        for sizeClass in Self.sizeClasses {
            await thumbnails.waitUntilIdle()
            let done = try? await thumbnails.pregenerate(
                path: path, opening: relative, in: contained, sizeClass: sizeClass)
            if done == true { made += 1 }
        }
        return made
    }
}
