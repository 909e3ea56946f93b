public import FileTree

/// Every document and group below a library's root, kept as one record per folder so that a
/// change is applied where it happened instead of by reading the tree again.
///
/// ```swift
/// var index = try DocumentIndex.scan(library)          // the first, full scan
/// for await batch in watcher.changes {
///     let touched = index.apply(batch)                 // only the changed paths are read
///     show(index.items(in: "", order: .newestFirst))
/// }
/// ```
///
/// A value: copies are cheap until changed, and it is `Sendable`, so the scans run off the main
/// actor and the result is handed over whole.
public struct DocumentIndex: Sendable {
    /// The library indexed.
    public let library: DocumentLibrary
    var records: [String: FolderRecord]
    private let reader = DirectoryReader(filter: .all)

    /// Deepest folder level entered (a guard against bind-mount loops).
    static let maximumDepth = 64

    private init(library: DocumentLibrary) {
        self.library = library
        self.records = [:]
    }

    /// Reads the whole library.
    ///
    /// - Throws: ``DocumentBrowserError`` (`notFound`, `fileSystem`) when the root cannot be
    ///   read. Folders below it that cannot be read are shown empty.
    public static func scan(_ library: DocumentLibrary) throws(DocumentBrowserError) -> DocumentIndex {
        var index = DocumentIndex(library: library)
        do {
            _ = try index.reader.entries(at: library.root)
        } catch {
            throw DocumentBrowserError(error, "Reading the documents folder")
        }
        index.scanFolder("", depth: 0)
        return index
    }

    // MARK: Reading

    /// How many documents the library holds, in groups or not.
    public var documentCount: Int { records.values.reduce(0) { $0 + $1.documents.count } }

    /// Whether `id` is a group.
    public func isGroup(_ id: DocumentItem.ID) -> Bool { records[id]?.isGroup == true }

    /// The document or group `id`, if it is there.
    public func item(_ id: DocumentItem.ID) -> DocumentItem? {
        if let record = records[id] { return record.isGroup ? groupItem(id) : nil }
        let (parent, name) = Self.split(id)
        return records[parent]?.documents[name]
    }

    /// What a browser shows at `location` (the root `""`, or a group): its documents and those
    /// of plain folders below it, and its groups as single items, in `order`.
    public func items(in location: DocumentItem.ID, order: DocumentSortOrder) -> [DocumentItem] {
        var items: [DocumentItem] = []
        collect(location, into: &items, groupsAsItems: true)
        order.sort(&items)
        return items
    }

    private func collect(_ folder: String, into items: inout [DocumentItem], groupsAsItems: Bool) {
        guard let record = records[folder] else { return }
        items.append(contentsOf: record.documents.values)
        for name in record.folders {
            let id = Self.join(folder, name)
            guard let child = records[id] else { continue }
            if child.isGroup && groupsAsItems {
                items.append(groupItem(id))
            } else {
                collect(id, into: &items, groupsAsItems: groupsAsItems)
            }
        }
    }

    private func groupItem(_ id: String) -> DocumentItem {
        var documents: [DocumentItem] = []
        collect(id, into: &documents, groupsAsItems: false)
        let folder = library.path(of: id)
        let record = records[id]
        var modified = record?.modified ?? Timestamp(seconds: 0, nanoseconds: 0)
        var size: Int64 = 0
        for document in documents {
            modified = max(modified, document.modified)
            size += document.size
        }
        DocumentSortOrder.newestFirst.sort(&documents)
        return DocumentItem(
            id: id, path: folder, name: Self.split(id).name, kind: .group, isPackage: false, size: size,
            modified: modified, created: record?.created, documentCount: documents.count,
            previewIDs: documents.prefix(4).map(\.id))
    }

    // MARK: Scanning

    private mutating func scanFolder(_ id: String, depth: Int, own: FileEntry? = nil) {
        var record = FolderRecord()
        record.modified = own?.status?.modified
        record.created = own?.status?.created
        let entries = (try? reader.entries(at: library.path(of: id))) ?? []
        var subfolders: [FileEntry] = []
        for entry in entries {
            switch role(of: entry, depth: depth + 1) {
            case .groupMarker: record.isGroup = true
            case .document: record.documents[entry.name] = documentItem(entry, in: id)
            case .folder:
                record.folders.insert(entry.name)
                subfolders.append(entry)
            case .nothing: continue
            }
        }
        records[id] = record
        for folder in subfolders { scanFolder(Self.join(id, folder.name), depth: depth + 1, own: folder) }
    }

    /// What a folder entry is to the library.
    private enum Role {
        /// The file that makes its folder a group.
        case groupMarker
        /// A document: a file, or a package folder, of a document type.
        case document
        /// A folder to enter.
        case folder
        /// Nothing: another file, a folder not entered or too deep, or a link (links are never
        /// followed, so a document is never shown twice).
        case nothing
    }

    /// What `entry` is, at `depth` (the number of components of its id): a folder deeper than
    /// ``maximumDepth`` is not entered.
    private func role(of entry: FileEntry, depth: Int) -> Role {
        switch entry.type {
        case .regular:
            if entry.name == library.groupMarkerName { return .groupMarker }
            return library.isDocumentName(entry.name) ? .document : .nothing
        case .directory:
            if library.isDocumentName(entry.name) { return .document }
            return library.entersFolder(named: entry.name) && depth <= Self.maximumDepth ? .folder : .nothing
        default:
            return .nothing
        }
    }

    private func documentItem(_ entry: FileEntry, in folder: String) -> DocumentItem {
        var size = entry.size
        var modified = entry.status?.modified ?? Timestamp(seconds: 0, nanoseconds: 0)
        let isPackage = entry.type == .directory
        if isPackage {
            size = 0
            _ = try? reader.walk(at: entry.path) { inner, _ in
                if inner.type == .regular { size += inner.size }
                if let changed = inner.status?.modified, changed > modified { modified = changed }
                return .continue
            }
        }
        return DocumentItem(
            id: Self.join(folder, entry.name), path: entry.path, name: entry.name, kind: .document,
            isPackage: isPackage, size: size, modified: modified, created: entry.status?.created)
    }

    // MARK: Applying changes

    /// Applies a watcher's batch: each changed path is looked at on its own (one `lstat`, or one
    /// package or folder read where the change is inside one); a batch that may have missed
    /// changes reads everything again.
    ///
    /// - Returns: the identifiers of the documents that appeared, changed or went away (a
    ///   thumbnail cache drops these).
    @discardableResult
    public mutating func apply(_ changes: DirectoryChanges) -> Set<DocumentItem.ID> {
        if changes.needsRescan { return rescanAll() }
        return refresh(paths: changes.paths)
    }

    /// Looks at these absolute paths again (what the browser's own operations changed, before
    /// the watcher reports them).
    @discardableResult
    public mutating func refresh(paths: [String]) -> Set<DocumentItem.ID> {
        var touched: Set<String> = []
        for path in paths {
            guard let id = library.id(ofPath: path) else { continue }
            refresh(id: id, touched: &touched)
        }
        return touched
    }

    private mutating func rescanAll() -> Set<DocumentItem.ID> {
        let before = Set(records.values.flatMap { $0.documents.values.map(\.id) })
        records = [:]
        scanFolder("", depth: 0)
        return before.union(records.values.flatMap { $0.documents.values.map(\.id) })
    }

    private mutating func refresh(id: String, touched: inout Set<String>) {
        if id.isEmpty {
            relistFolder("", touched: &touched)
            return
        }
        // A change inside a package is a change of the document; inside an excluded or hidden
        // folder, of nothing shown.
        let components = id.split(separator: "/", omittingEmptySubsequences: false)
        var prefix = ""
        for component in components.dropLast() {
            prefix = Self.join(prefix, String(component))
            if library.isDocumentName(component) {
                refreshEntry(prefix, touched: &touched)
                return
            }
            if !library.entersFolder(named: component) { return }
        }
        refreshEntry(id, touched: &touched)
    }

    private mutating func refreshEntry(_ id: String, touched: inout Set<String>) {
        let (parent, name) = Self.split(id)
        guard records[parent] != nil else {
            // A folder the index does not know yet (created a moment ago): read it whole.
            if !parent.isEmpty { refresh(id: parent, touched: &touched) }
            return
        }
        let entry = try? reader.entry(at: library.path(of: id))
        switch entry?.type {
        case .regular?:
            dropFolder(id, touched: &touched)  // a folder replaced by a file of its name
            if name == library.groupMarkerName {
                records[parent]?.isGroup = true
            } else if let entry, library.isDocumentName(name) {
                let item = documentItem(entry, in: parent)
                records[parent]?.documents[name] = item
                touched.insert(id)
            }
        case .directory?:
            if let entry, library.isDocumentName(name) {
                dropFolder(id, touched: &touched)
                let item = documentItem(entry, in: parent)
                records[parent]?.documents[name] = item
                touched.insert(id)
            } else if let entry, library.entersFolder(named: name) {
                if records[id] != nil {
                    relistFolder(id, touched: &touched)
                    records[id]?.modified = entry.status?.modified
                    records[id]?.created = entry.status?.created
                } else if id.split(separator: "/").count <= Self.maximumDepth {
                    records[parent]?.folders.insert(name)
                    scanFolder(id, depth: id.split(separator: "/").count, own: entry)
                    collectIDs(id, into: &touched)
                }
            }
        default:
            // Gone (or became a link): forget whatever was known under that name.
            if name == library.groupMarkerName { records[parent]?.isGroup = false }
            if records[parent]?.documents.removeValue(forKey: name) != nil { touched.insert(id) }
            dropFolder(id, touched: &touched)
        }
    }

    /// Reads one known folder again (a change the system could not pin down): its documents
    /// and marker anew; folders that appeared are scanned, those gone dropped, the others kept.
    private mutating func relistFolder(_ id: String, touched: inout Set<String>) {
        guard let old = records[id] else { return }
        let entries = (try? reader.entries(at: library.path(of: id))) ?? []
        var record = FolderRecord()
        record.modified = old.modified
        record.created = old.created
        var added: [FileEntry] = []
        let depth = id.split(separator: "/").count + 1
        for entry in entries {
            switch role(of: entry, depth: depth) {
            case .groupMarker: record.isGroup = true
            case .document:
                let item = documentItem(entry, in: id)
                if old.documents[entry.name] != item { touched.insert(item.id) }
                record.documents[entry.name] = item
            case .folder:
                record.folders.insert(entry.name)
                if !old.folders.contains(entry.name) { added.append(entry) }
                if var known = records[Self.join(id, entry.name)] {
                    known.modified = entry.status?.modified
                    known.created = entry.status?.created
                    records[Self.join(id, entry.name)] = known
                }
            case .nothing: continue
            }
        }
        for name in old.documents.keys where record.documents[name] == nil {
            touched.insert(Self.join(id, name))
        }
        for name in old.folders where !record.folders.contains(name) {
            dropFolder(Self.join(id, name), touched: &touched)
        }
        records[id] = record
        for folder in added {
            let child = Self.join(id, folder.name)
            scanFolder(child, depth: child.split(separator: "/").count, own: folder)
            collectIDs(child, into: &touched)
        }
    }

    /// Forgets a folder and everything the index knew below it.
    private mutating func dropFolder(_ id: String, touched: inout Set<String>) {
        guard let record = records.removeValue(forKey: id) else { return }
        let (parent, name) = Self.split(id)
        records[parent]?.folders.remove(name)
        for document in record.documents.values { touched.insert(document.id) }
        for child in record.folders { dropFolder(Self.join(id, child), touched: &touched) }
    }

    private func collectIDs(_ id: String, into touched: inout Set<String>) {
        guard let record = records[id] else { return }
        for document in record.documents.values { touched.insert(document.id) }
        for child in record.folders { collectIDs(Self.join(id, child), into: &touched) }
    }

    // MARK: Paths

    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    static func split(_ id: String) -> (parent: String, name: String) {
        guard let slash = id.lastIndex(of: "/") else { return ("", id) }
        return (String(id[..<slash]), String(id[id.index(after: slash)...]))
    }
}
