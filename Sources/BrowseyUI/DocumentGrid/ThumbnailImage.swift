#if canImport(SwiftUI)
    import DocumentBrowser
    import Foundation
    import SwiftUI
    #if canImport(UIKit)
        import UIKit
    #elseif canImport(AppKit)
        import AppKit
    #endif

    /// A document's thumbnail, loaded by the model's ``ThumbnailLoader`` while the cell is on
    /// screen (the task is cancelled when it scrolls away).
    struct ThumbnailImage: View {
        let item: DocumentItem?
        let loader: ThumbnailLoader
        @State private var image: Image?

        var body: some View {
            RoundedRectangle(cornerRadius: 8)
                .fill(.quaternary)
                .overlay { image?.resizable().scaledToFill() }
                .clipShape(RoundedRectangle(cornerRadius: 8))
                .task(id: item) {
                    guard let item, let thumbnail = await loader.thumbnail(for: item) else { return }
                    image = Self.decode(thumbnail.imageData)
                }
        }

        private static func decode(_ bytes: [UInt8]) -> Image? {
            #if canImport(UIKit)
                UIImage(data: Data(bytes)).map { Image(uiImage: $0) }
            #elseif canImport(AppKit)
                NSImage(data: Data(bytes)).map { Image(nsImage: $0) }
            #else
                nil
            #endif
        }
    }
#endif
