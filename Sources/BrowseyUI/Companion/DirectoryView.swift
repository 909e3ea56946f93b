#if canImport(SwiftUI)
    import BrowseyClient
    import SwiftUI

    /// A folder on a server, over a ``DirectoryBrowserModel``: rows with folders first, search,
    /// pull to refresh, live updates while shown, and the model's loading, empty, failed and
    /// offline states.
    public struct DirectoryView: View {
        @Bindable var model: DirectoryBrowserModel
        private let openFile: (BrowserRow) -> Void

        /// The folder; `openFile` is called with a file tapped.
        public init(model: DirectoryBrowserModel, openFile: @escaping (BrowserRow) -> Void) {
            self.model = model
            self.openFile = openFile
        }

        /// The view's content.
        public var body: some View {
            List(model.rows) { row in
                Button {
                    Task { if let file = await model.open(row) { openFile(file) } }
                } label: {
                    Label {
                        VStack(alignment: .leading) {
                            Text(row.name)
                            Text(row.detail).font(.caption).foregroundStyle(.secondary)
                        }
                    } icon: {
                        Image(systemName: row.kind == .file ? "doc" : "folder")
                    }
                }
            }
            .overlay { overlay }
            .searchable(text: $model.searchText)
            .onSubmit(of: .search) { Task { await model.search() } }
            .refreshable { await model.load() }
            .task {
                await model.load()
                model.startLiveUpdates()
            }
            .onDisappear { model.stopLiveUpdates() }
        }

        @ViewBuilder private var overlay: some View {
            switch model.phase {
            case .loading: ProgressView()
            case .empty: Text("This folder is empty").foregroundStyle(.secondary)
            case .failed(let error), .offline(let error):
                VStack {
                    Text(error.description).multilineTextAlignment(.center)
                    Button("Retry") { Task { await model.load() } }
                }
            case .idle, .loaded: EmptyView()
            }
        }
    }
#endif
