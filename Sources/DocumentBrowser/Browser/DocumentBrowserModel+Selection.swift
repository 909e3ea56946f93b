extension DocumentBrowserModel {
    /// Enters selection mode with nothing selected.
    public func enterSelection() {
        isSelecting = true
        selection = []
    }

    /// Leaves selection mode, forgetting the selection.
    public func leaveSelection() {
        isSelecting = false
        selection = []
    }

    /// Selects or deselects an item shown; outside selection mode, enters it first.
    public func toggleSelection(_ id: DocumentItem.ID) {
        guard items.contains(where: { $0.id == id }) else { return }
        if !isSelecting { enterSelection() }
        if selection.remove(id) == nil { selection.insert(id) }
    }

    /// Selects every item shown (entering selection mode).
    public func selectAll() {
        isSelecting = true
        selection = Set(items.map(\.id))
    }

    /// Whether everything shown is selected.
    public var isAllSelected: Bool { !items.isEmpty && selection.count == items.count }

    /// The selected items, in the order shown.
    public var selectedItems: [DocumentItem] { items.filter { selection.contains($0.id) } }

    /// Duplicates the selection and leaves selection mode; returns the copies.
    @discardableResult
    public func duplicateSelection() async throws(DocumentBrowserError) -> [DocumentItem.ID] {
        let ids = selectedItems.map(\.id)
        leaveSelection()
        return try await duplicate(ids)
    }

    /// Deletes the selection and leaves selection mode.
    public func deleteSelection() async throws(DocumentBrowserError) {
        let ids = selectedItems.map(\.id)
        leaveSelection()
        try await delete(ids)
    }

    /// Puts the selection in a new group and leaves selection mode; returns the group.
    @discardableResult
    public func groupSelection() async throws(DocumentBrowserError) -> DocumentItem.ID {
        let ids = selectedItems.map(\.id)
        leaveSelection()
        return try await makeGroup(of: ids)
    }
}
