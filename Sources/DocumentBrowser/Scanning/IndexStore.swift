import Dispatch
import Synchronization

/// The one index a browser model reads from, changed only on its own serial queue: the watcher's
/// batches and the model's own operations are applied in the order they come, each to the
/// result of the one before, never to a stale copy.
final class IndexStore: Sendable {
    /// What one change produced: the index after it, its version, the documents it touched and
    /// the items of the location the model showed when it asked.
    struct Snapshot: Sendable {
        var index: DocumentIndex
        var version: Int
        var touched: Set<DocumentItem.ID>
        var items: [DocumentItem]
    }

    private let queue = DispatchQueue(label: "DocumentBrowser.IndexStore")
    private let state = Mutex<(index: DocumentIndex?, version: Int)>((nil, 0))

    /// Runs `change` on the current index (or scans the library first when there is none, or
    /// when `rescanning`) and returns the result with the items at `location`.
    func change(
        library: DocumentLibrary, location: DocumentItem.ID, order: DocumentSortOrder,
        rescanning: Bool = false,
        _ change: @escaping @Sendable (inout DocumentIndex) -> Set<DocumentItem.ID>
    ) async -> Result<Snapshot, DocumentBrowserError> {
        await withCheckedContinuation { continuation in
            queue.async {
                let result = self.state.withLock { state -> Result<Snapshot, DocumentBrowserError> in
                    var index: DocumentIndex
                    if let current = state.index, !rescanning {
                        index = current
                    } else {
                        switch Result(catching: { () throws(DocumentBrowserError) in
                            try DocumentIndex.scan(library)
                        }) {
                        case .success(let scanned): index = scanned
                        case .failure(let error): return .failure(error)
                        }
                    }
                    let touched = change(&index)
                    state.index = index
                    state.version += 1
                    return .success(
                        Snapshot(
                            index: index, version: state.version, touched: touched,
                            items: index.items(in: location, order: order)))
                }
                continuation.resume(returning: result)
            }
        }
    }
}
