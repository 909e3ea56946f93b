#if canImport(SwiftUI)
    import BrowseyClient
    import SwiftUI

    /// The companion app's first screen: servers found nearby and saved ones, with their status,
    /// over a ``ServerListModel``.
    public struct ServerListView: View {
        @Bindable var model: ServerListModel
        private let open: (Server) -> Void

        /// The list; `open` is called with the server tapped.
        public init(model: ServerListModel, open: @escaping (Server) -> Void) {
            self.model = model
            self.open = open
        }

        /// The view's content.
        public var body: some View {
            List {
                Section("Nearby") { rows(model.discovered) }
                Section("Saved") { rows(model.saved) }
            }
            .refreshable { await model.refresh() }
            .task { await model.refresh() }
        }

        private func rows(_ entries: [ServerListModel.Entry]) -> some View {
            ForEach(entries) { entry in
                Button {
                    open(entry.server)
                } label: {
                    HStack {
                        VStack(alignment: .leading) {
                            Text(entry.server.name)
                            Text(entry.server.authority).font(.caption).foregroundStyle(.secondary)
                        }
                        Spacer()
                        Circle().fill(entry.status == .online ? Color.green : Color.secondary).frame(
                            width: 8, height: 8)
                    }
                }
            }
        }
    }
#endif
