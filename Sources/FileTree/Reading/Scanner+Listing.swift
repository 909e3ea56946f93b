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
        var items: [FolderListing.Item] = []
        items.reserveCapacity(min(max(expectedCount, 16), 1 << 20))
        var names: [UInt8] = []
        let checksNames = !filter.excludedNames.isEmpty
        let read = readStatusesInBatch(
            of: path, in: folder, checksNames: checksNames, into: &items, names: &names)
        let (opened, error) = read
        guard opened else { return (nil, error) }
        var listing = FolderListing(path: path, items: items, readError: error, names: names)
        if let order { listing.items = sorted(items, of: listing, by: order) }
        return (listing, error)
    }

    /// Reads the folder's names first, then their statuses in one batch (on two threads for a
    /// large folder). A filter with a predicate is asked while the names are read, with an entry
    /// made for it (the one case that reads a status twice).
    private func readStatusesInBatch(
        of path: String, in folder: Int32?, checksNames: Bool, into items: inout [FolderListing.Item],
        names: inout [UInt8]
    ) -> (opened: Bool, error: FileTreeError?) {
        // The names as read, each with its NUL (as the batch's C side wants them), become the
        // listing's names as they are: an item's name is its bytes up to the NUL.
        var cNames: [UInt8] = []
        cNames.reserveCapacity(items.capacity * 24)
        var offsets: [UInt32] = []
        var kinds: [UInt8] = []
        var statuses: [cft_status] = []
        var errors: [Int32] = []
        var leadsToFolder: [UInt8] = []
        let read = readFolder(
            path, in: folder,
            { cName, kind, descriptor in
                if checksNames && !filter.includes(name: String(cString: cName)) { return }
                if let predicate = filter.predicate {
                    let entry = makeEntry(
                        name: String(cString: cName), cName: cName, folder: descriptor, parentPath: path,
                        direntType: kind)
                    guard predicate(entry) else { return }
                }
                offsets.append(UInt32(cNames.count))
                kinds.append(kind)
                let length = strlen(cName)
                cNames.append(contentsOf: UnsafeRawBufferPointer(start: cName, count: length + 1))
            },
            whileOpen: { descriptor in
                // A second thread helps only while a core is idle: with as many listings being
                // read as there are cores, each reads on its own thread.
                let reading = Self.readingStatuses.add(1, ordering: .relaxed).newValue
                defer { Self.readingStatuses.subtract(1, ordering: .relaxed) }
                let threads = reading >= Int(Self.processorCount) ? 1 : Self.processorCount
                let count = offsets.count
                statuses = [cft_status](repeating: cft_status(), count: count)
                errors = [Int32](repeating: 0, count: count)
                leadsToFolder = [UInt8](repeating: 0, count: count)
                cNames.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { cNames in
                        cft_status_batch(
                            descriptor, cNames.baseAddress, offsets, count, &statuses, &errors,
                            &leadsToFolder, threads)
                    }
                }
            })
        guard read.opened else { return read }
        let bytes = cNames.count
        for index in offsets.indices {
            let start = Int(offsets[index])
            // Each name ends with its NUL, and the next one starts right after it.
            let end = (index + 1 < offsets.count ? Int(offsets[index + 1]) : bytes) - 1
            let length = Int32(end - start)
            let item: FolderListing.Item
            if errors[index] == 0 {
                let status = FileStatus(statuses[index])
                let type = status.type
                item = FolderListing.Item(
                    type: type, status: status, errorNumber: 0,
                    sortsAsFolder: type == .directory || (type == .symlink && leadsToFolder[index] != 0),
                    nameStart: Int32(start), nameLength: length)
            } else {
                let type = EntryType(direntType: kinds[index])
                item = FolderListing.Item(
                    type: type, status: nil, errorNumber: errors[index],
                    sortsAsFolder: type == .directory,
                    nameStart: Int32(start), nameLength: length)
            }
            if filter.foldersOnly && item.type != .directory { continue }
            items.append(item)
        }
        names = cNames
        return read
    }

    /// How many batches of statuses are being read now, in every scanner of the process.
    private static let readingStatuses = Atomic<Int>(0)

    /// How many threads a batch of statuses may use.
    private static let processorCount = Int32(max(1, min(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    /// `items` in `order`.
    private func sorted(
        _ items: [FolderListing.Item], of listing: FolderListing, by order: EntryOrder
    ) -> [FolderListing.Item] {
        let registry = self.registry
        let sorted = order.sortedIndices(
            count: items.count,
            sortsAsFolder: { items[$0].sortsAsFolder },
            status: { items[$0].status },
            kind: { index in  // as `makeEntry` decides an entry's content type
                switch items[index].status?.type {
                case .regular: registry.type(forFileName: listing.name(of: items[index])).identifier
                case .directory:
                    registry.type(forFileName: listing.name(of: items[index]), isDirectory: true)
                        .identifier
                case .symlink: ContentType.symbolicLink.identifier
                case .other: ContentType.item.identifier
                case nil:
                    items[index].type == .directory
                        ? ContentType.folder.identifier
                        : registry.type(forFileName: listing.name(of: items[index])).identifier
                }
            },
            appendFoldedName: { index, folded in
                listing.withName(of: items[index]) { NaturalName.appendKey(ofUTF8: $0, into: &folded) }
            },
            namePrecedes: { left, right in
                listing.withName(of: items[left]) { leftName in
                    listing.withName(of: items[right]) { rightName in
                        leftName.elementsEqual(rightName)
                            ? nil : leftName.lexicographicallyPrecedes(rightName)
                    }
                }
            })
        return sorted.map { items[$0] }
    }
}
