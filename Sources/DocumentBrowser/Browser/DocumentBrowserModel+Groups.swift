import FileTree

extension DocumentBrowserModel {
    /// Enters a group: the browser shows what it holds.
    public func enter(_ group: DocumentItem.ID) {
        guard index?.isGroup(group) == true else { return }
        leaveSelection()
        location = group
        rebuild()
    }

    /// Leaves the group entered for the one holding it (or the root).
    public func leave() {
        guard !location.isEmpty else { return }
        leaveSelection()
        location = containingGroup(of: location)
        rebuild()
    }

    /// The group an item is shown in (the nearest group above it, through plain folders), or
    /// `""` for the root.
    func containingGroup(of id: DocumentItem.ID) -> DocumentItem.ID {
        var parent = DocumentIndex.split(id).parent
        while !parent.isEmpty && index?.isGroup(parent) != true {
            parent = DocumentIndex.split(parent).parent
        }
        return parent
    }

    /// The groups from the root to the one entered, for a breadcrumb.
    public var groupPath: [DocumentItem] {
        var path: [DocumentItem] = []
        var current = location
        while !current.isEmpty {
            if let item = item(current), item.kind == .group { path.insert(item, at: 0) }
            current = DocumentIndex.split(current).parent
        }
        return path
    }

    /// Drops one document on another: both go into a new group (`Group`, `Group 1`, …) made
    /// where `target` is; returns the group. Dropping on a group moves the document into it.
    @discardableResult
    public func makeGroup(
        dropping source: DocumentItem.ID, onto target: DocumentItem.ID
    ) async throws(DocumentBrowserError)
        -> DocumentItem.ID
    {
        guard source != target else {
            throw DocumentBrowserError(.invalidName, "A document cannot be dropped on itself")
        }
        if index?.isGroup(target) == true {
            try await move([source], intoGroup: target)
            return target
        }
        return try await makeGroup(of: [target, source])
    }

    /// Puts items in a new group made where the first of them is; returns the group.
    @discardableResult
    public func makeGroup(of ids: [DocumentItem.ID]) async throws(DocumentBrowserError) -> DocumentItem.ID {
        let members = try existingItems(ids)
        guard let first = members.first else {
            throw DocumentBrowserError(.notFound, "Nothing to group")
        }
        let folder = library.path(of: first.parentID)
        let base = library.newGroupName
        let marker = library.groupMarkerName
        let sources = members.map(\.path)
        let (group, moved) = try await fileWork("Making a group") { () throws(FileTreeError) in
            let group = try Self.makeFolder(in: folder) { UniqueName.numbered(base, in: folder) }
            try FileOperations.createFile([], at: group + "/" + marker)
            var moved: [String] = []
            for source in sources { moved.append(try Self.move(source, into: group)) }
            return (group, moved)
        }
        await refresh(sources + [group] + moved)
        return library.id(ofPath: group) ?? ""
    }

    /// Moves items into a group (under free names when theirs are taken there).
    public func move(
        _ ids: [DocumentItem.ID], intoGroup group: DocumentItem.ID
    ) async throws(DocumentBrowserError) {
        guard index?.isGroup(group) == true else {
            throw DocumentBrowserError(.notFound, "There is no group \(group)")
        }
        // Items already shown in the group stay where they are (a move onto themselves would
        // rename them, one in a plain folder inside it is in it already).
        let members = try existingItems(ids).filter { $0.id != group && containingGroup(of: $0.id) != group }
        let folder = library.path(of: group)
        let sources = members.map(\.path)
        let moved = try await fileWork("Moving into the group") { () throws(FileTreeError) in
            try sources.map { (source: String) throws(FileTreeError) -> String in
                try Self.move(source, into: folder)
            }
        }
        await refresh(sources + moved)
    }

    /// Moves items out of the group holding them, into the group (or root) above it.
    public func moveOutOfGroup(_ ids: [DocumentItem.ID]) async throws(DocumentBrowserError) {
        let members = try existingItems(ids)
        // Only items shown in a group move, to the group (or root) holding that group.
        let targets = members.compactMap { member -> (String, String)? in
            let group = containingGroup(of: member.id)
            guard !group.isEmpty else { return nil }
            return (member.path, library.path(of: containingGroup(of: group)))
        }
        let moved = try await fileWork("Moving out of the group") { () throws(FileTreeError) in
            try targets.map { (pair: (String, String)) throws(FileTreeError) -> String in
                try Self.move(pair.0, into: pair.1)
            }
        }
        await refresh(targets.map(\.0) + moved)
    }

    /// Ungroups: everything in the group moves to where the group is (under free names), and
    /// the group goes.
    public func ungroup(_ group: DocumentItem.ID) async throws(DocumentBrowserError) {
        guard let item = item(group), item.kind == .group else {
            throw DocumentBrowserError(.notFound, "There is no group \(group)")
        }
        let folder = item.path
        let parent = library.path(of: item.parentID)
        let marker = library.groupMarkerName
        let moved = try await fileWork("Ungrouping") { () throws(FileTreeError) in
            var moved: [String] = []
            for entry in try DirectoryReader().entries(at: folder) where entry.name != marker {
                moved.append(try Self.move(entry.path, into: parent))
            }
            try FileOperations.remove(folder)
            return moved
        }
        await refresh([folder] + moved)
    }
}
