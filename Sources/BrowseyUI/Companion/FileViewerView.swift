#if canImport(SwiftUI)
    import BrowseyClient
    import SwiftUI

    /// One file on a server, over a ``FileViewerModel``: text and code (editable, with the
    /// model's keep-mine / take-theirs answer to a conflict), images, and a download for
    /// everything else.
    public struct FileViewerView: View {
        @Bindable var model: FileViewerModel

        /// The viewer.
        public init(model: FileViewerModel) { self.model = model }

        /// The view's content.
        public var body: some View {
            content
                .task { await model.load() }
                .toolbar {
                    if model.isEditable {
                        Button("Save") { Task { _ = await model.save() } }.disabled(!model.hasChanges)
                    }
                }
                .alert(
                    "Changed on the server",
                    isPresented: Binding(get: { model.conflict != nil }, set: { _ in })
                ) {
                    Button("Keep mine") { Task { _ = await model.keepMine() } }
                    Button("Take theirs", role: .destructive) { model.takeTheirs() }
                }
        }

        @ViewBuilder private var content: some View {
            switch model.content {
            case .code, .markdown, .text:
                TextEditor(text: $model.draft).font(.body.monospaced()).disabled(!model.isEditable)
            case .image(let url, _, _):
                AsyncImage(url: URL(string: model.client.server.baseURL + url)) { image in
                    image.resizable().scaledToFit()
                } placeholder: {
                    ProgressView()
                }
            case .video, .audio, .pdf, .binary, nil:
                List(model.info, id: \.label) { row in
                    LabeledContent(row.label, value: row.value)
                }
            }
        }
    }
#endif
