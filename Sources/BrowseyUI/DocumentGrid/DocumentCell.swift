#if canImport(SwiftUI)
    import DocumentBrowser
    import SwiftUI

    /// One document or stack: its thumbnail (a stack shows its first documents fanned out), its
    /// name and date; it scales up and fades while ``DocumentBrowserModel/openingItemID`` names it.
    struct DocumentCell: View {
        let item: DocumentItem
        let model: DocumentBrowserModel
        let isSelected: Bool
        let isOpening: Bool

        var body: some View {
            VStack(spacing: 8) {
                ZStack {
                    if item.kind == .group {
                        ForEach(Array(item.previewIDs.prefix(3).enumerated().reversed()), id: \.element) {
                            offset, id in
                            ThumbnailImage(item: model.item(id), loader: model.thumbnails)
                                .rotationEffect(.degrees(Double(offset) * 4))
                        }
                    } else {
                        ThumbnailImage(item: item, loader: model.thumbnails)
                    }
                }
                .aspectRatio(3 / 4, contentMode: .fit)
                .overlay(alignment: .topTrailing) {
                    if model.isSelecting {
                        Image(systemName: isSelected ? "checkmark.circle.fill" : "circle")
                            .font(.title2).padding(8)
                    }
                }
                Text(item.displayName).font(.subheadline).lineLimit(1)
                Text(
                    item.kind == .group
                        ? "\(item.documentCount) documents"
                        : item.modified.date.formatted(date: .abbreviated, time: .omitted)
                )
                .font(.caption).foregroundStyle(.secondary)
            }
            .scaleEffect(isOpening ? 1.15 : 1)
            .opacity(isOpening ? 0 : 1)
            .animation(.easeInOut(duration: 0.5), value: isOpening)
        }
    }
#endif
