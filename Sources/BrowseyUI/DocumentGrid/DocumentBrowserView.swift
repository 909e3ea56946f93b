#if canImport(SwiftUI)
    import DocumentBrowser
    import SwiftUI

    /// The Procreate-style gallery over a ``DocumentBrowserModel``: a grid of documents and
    /// stacks under a blurred toolbar that switches between its normal actions (select, import,
    /// new, settings) and the selection's (duplicate, group, delete, done). Everything it does is
    /// a call into the model; the model is tested on its own.
    public struct DocumentBrowserView: View {
        @Bindable var model: DocumentBrowserModel
        @State private var failure: DocumentBrowserError?
        private let columns = [GridItem(.adaptive(minimum: 160, maximum: 240), spacing: 24)]

        /// The gallery for `model` (loaded and watched while shown).
        public init(model: DocumentBrowserModel) { self.model = model }

        /// The view's content.
        public var body: some View {
            ScrollViewReader { proxy in
                ScrollView {
                    LazyVGrid(columns: columns, spacing: 28) {
                        ForEach(model.items) { item in
                            DocumentCell(
                                item: item, model: model, isSelected: model.selection.contains(item.id),
                                isOpening: model.openingItemID == item.id
                            )
                            .id(item.id)
                            .onTapGesture { tap(item) }
                            .draggable(item.id)
                            .dropDestination(for: String.self) { dropped, _ in
                                guard let source = dropped.first, source != item.id else { return false }
                                run { _ = try await model.makeGroup(dropping: source, onto: item.id) }
                                return true
                            }
                        }
                    }
                    .padding(24)
                    .padding(.top, 56)
                }
                .onChange(of: model.revealedItemID) { _, id in
                    guard let id else { return }
                    withAnimation { proxy.scrollTo(id, anchor: .center) }
                    model.didReveal()
                }
            }
            .overlay(alignment: .top) { toolbar }
            .task {
                try? model.startMonitoring()  // first, so nothing written during the scan is missed
                await model.load()
            }
            .onDisappear { model.stopMonitoring() }
            .alert(
                "Something went wrong",
                isPresented: Binding(get: { failure != nil }, set: { if !$0 { failure = nil } })
            ) {
                Button("OK", role: .cancel) {}
            } message: {
                Text(failure?.message ?? "")
            }
        }

        private var toolbar: some View {
            HStack(spacing: 16) {
                if !model.location.isEmpty {
                    Button {
                        model.leave()
                    } label: {
                        Label("Back", systemImage: "chevron.left")
                    }
                }
                Text(model.groupPath.last?.displayName ?? "Gallery").font(.headline)
                Spacer()
                if model.isSelecting {
                    Text("\(model.selection.count) selected").foregroundStyle(.secondary)
                    Button("Duplicate") { run { _ = try await model.duplicateSelection() } }
                        .disabled(model.selection.isEmpty)
                    Button("Group") { run { _ = try await model.groupSelection() } }
                        .disabled(model.selection.count < 2)
                    Button("Delete", role: .destructive) { run { try await model.deleteSelection() } }
                        .disabled(model.selection.isEmpty)
                    Button("Done") { model.leaveSelection() }
                } else {
                    Button("Select") { model.enterSelection() }
                    Button("Import") { model.showImportPicker() }
                    Button {
                        run { _ = try await model.newDocument() }
                    } label: {
                        Image(systemName: "plus")
                    }
                    Button {
                        model.showSettings()
                    } label: {
                        Image(systemName: "gearshape")
                    }
                }
            }
            .padding(.horizontal, 24)
            .frame(height: 56)
            .background(.ultraThinMaterial)
        }

        private func tap(_ item: DocumentItem) {
            if model.isSelecting {
                model.toggleSelection(item.id)
            } else {
                Task { await model.open(item.id) }
            }
        }

        private func run(_ work: @escaping @MainActor () async throws(DocumentBrowserError) -> Void) {
            Task { @MainActor in
                do {
                    try await work()
                } catch {
                    failure = error
                }
            }
        }
    }
#endif
