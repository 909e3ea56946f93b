internal import CFileTreeSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Scanner {
    /// One folder as a ``FolderListing``: the same entries, filter and order as ``entries(of:expectedCount:)``
    /// without making a ``FileEntry`` per entry (unless the filter has a predicate, which needs one).
    func listing(
        of path: String, in folder: Int32? = nil, expectedCount: Int = 0
    ) -> (FolderListing?, FileTreeError?) {
        let (read, opened, error) = readStatusesInBatch(
            of: path, in: folder, expectedCount: min(max(expectedCount, 16), 1 << 20))
        guard opened else { return (nil, error) }
        var batch = read
        if let linkSortsAsFolder, !filter.foldersOnly {
            // The batch followed each link wherever it leads; the reader's owner says which of
            // those that reached a folder sort as one (folders alone keep no link to ask of).
            for index in 0..<batch.count
            where batch.leadsToFolder[index] != 0 && batch.type(index) == .symlink {
                let name = batch.withName(index) { String(decoding: $0, as: UTF8.self) }
                if !linkSortsAsFolder(path.hasSuffix("/") ? path + name : path + "/" + name) {
                    batch.leadsToFolder[index] = 0
                }
            }
        }
        var kept = Array(0..<batch.count)
        if filter.foldersOnly { kept.removeAll { batch.type($0) != .directory } }
        if let order { kept = sorted(kept, of: batch, by: order) }
        // Each item is made once, in its place in the order. In name order the statuses are
        // read all over the batch (a folder of 10,000 holds 1.3 MB of them): each is asked of
        // memory a few items ahead, so that it is there when its item is made.
        var items: [FolderListing.Item] = []
        items.reserveCapacity(kept.count)
        batch.statuses.withUnsafeBufferPointer { statuses in
            let first = statuses.baseAddress
            for (position, index) in kept.enumerated() {
                if let first, position + Self.prefetchDistance < kept.count {
                    cft_prefetch(first + kept[position + Self.prefetchDistance])
                }
                items.append(batch.item(index))
            }
        }
        return (FolderListing(path: path, items: items, readError: error, names: batch.names), error)
    }

    /// Reads the folder's names first, then their statuses in one batch (on two threads for a
    /// large folder). A filter with a predicate is asked while the names are read, with an entry
    /// made for it (the one case that reads a status twice).
    private func readStatusesInBatch(
        of path: String, in folder: Int32?, expectedCount: Int
    ) -> (StatusBatch, opened: Bool, error: FileTreeError?) {
        let checksNames = !filter.excludedNames.isEmpty
        var batch = StatusBatch()
        batch.names.reserveCapacity(expectedCount * 24)
        let (opened, error) = readFolder(
            path, in: folder,
            { cName, kind, descriptor in
                if checksNames && !filter.includes(name: String(cString: cName)) { return }
                if let predicate = filter.predicate {
                    let entry = makeEntry(
                        name: String(cString: cName), cName: cName, folder: descriptor, parentPath: path,
                        direntType: kind)
                    guard predicate(entry) else { return }
                }
                // The names as read, each with its NUL (as the batch's C side wants them), become
                // the listing's names as they are: an item's name is its bytes up to the NUL.
                batch.offsets.append(UInt32(batch.names.count))
                batch.kinds.append(kind)
                let length = strlen(cName)
                batch.names.append(contentsOf: UnsafeRawBufferPointer(start: cName, count: length + 1))
            },
            whileOpen: { descriptor in
                // A second thread helps only while a core is idle: with as many listings being
                // read as there are cores, each reads on its own thread.
                let reading = Self.readingStatuses.add(1, ordering: .relaxed).newValue
                defer { Self.readingStatuses.subtract(1, ordering: .relaxed) }
                let threads = reading >= Int(Self.processorCount) ? 1 : Self.processorCount
                let count = batch.count
                var statuses = [cft_status](repeating: cft_status(), count: count)
                var errors = [Int32](repeating: 0, count: count)
                var leadsToFolder = [UInt8](repeating: 0, count: count)
                batch.names.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { cNames in
                        cft_status_batch(
                            descriptor, cNames.baseAddress, batch.offsets, count, &statuses, &errors,
                            &leadsToFolder, threads)
                    }
                }
                (batch.statuses, batch.errors, batch.leadsToFolder) = (statuses, errors, leadsToFolder)
            })
        return (batch, opened, error)
    }

    /// How many items ahead of the one being made its status is asked of memory.
    private static let prefetchDistance = 8

    /// How many batches of statuses are being read now, in every scanner of the process.
    private static let readingStatuses = Atomic<Int>(0)

    /// How many threads a batch of statuses may use.
    private static let processorCount = Int32(max(1, min(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    /// The entries at `kept` (positions in `batch`) in `order`.
    private func sorted(_ kept: [Int], of batch: StatusBatch, by order: EntryOrder) -> [Int] {
        let registry = self.registry
        let sorted = order.sortedIndices(
            count: kept.count,
            sortsAsFolder: { batch.sortsAsFolder(kept[$0]) },
            status: { batch.status(kept[$0]) },
            kind: { position in  // as `makeEntry` decides an entry's content type
                let index = kept[position]
                let name = batch.withName(index) { String(decoding: $0, as: UTF8.self) }
                return switch batch.status(index)?.type {
                case .regular: registry.type(forFileName: name).identifier
                case .directory: registry.type(forFileName: name, isDirectory: true).identifier
                case .symlink: ContentType.symbolicLink.identifier
                case .other: ContentType.item.identifier
                case nil:
                    batch.type(index) == .directory
                        ? ContentType.folder.identifier : registry.type(forFileName: name).identifier
                }
            },
            appendFoldedName: { position, folded in
                batch.withName(kept[position]) { NaturalName.appendKey(ofUTF8: $0, into: &folded) }
            },
            namePrecedes: { left, right in
                batch.withName(kept[left]) { leftName in
                    batch.withName(kept[right]) { rightName in
                        leftName.elementsEqual(rightName)
                            ? nil : leftName.lexicographicallyPrecedes(rightName)
                    }
                }
            })
        return sorted.map { kept[$0] }
    }
}
