extension DocumentBrowserModel {
    /// Opens an item: a group is entered; a document is published as ``openingItemID`` (its cell
    /// plays the opening animation), and after ``DocumentBrowserTiming/openingDelay`` the host's
    /// ``DocumentBrowserActions/open`` is called with it. Cancelling the task during the pause
    /// opens nothing.
    public func open(_ id: DocumentItem.ID) async {
        guard let item = item(id) else { return }
        if item.kind == .group {
            enter(id)
            return
        }
        openingItemID = id
        defer { if openingItemID == id { openingItemID = nil } }
        do {
            try await clock.sleep(for: timing.openingDelay)
        } catch {
            return
        }
        // The document may have gone during the animation.
        guard let current = self.item(id) else { return }
        actions.open(current)
    }

    /// Asks the host to show its settings.
    public func showSettings() { actions.showSettings() }

    /// Asks the host to show its file picker.
    public func showImportPicker() { actions.showImportPicker() }

    /// Forgets the item to reveal (once the grid scrolled to it).
    public func didReveal() { revealedItemID = nil }
}
