/// What the host app does for the browser: the parts the browser deliberately does not own.
///
/// ```swift
/// let actions = DocumentBrowserActions(
///     open: { item in router.showEditor(for: item.url) },
///     createDocument: { path in try Drawing.empty.write(to: path) },
///     showSettings: { router.showSettings() },
///     showImportPicker: { router.showImporter() })
/// ```
public struct DocumentBrowserActions: Sendable {
    /// Opens a document (called once the opening animation has played).
    public var open: @MainActor @Sendable (DocumentItem) -> Void
    /// Writes a new, empty document at the absolute path given (a free name the browser chose);
    /// the browser then waits for it to appear, reveals it and opens it.
    public var createDocument: @MainActor @Sendable (_ path: String) async throws -> Void
    /// Shows the app's settings.
    public var showSettings: @MainActor @Sendable () -> Void
    /// Shows the system's file picker; the host passes what was picked to
    /// ``DocumentBrowserModel/importDocuments(from:)``.
    public var showImportPicker: @MainActor @Sendable () -> Void

    /// The host's actions; those left out do nothing.
    public init(
        open: @escaping @MainActor @Sendable (DocumentItem) -> Void = { _ in },
        createDocument: @escaping @MainActor @Sendable (_ path: String) async throws -> Void = { _ in },
        showSettings: @escaping @MainActor @Sendable () -> Void = {},
        showImportPicker: @escaping @MainActor @Sendable () -> Void = {}
    ) {
        self.open = open
        self.createDocument = createDocument
        self.showSettings = showSettings
        self.showImportPicker = showImportPicker
    }
}
