import BrowseyAPI
import Logging
import SearchIndex
import ServiceLifecycle

/// The content index as a service: built in the background once the name index is ready, kept
/// fresh by its change feed until the server shuts down.
struct ContentIndexing: Service {
    let index: ContentIndex

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await index.run()
        }
        try? await gracefulShutdown()
    }
}

extension ServerComposition {
    /// The content index for `configuration` over `names`, or `nil` when it is off.
    static func contentIndex(
        _ configuration: ServerConfiguration, names: NameIndex, logger: Logger
    ) -> ContentIndex? {
        guard configuration.indexesContent else { return nil }
        // Beside the name index's file: `index-….sqlite` keeps `index-….content.sqlite`.
        let store = configuration.indexPath.map { path in
            (path.hasSuffix(".sqlite") ? String(path.dropLast(7)) : path) + ".content.sqlite"
        }
        var extensions = FileController.textExtensions
        extensions.remove("env")  // secrets more often than notes
        return ContentIndex(
            options: .init(root: configuration.root, storePath: store, textExtensions: extensions),
            names: names,
            logger: logger)
    }
}

extension HealthResponse.ContentIndex {
    /// What `/api/health` says of `progress`.
    init(_ progress: ContentIndex.Progress) {
        self.init(
            phase: progress.phase.rawValue, filesRead: progress.filesRead, filesToRead: progress.filesToRead,
            textFiles: progress.textFiles, bytesOnDisk: progress.bytesOnDisk)
    }
}
