import DocumentBrowser
import FileTree
import Synchronization

/// Stands in for the host app: records what the browser asked of it and writes new documents
/// when asked (or refuses to, for the failure paths).
@MainActor
final class HostRecorder {
    var opened: [(id: String, openingID: String?, at: Duration)] = []
    var created: [String] = []
    var settingsShown = 0
    var pickerShown = 0
    var writesDocuments = true
    weak var model: DocumentBrowserModel?
    let clock: ImmediateClock

    init(clock: ImmediateClock) { self.clock = clock }

    var actions: DocumentBrowserActions {
        DocumentBrowserActions(
            open: { [weak self] item in
                guard let self else { return }
                self.opened.append((item.id, self.model?.openingItemID, self.clock.now.offset))
            },
            createDocument: { [weak self] path in
                guard let self else { return }
                self.created.append(path)
                if self.writesDocuments { try FileOperations.createFile(Array("new".utf8), at: path) }
            },
            showSettings: { [weak self] in self?.settingsShown += 1 },
            showImportPicker: { [weak self] in self?.pickerShown += 1 })
    }
}
