internal import CFileTreeSystem

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
        names.reserveCapacity(min(max(expectedCount, 16), 1 << 20) * 24)
        let checksNames = !filter.excludedNames.isEmpty
        let (opened, error) = readFolder(path, in: folder) { cName, kind, descriptor in
            if checksNames && !filter.includes(name: String(cString: cName)) { return }
            if let predicate = filter.predicate {
                let entry = makeEntry(
                    name: String(cString: cName), cName: cName, folder: descriptor, parentPath: path,
                    direntType: kind)
                guard predicate(entry) else { return }
            }
            let item: FolderListing.Item
            switch FileStatus.read(cName, relativeTo: descriptor, followingSymlink: false) {
            case .success(let status):
                let type = status.type
                var folder = type == .directory
                if type == .symlink,
                    case .success(let target) = FileStatus.read(
                        cName, relativeTo: descriptor, followingSymlink: true)
                {
                    folder = target.type == .directory
                }
                item = FolderListing.Item(
                    type: type, status: status, errorNumber: 0, sortsAsFolder: folder,
                    nameStart: Int32(names.count), nameLength: Int32(strlen(cName)))
            case .failure(let failure):
                let type = EntryType(direntType: kind)
                item = FolderListing.Item(
                    type: type, status: nil, errorNumber: failure.number, sortsAsFolder: type == .directory,
                    nameStart: Int32(names.count), nameLength: Int32(strlen(cName)))
            }
            if filter.foldersOnly && item.type != .directory { return }
            cName.withMemoryRebound(to: UInt8.self, capacity: Int(item.nameLength)) {
                names.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(item.nameLength)))
            }
            items.append(item)
        }
        guard opened else { return (nil, error) }
        var listing = FolderListing(path: path, items: items, readError: error, names: names)
        if let order {
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
            listing.items = sorted.map { items[$0] }
        }
        return (listing, error)
    }
}
