import FileTree

extension DocumentBrowserModel {
    // MARK: New documents

    /// Makes a new document and opens it, as one sequence: a free name (`Untitled`,
    /// `Untitled 1`, …) in the current folder, the host's ``DocumentBrowserActions/createDocument``
    /// writes it, the browser waits until its index holds it, publishes it as
    /// ``revealedItemID`` (the grid scrolls to it), waits ``DocumentBrowserTiming/revealDelay``,
    /// then opens it (see ``open(_:)``).
    ///
    /// - Throws: `notCreated` when the host's action returned but no document appeared within
    ///   ``DocumentBrowserTiming/creationTimeout``; the host's own error as `fileSystem`.
    @discardableResult
    public func newDocument() async throws(DocumentBrowserError) -> DocumentItem {
        guard let ext = library.preferredExtension else {
            throw DocumentBrowserError(.notADocument, "The app registered no document extension")
        }
        let folder = currentFolder
        let base = library.newDocumentName
        let name = await BlockingWork.run { UniqueName.numbered(base, pathExtension: ext, in: folder) }
        let path = folder + "/" + name
        do {
            try await actions.createDocument(path)
        } catch is CancellationError {
            throw DocumentBrowserError(.cancelled, "Creating the document was cancelled")
        } catch {
            throw DocumentBrowserError(
                .fileSystem, "The new document could not be written: \(error)",
                cause: error)
        }
        let item = try await waitForDocument(at: path)
        revealedItemID = item.id
        do {
            try await clock.sleep(for: timing.revealDelay)
        } catch {
            throw DocumentBrowserError(.cancelled, "Creating the document was cancelled")
        }
        await open(item.id)
        return item
    }

    /// Waits until the index holds the document at `path`, looking at the path itself (the
    /// watcher may be slower, or off).
    func waitForDocument(at path: String) async throws(DocumentBrowserError) -> DocumentItem {
        guard let id = library.id(ofPath: path) else {
            throw DocumentBrowserError(.notFound, "\(path) is outside the documents folder")
        }
        let interval = max(timing.creationPollInterval, .milliseconds(1))
        let attempts = max(1, Int((timing.creationTimeout / interval).rounded(.up)))
        for attempt in 0...attempts {
            await refresh([path])
            if let item = item(id) { return item }
            guard attempt < attempts, !Task.isCancelled else { break }
            try? await clock.sleep(for: interval)
        }
        if Task.isCancelled { throw DocumentBrowserError(.cancelled, "Creating the document was cancelled") }
        throw DocumentBrowserError(.notCreated, "No document appeared at \(path) after the app wrote it")
    }

    // MARK: Renaming

    /// Renames a document (the name shown: its extension is kept) or a group; returns it under
    /// its new name. Never replaces: a taken name is `nameTaken`.
    @discardableResult
    public func rename(
        _ id: DocumentItem.ID, to newName: String
    ) async throws(DocumentBrowserError) -> DocumentItem {
        guard let item = item(id) else {
            throw DocumentBrowserError(.notFound, "There is no document \(id)")
        }
        let trimmed = newName.trimmingWhitespace
        guard !trimmed.isEmpty, !trimmed.hasPrefix("."), FileName.isValidComponent(trimmed) else {
            throw DocumentBrowserError(
                .invalidName, "“\(newName)” cannot be a name: use no slash and no leading dot")
        }
        if item.kind == .group && (!library.entersFolder(named: trimmed) || library.isDocumentName(trimmed)) {
            throw DocumentBrowserError(
                .invalidName, "A group cannot be called “\(trimmed)”: that name is excluded or a document's")
        }
        let name =
            item.kind == .group || item.pathExtension == nil
            ? trimmed : trimmed + "." + (FileName.pathExtension(of: item.name) ?? "")
        if name == item.name { return item }
        let source = item.path
        let destination = try await fileWork("Renaming \(item.displayName)") { () throws(FileTreeError) in
            try FileOperations.rename(source, to: name)
        }
        await refresh([source, destination])
        return self.item(DocumentIndex.join(item.parentID, name)) ?? item
    }

    // MARK: Duplicating, deleting, importing

    /// Duplicates documents or groups beside themselves (`Drawing (copy).sketch`, …); returns
    /// the copies.
    @discardableResult
    public func duplicate(_ ids: [DocumentItem.ID]) async throws(DocumentBrowserError) -> [DocumentItem.ID] {
        let sources = try existingItems(ids).map(\.path)
        let copies = try await fileWork("Duplicating") { () throws(FileTreeError) in
            var made: [String] = []
            for source in sources {
                let folder = String(source[..<(source.lastIndex(of: "/") ?? source.startIndex)])
                let name = String(
                    source[source.index(after: source.lastIndex(of: "/") ?? source.startIndex)...])
                made.append(
                    try Self.copy(source, into: folder, name: { UniqueName.copy(of: name, in: folder) }))
            }
            return made
        }
        await refresh(copies)
        return copies.compactMap(library.id(ofPath:))
    }

    /// Deletes documents or groups (with everything in them).
    public func delete(_ ids: [DocumentItem.ID]) async throws(DocumentBrowserError) {
        let paths = try existingItems(ids).map(\.path)
        try await fileWork("Deleting") { () throws(FileTreeError) in
            for path in paths { try FileOperations.remove(path) }
        }
        await refresh(paths)
    }

    /// Copies documents from elsewhere into the current folder under free names (`Drawing
    /// 1.sketch` when `Drawing.sketch` is taken); returns them and reveals the first.
    ///
    /// - Throws: `notADocument` (before copying anything) when a path's extension is not
    ///   registered.
    @discardableResult
    public func importDocuments(from paths: [String]) async throws(DocumentBrowserError) -> [DocumentItem.ID]
    {
        let refused = paths.filter { !library.isDocumentName(Self.lastComponent($0)) }
        guard refused.isEmpty else {
            throw DocumentBrowserError(
                .notADocument,
                "Not a document this app opens: \(refused.map(Self.lastComponent).joined(separator: ", "))")
        }
        let folder = currentFolder
        let copies = try await fileWork("Importing") { () throws(FileTreeError) in
            try paths.map { (source: String) throws(FileTreeError) -> String in
                let name = Self.lastComponent(source)
                let stem = String(FileName.displayName(of: name))
                let ext = FileName.pathExtension(of: name).map(String.init)
                return try Self.copy(source, into: folder) {
                    UniqueName.numbered(stem, pathExtension: ext, in: folder)
                }
            }
        }
        await refresh(copies)
        let ids = copies.compactMap(library.id(ofPath:))
        if let first = ids.first { revealedItemID = first }
        return ids
    }

    // MARK: Helpers

    func existingItems(_ ids: [DocumentItem.ID]) throws(DocumentBrowserError) -> [DocumentItem] {
        try ids.map { (id: DocumentItem.ID) throws(DocumentBrowserError) -> DocumentItem in
            guard let item = item(id) else {
                throw DocumentBrowserError(.notFound, "There is no document \(id)")
            }
            return item
        }
    }

    /// Copies `source` into `folder` under the name `name()` gives, asking again when someone
    /// took it meanwhile.
    nonisolated static func copy(
        _ source: String, into folder: String, name: () -> String
    ) throws(FileTreeError) -> String {
        for _ in 0..<100 {
            let destination = folder + "/" + name()
            do {
                try FileOperations.copy(source, to: destination)
                return destination
            } catch  where error.code == .alreadyExists {
                continue
            }
        }
        throw FileTreeError(.alreadyExists, "No free name in the folder", path: folder)
    }

    /// Makes a folder in `folder` under the name `name()` gives, asking again when someone took
    /// it meanwhile.
    nonisolated static func makeFolder(in folder: String, name: () -> String) throws(FileTreeError) -> String
    {
        for _ in 0..<100 {
            let path = folder + "/" + name()
            do {
                try FileOperations.makeFolder(at: path)
                return path
            } catch  where error.code == .alreadyExists {
                continue
            }
        }
        throw FileTreeError(.alreadyExists, "No free name in the folder", path: folder)
    }

    /// Moves `source` into `folder` under its own name, or the next free one.
    nonisolated static func move(_ source: String, into folder: String) throws(FileTreeError) -> String {
        let name = lastComponent(source)
        let stem = String(FileName.displayName(of: name))
        let ext = FileName.pathExtension(of: name).map(String.init)
        var candidate = name
        for _ in 0..<100 {
            let destination = folder + "/" + candidate
            do {
                try FileOperations.move(source, to: destination)
                return destination
            } catch  where error.code == .alreadyExists {
                candidate = UniqueName.numbered(stem, pathExtension: ext, in: folder)
            }
        }
        throw FileTreeError(.alreadyExists, "No free name in the folder", path: folder)
    }

    nonisolated static func lastComponent(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }
}

extension String {
    /// Without spaces and line breaks at either end.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(self[first...last])
    }
}
