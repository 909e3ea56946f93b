public import FileTree
public import Observation

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open document: reads it, saves it without ever leaving a half-written file, autosaves
/// after edits, and notices when someone else changed the file meanwhile instead of
/// overwriting their work.
///
/// ```swift
/// let store = try await DocumentStore<Sketch>.open(at: path, registry: registry)
/// store.edit { $0.strokes.append(stroke) }   // autosaved after `autosaveDelay`
/// try await store.save()                       // or now
/// ```
///
/// - Saving a file writes a hidden temporary file beside it, flushes it to disk (`fsync`) and
///   renames it over the old one; a package (a folder) is written whole beside the old one
///   and the two are swapped in one step (``FileOperations/replaceFolder(_:with:)``). A crash
///   at any moment leaves the old version or the new, never a mix.
/// - Before each save the file is compared with what was opened or last saved (``DiskVersion``).
///   If it changed, nothing is written: ``conflict`` is set and the save throws
///   `changedOnDisk`; the user picks ``revert()`` (take theirs) or ``overwrite()`` (keep mine).
///   With no unsaved edits, ``checkDisk()`` simply reloads.
@Observable
@MainActor
public final class DocumentStore<Document: BrowserDocument> {
    /// The document, its file and whether it can be edited.
    public private(set) var configuration: DocumentConfiguration<Document>
    /// The file's type.
    public private(set) var contentType: ContentType
    /// Whether there are edits not saved yet.
    public private(set) var hasUnsavedChanges = false
    /// Whether a save is running.
    public private(set) var isSaving = false
    /// Set when the file changed on disk since it was opened or saved, while there were edits
    /// here: resolve with ``revert()`` or ``overwrite()``.
    public private(set) var conflict: DocumentBrowserError?
    /// Why the last autosave failed, if it did.
    public private(set) var lastSaveError: DocumentBrowserError?
    /// How many saves completed.
    public private(set) var saveCount = 0
    /// How long after the last edit an autosave runs.
    @ObservationIgnored public var autosaveDelay: Duration

    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private var diskVersion: DiskVersion?
    @ObservationIgnored private var onDisk: DocumentWrapper?
    @ObservationIgnored private var editCount = 0
    @ObservationIgnored private var autosaveTask: Task<Void, Never>?
    @ObservationIgnored private var currentSave: Task<Void, Never>?

    /// The document.
    public var document: Document { configuration.document }
    /// The file's path, `nil` while never saved.
    public private(set) var path: String?
    /// Whether the document can be changed and saved.
    public var isEditable: Bool { configuration.isEditable }

    /// A new document, not saved anywhere yet (`fileURL` is `nil`).
    public init(
        newDocument document: Document, contentType: ContentType, autosaveDelay: Duration = .seconds(2),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.configuration = DocumentConfiguration(document: document, fileURL: nil, isEditable: true)
        self.contentType = contentType
        self.autosaveDelay = autosaveDelay
        self.clock = clock
    }

    private init(
        document: Document, path: String, contentType: ContentType, isEditable: Bool, version: DiskVersion?,
        onDisk: DocumentWrapper, autosaveDelay: Duration, clock: any Clock<Duration>
    ) {
        self.configuration = DocumentConfiguration(
            document: document, fileURL: URL(fileURLWithPath: path), isEditable: isEditable)
        self.path = path
        self.contentType = contentType
        self.diskVersion = version
        self.onDisk = onDisk
        self.autosaveDelay = autosaveDelay
        self.clock = clock
    }

    /// Opens the document at `path` (read off the main actor).
    ///
    /// - Parameters:
    ///   - registry: where the file's content type is looked up by its extension.
    ///   - readOnly: open without the right to save, whatever the file's permissions.
    /// - Throws: `notFound`; `notADocument` when the type is not one `Document` reads;
    ///   `unreadable` when the document's initializer refused the contents.
    public static func open(
        at path: String, registry: ContentTypeRegistry = .standard, readOnly: Bool = false,
        autosaveDelay: Duration = .seconds(2), clock: any Clock<Duration> = ContinuousClock()
    ) async throws(DocumentBrowserError) -> DocumentStore<Document> {
        let loaded = await BlockingWork.run { Self.load(path, registry: registry) }
        let (document, contentType, wrapper, version, writable) = try loaded.get()
        return DocumentStore(
            document: document, path: path, contentType: contentType, isEditable: writable && !readOnly,
            version: version, onDisk: wrapper, autosaveDelay: autosaveDelay, clock: clock)
    }

    private nonisolated static func load(
        _ path: String, registry: ContentTypeRegistry
    ) -> Result<(Document, ContentType, DocumentWrapper, DiskVersion?, Bool), DocumentBrowserError> {
        removeStaleSaves(of: path)
        let version = DiskVersion.current(at: path)
        let wrapper: DocumentWrapper
        do {
            wrapper = try DocumentWrapper.read(at: path)
        } catch {
            return .failure(DocumentBrowserError(error, "Opening the document"))
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let type = registry.type(forFileName: name, isDirectory: wrapper.isPackage)
        guard Document.readableContentTypes.contains(where: { type.conforms(to: $0) }) else {
            return .failure(
                DocumentBrowserError(
                    .notADocument, "\(name) is a \(type.localizedDescription), which this app does not open"))
        }
        do {
            let document = try Document(
                configuration: DocumentReadConfiguration(contentType: type, file: wrapper))
            return .success((document, type, wrapper, version, DiskVersion.isWritable(path)))
        } catch {
            return .failure(
                DocumentBrowserError(.unreadable, "\(name) could not be read: \(error)", cause: error))
        }
    }

    /// Removes what interrupted saves left beside the document (hidden `.name.browsey-…`
    /// temporary files or packages) once they are a minute old: a save in progress elsewhere
    /// is younger than that.
    ///
    /// When the document itself is missing (a crash between moving the old version aside and
    /// putting the new one in place, where the file system cannot swap), the newest leftover,
    /// a whole version, is put back under the document's name instead.
    private nonisolated static func removeStaleSaves(of path: String) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        let prefix = "." + path[path.index(after: slash)...] + ".browsey-"
        guard let entries = try? DirectoryReader().entries(at: folder) else { return }
        var leftovers = entries.filter { $0.name.hasPrefix(prefix) }
        if (try? DirectoryReader().entry(at: path)) == nil {
            leftovers.sort {
                ($0.status?.modified ?? Timestamp(seconds: 0, nanoseconds: 0))
                    > ($1.status?.modified ?? Timestamp(seconds: 0, nanoseconds: 0))
            }
            guard let newest = leftovers.first, (try? FileOperations.move(newest.path, to: path)) != nil
            else { return }
            leftovers.removeFirst()
        }
        let now = Int64(Date().timeIntervalSince1970)
        for entry in leftovers {
            guard let modified = entry.status?.modified, now - modified.seconds > 60 else { continue }
            try? FileOperations.remove(entry.path)
        }
    }

    // MARK: Editing

    /// Changes the document and schedules an autosave.
    public func edit(_ change: (inout Document) -> Void) {
        change(&configuration.document)
        editCount += 1
        hasUnsavedChanges = true
        scheduleAutosave()
    }

    /// Replaces the document and schedules an autosave.
    public func replaceDocument(_ document: Document) { edit { $0 = document } }

    private func scheduleAutosave() {
        autosaveTask?.cancel()
        guard path != nil, isEditable else { return }
        let delay = autosaveDelay
        let clock = clock
        autosaveTask = Task { [weak self] in
            do {
                try await clock.sleep(for: delay)
            } catch {
                return
            }
            await self?.autosave()
        }
    }

    /// Saves now if there are edits (what the pending autosave would have done); conflicts and
    /// failures are kept in ``conflict`` and ``lastSaveError``.
    public func autosave() async {
        autosaveTask = nil
        guard hasUnsavedChanges, conflict == nil, path != nil, isEditable else { return }
        do {
            try await save()
            lastSaveError = nil
        } catch {
            lastSaveError = error
        }
    }

    /// Saves pending edits (if possible) and stops autosaving.
    public func close() async {
        autosaveTask?.cancel()
        await autosave()
    }

    // MARK: Saving

    /// Saves to the document's file.
    ///
    /// - Throws: `readOnly`; `notFound` for a document never saved (use ``save(to:)``);
    ///   `changedOnDisk` when someone else changed the file (see ``conflict``).
    public func save() async throws(DocumentBrowserError) {
        guard let path else {
            throw DocumentBrowserError(.notFound, "The document was never saved: choose where with save(to:)")
        }
        autosaveTask?.cancel()
        try await write(to: path, checkingDisk: true, replacing: true)
    }

    /// Saves a new document at `path` (or a copy elsewhere: "save as"), which from then on is
    /// its file. Never replaces: a taken name is `nameTaken`.
    public func save(to path: String) async throws(DocumentBrowserError) {
        try await write(to: path, checkingDisk: false, replacing: false)
        self.path = path
        configuration.fileURL = URL(fileURLWithPath: path)
        configuration.isEditable = await BlockingWork.run { DiskVersion.isWritable(path) }
    }

    /// Keeps this version: saves over the file even though it changed on disk.
    public func overwrite() async throws(DocumentBrowserError) {
        guard let path else { return try await save() }
        try await write(to: path, checkingDisk: false, replacing: true)
    }

    /// Takes the version on disk, dropping the edits made here.
    public func revert() async throws(DocumentBrowserError) {
        guard let path else { return }
        let contentType = contentType
        let loaded = await BlockingWork.run { Self.reload(path, contentType: contentType) }
        let (document, wrapper, version) = try loaded.get()
        autosaveTask?.cancel()
        configuration.document = document
        onDisk = wrapper
        diskVersion = version
        hasUnsavedChanges = false
        conflict = nil
        editCount += 1
    }

    /// Looks whether the file changed on disk: without edits here, the document is reloaded;
    /// with edits, ``conflict`` is set. Returns whether it changed.
    @discardableResult
    public func checkDisk() async -> Bool {
        guard let path else { return false }
        // Our own save in progress is not someone else's change.
        while let running = currentSave { await running.value }
        let current = await BlockingWork.run { DiskVersion.current(at: path) }
        guard current != diskVersion else { return false }
        guard !hasUnsavedChanges else {
            conflict = Self.changedOnDisk(path)
            return true
        }
        let edits = editCount
        let contentType = contentType
        let loaded = await BlockingWork.run { Self.reload(path, contentType: contentType) }
        // An edit made while the file was read wins over the reload: that is a conflict.
        guard editCount == edits, case .success(let (document, wrapper, version)) = loaded else {
            if editCount != edits { conflict = Self.changedOnDisk(path) }
            return true
        }
        configuration.document = document
        onDisk = wrapper
        diskVersion = version
        conflict = nil
        return true
    }

    private nonisolated static func reload(
        _ path: String, contentType: ContentType
    ) -> Result<(Document, DocumentWrapper, DiskVersion?), DocumentBrowserError> {
        let version = DiskVersion.current(at: path)
        do {
            let wrapper = try DocumentWrapper.read(at: path)
            do {
                let document = try Document(
                    configuration: DocumentReadConfiguration(contentType: contentType, file: wrapper))
                return .success((document, wrapper, version))
            } catch {
                return .failure(
                    DocumentBrowserError(
                        .unreadable, "The document could not be read: \(error)", cause: error))
            }
        } catch {
            return .failure(DocumentBrowserError(error, "Reading the document again"))
        }
    }

    private nonisolated static func changedOnDisk(_ path: String) -> DocumentBrowserError {
        DocumentBrowserError(
            .changedOnDisk,
            "\(path.split(separator: "/").last.map(String.init) ?? path) was changed by someone else since it was opened; nothing was overwritten"
        )
    }

    private func write(
        to path: String, checkingDisk: Bool, replacing: Bool
    ) async throws(DocumentBrowserError) {
        guard isEditable || !replacing || self.path != path else {
            throw DocumentBrowserError(.readOnly, "The document is read-only")
        }
        // One save at a time: a second one starts from what the first wrote (an autosave and an
        // explicit save racing would each see the other's file as a change on disk).
        while let running = currentSave { await running.value }
        let savedEdits = editCount
        let document = configuration.document
        let writeConfiguration = DocumentWriteConfiguration(contentType: contentType, existingFile: onDisk)
        let expected = checkingDisk ? diskVersion : nil
        isSaving = true
        let running = Task {
            await BlockingWork.run {
                Self.perform(
                    document, writeConfiguration, at: path, expected: expected, checkingDisk: checkingDisk,
                    replacing: replacing)
            }
        }
        currentSave = Task { _ = await running.value }
        let result = await running.value
        currentSave = nil
        isSaving = false
        switch result {
        case .failure(let error):
            if error.code == .changedOnDisk { conflict = error }
            throw error
        case .success(let (wrapper, version)):
            onDisk = wrapper
            diskVersion = version
            conflict = nil
            saveCount += 1
            hasUnsavedChanges = editCount != savedEdits
        }
    }

    /// Checks the disk, has the document write itself and stores the result (off the main actor).
    private nonisolated static func perform(
        _ document: Document, _ writeConfiguration: DocumentWriteConfiguration, at path: String,
        expected: DiskVersion?, checkingDisk: Bool, replacing: Bool
    ) -> Result<(DocumentWrapper, DiskVersion?), DocumentBrowserError> {
        if checkingDisk, DiskVersion.current(at: path) != expected {
            return .failure(Self.changedOnDisk(path))
        }
        let wrapper: DocumentWrapper
        do {
            wrapper = try document.fileWrapper(configuration: writeConfiguration)
        } catch {
            return .failure(
                DocumentBrowserError(
                    .unreadable, "The document could not write itself: \(error)", cause: error))
        }
        let stored = Result { () throws(FileTreeError) in
            try Self.store(wrapper, at: path, replacing: replacing)
        }
        if case .failure(let error) = stored {
            return .failure(DocumentBrowserError(error, "Saving the document"))
        }
        return .success((wrapper, DiskVersion.current(at: path)))
    }

    /// Puts `wrapper` at `path` atomically: a file through a flushed temporary file renamed into
    /// place, a package built beside the old one and swapped with it.
    nonisolated static func store(
        _ wrapper: DocumentWrapper, at path: String, replacing: Bool
    ) throws(FileTreeError) {
        switch wrapper {
        case .file(let bytes):
            let writer = try AtomicFileWriter(destination: path)
            try writer.write(bytes)
            try writer.commit(replacing: replacing)
        case .package:
            let temporary = FileOperations.temporarySibling(of: path)
            do {
                try wrapper.write(to: temporary)
                // The new version keeps the old one's permissions (a private package stays so).
                if let mode = (try? DirectoryReader().entry(at: path))?.status?.mode {
                    _ = chmod(temporary, mode_t(mode & 0o7777))
                }
                if replacing {
                    try FileOperations.replaceFolder(path, with: temporary)
                } else {
                    try FileOperations.move(temporary, to: path)
                    FileOperations.syncFolder(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
                }
            } catch {
                try? FileOperations.remove(temporary)
                throw error
            }
        }
    }
}
