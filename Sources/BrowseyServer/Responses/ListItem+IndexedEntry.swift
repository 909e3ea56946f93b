import BrowseyAPI
import FileTree
import SearchIndex

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ListItem {
    /// The contract's item for an entry the index saw at `absolutePath` (what a change event
    /// carries): the index keeps no link targets, so a link is described as itself.
    init(_ entry: IndexedEntry, absolutePath: String) {
        self.init(
            name: entry.name, type: ItemType(entry.kind), size: entry.size,
            modified: Date(timeIntervalSince1970: Double(entry.modified / 1_000_000) / 1000),
            extension: entry.kind == .directory
                ? nil : FileName.pathExtension(of: entry.name).map(String.init),
            absolutePath: absolutePath)
    }
}
